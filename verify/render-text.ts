// The text report: the verdict first, then where the runs part ways, each difference with its
// call sites, the notes, what was covered and what was never exercised.
import type { Difference, RunSummary, StepView, VerifyReport } from "./report-types.ts";
import { exitCodeOf } from "./report-types.ts";
import { formatSite } from "./sites.ts";

const VERDICT = { equivalent: "EQUIVALENT", different: "DIFFERENT", "no-calls": "NOTHING VERIFIED (no API calls)", error: "ERROR" } as const;

export function renderText(r: VerifyReport): string {
  const out: string[] = [];
  out.push(`v2-bridge verify: ${VERDICT[r.verdict]}`);
  out.push(`  command: ${r.command.join(" ")}`);
  out.push(`  before:  ${r.root} (v1 → gateway → sandbox, v2 → sandbox; seed ${JSON.stringify(r.seed)})`);
  // A failed run's stderr, unless an exit-code difference shows it below.
  const shown = r.differences.some((d) => d.kind === "exit-code");
  out.push(`           ${run(r.runs.before)}`, ...(shown ? [] : stderr(r.runs.before)));
  const how = r.after.how === "rewrite" ? `a copy rewritten by rewrite --write: ${plural(r.after.filesChanged ?? 0, "file")} changed, ${plural(r.after.leftForReview ?? 0, "site")} left for review` : r.after.how === "ref" ? "checked out from git" : "given with --after";
  out.push(`  after:   ${r.after.dir} (${how})`);
  out.push(`           ${run(r.runs.after)}`, ...(shown ? [] : stderr(r.runs.after)));
  if (r.error) out.push("", `error: ${r.error}`);
  if (r.divergence) {
    out.push("", "Where the runs part ways:", `  ${r.divergence.message}`);
    for (const d of r.divergence.details ?? []) out.push(`    ${d}`);
  }
  if (r.differences.length) {
    out.push("", `Differences (${r.differences.length}):`);
    r.differences.forEach((d, i) => out.push(...item(`${i + 1}.`, d)));
  }
  if (r.notes.length) {
    out.push("", `Notes (${r.notes.length}; they change no record):`);
    for (const n of r.notes) out.push(...item("-", n));
  }
  out.push("", ...coverage(r));
  out.push("", `Scope: ${r.scope}`);
  out.push("", `Result: ${r.verdict} (exit ${exitCodeOf(r.verdict)})`);
  return out.join("\n") + "\n";
}

function run(s: RunSummary): string {
  const end = s.timedOut ? "timed out" : s.signal ? `killed by ${s.signal}` : `exit ${s.exitCode}`;
  const processes = s.processes === 1 ? "1 Node process" : `${s.processes} Node processes`;
  return `${end}; ${plural(s.calls.v1 + s.calls.v2, "API call")} (${s.calls.v1} v1, ${s.calls.v2} v2) from ${processes}; ${plural(s.v2Requests, "v2 request")} reached the sandbox; ${plural(s.operations, "operation")} compared; ${(s.durationMs / 1000).toFixed(1)} s`;
}

function stderr(s: RunSummary): string[] {
  return s.stderrTail ? s.stderrTail.split("\n").map((l) => `           ${l}`) : [];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function item(bullet: string, d: Difference): string[] {
  const pad = " ".repeat(bullet.length + 3);
  const lines = [`  ${bullet} [${d.kind}] ${d.message}`];
  if (d.before) lines.push(`${pad}before: ${step(d.before)}`);
  if (d.after) lines.push(`${pad}after:  ${step(d.after)}`);
  for (const x of d.details ?? []) lines.push(`${pad}${x}`);
  return lines;
}

function step(v: StepView): string {
  return `#${v.index} ${v.method} ${v.path} → ${v.status}${v.api === "v1" ? " (v1, via the gateway)" : ""}, at ${formatSite(v.site)}`;
}

function coverage(r: VerifyReport): string[] {
  const c = r.coverage;
  const out = ["Coverage:"];
  out.push(`  v2 operations (before/after): ${c.operations.map((o) => `${o.operation} ${o.before}/${o.after}`).join(", ") || "none"}`);
  out.push(`  v1 operations the original called: ${c.v1Operations.map((o) => `${o.operation} ×${o.calls}`).join(", ") || "none"}`);
  if (c.sitesFound) {
    out.push(`  call sites the codemod found: ${c.sitesExercised} of ${c.sitesFound} exercised by the command`);
    if (c.neverExercised.length) {
      out.push("  never exercised (verify proves nothing about these; extend the command to reach them):");
      for (const s of c.neverExercised) out.push(`    ${s.file}:${s.line} ${s.operation}`);
    }
  }
  return out;
}
