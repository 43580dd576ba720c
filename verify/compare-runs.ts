// Compares the two runs by effect: their operations (compare-steps), the records they left in the
// sandbox, their exit codes and (asked for) their output. A body difference that changes no record
// stays a note; one on a call that wrote a record the runs disagree on counts.
import { diffLines } from "diff";
import { compareSteps, view, type Side } from "./compare-steps.ts";
import type { Normaliser } from "./normalise.ts";
import { diffRecords, type RecordDifference, type Records } from "./records.ts";
import type { Difference } from "./report-types.ts";
import { formatSite, siteOf } from "./sites.ts";
import type { CommandRun } from "./run-command.ts";
import type { RunData, Step } from "./steps.ts";

export type RunSide = Side & { data: RunData; records: Records; command: CommandRun };

export type Comparison = { divergence: Difference | null; differences: Difference[]; notes: Difference[] };

export function compareRuns(before: RunSide, after: RunSide, options: { compareOutput: boolean }): Comparison {
  const steps = compareSteps(before, after);
  const items = [...steps.items];
  const records = diffRecords(before.records, after.records, before.normaliser, after.normaliser);
  for (const r of records) items.push(recordItem(r, before, after));
  // A body difference counts when the call wrote a record that ended up different.
  const differing = new Set(records.map((r) => r.label));
  for (const { item, before: b, after: a } of steps.bodies) {
    if (touched(b, before.normaliser).some((l) => differing.has(l)) || touched(a, after.normaliser).some((l) => differing.has(l))) item.severity = "difference";
  }
  items.push(...exitItems(before.command, after.command));
  if (options.compareOutput) items.push(...outputItems(before, after));
  items.push(...callNotes(before, after));
  const divergence = steps.divergence;
  return {
    divergence,
    differences: items.filter((i) => i.severity === "difference"),
    notes: items.filter((i) => i.severity === "note"),
  };
}

/** The labels of the records a step is about: in its path, or the id it answered. */
function touched(step: Step, normaliser: Normaliser): string[] {
  const labels: string[] = [...(normaliser.text(step.path).match(/[a-z]+#\d+/g) ?? [])];
  const id = step.answer && typeof step.answer === "object" ? (step.answer as { id?: unknown }).id : undefined;
  if (typeof id === "string") labels.push(normaliser.text(id));
  return labels;
}

function lastWrite(side: RunSide, label: string): number {
  for (let i = side.steps.length - 1; i >= 0; i--) if (side.steps[i]!.write && touched(side.steps[i]!, side.normaliser).includes(label)) return i;
  return -1;
}

function recordItem(r: RecordDifference, before: RunSide, after: RunSide): Difference {
  const b = lastWrite(before, r.label);
  const a = lastWrite(after, r.label);
  const what = r.only ? `exists only in the ${r.only} run` : `differs in ${r.fields.length} field${r.fields.length === 1 ? "" : "s"}`;
  return {
    kind: "record",
    severity: "difference",
    message: `record ${r.collection} ${r.label} ${what}`,
    ...(b >= 0 ? { before: view(before.steps[b]!, b, before) } : {}),
    ...(a >= 0 ? { after: view(after.steps[a]!, a, after) } : {}),
    details: r.fields,
  };
}

function exitItems(before: CommandRun, after: CommandRun): Difference[] {
  const state = (r: CommandRun) => (r.spawnError ? `did not start (${r.spawnError})` : r.timedOut ? "timed out" : r.signal ? `was killed by ${r.signal}` : `exited ${r.exitCode}`);
  if (state(before) === state(after)) return [];
  return [
    {
      kind: "exit-code",
      severity: "difference",
      message: `the command ${state(before)} before and ${state(after)} after`,
      details: [...tail("before's stderr", before.stderr), ...tail("after's stderr", after.stderr)],
    },
  ];
}

export function tail(title: string, text: string, lines = 8): string[] {
  const kept = text.trimEnd().split("\n").filter(Boolean).slice(-lines);
  return kept.length ? [`${title} (last ${kept.length === 1 ? "line" : `${kept.length} lines`}):`, ...kept.map((l) => `  ${l}`)] : [];
}

function outputItems(before: RunSide, after: RunSide): Difference[] {
  const b = before.normaliser.text(before.command.stdout);
  const a = after.normaliser.text(after.command.stdout);
  if (b === a) return [];
  const details: string[] = [];
  for (const part of diffLines(b, a)) {
    if (!part.added && !part.removed) continue;
    for (const line of part.value.split("\n").filter(Boolean)) if (details.length < 20) details.push(`${part.added ? "+" : "-"} ${line}`);
  }
  return [{ kind: "output", severity: "difference", message: "the command printed something else (stdout, ids and times normalised)", details }];
}

/** What is worth knowing and changes nothing: v1 calls left after the rewrite, calls the gateway answered itself, refused keys. */
function callNotes(before: RunSide, after: RunSide): Difference[] {
  const notes: Difference[] = [];
  const v1Left = after.steps.filter((s) => s.api === "v1");
  if (v1Left.length) {
    const ops = [...new Set(v1Left.map((s) => s.label))].join(", ");
    notes.push({ kind: "v1-left", severity: "note", message: `${v1Left.length} operation${v1Left.length === 1 ? "" : "s"} of the after run still call v1, through the gateway (calls the rewrite marked for review): ${ops}`, details: v1Left.slice(0, 5).map((s) => `at ${formatSite(siteOf(s.call?.frames, after.tree))}`) });
  }
  for (const [name, side] of [["before", before], ["after", after]] as const) {
    for (const call of side.data.gatewayOnly.slice(0, 10)) {
      notes.push({ kind: "gateway-only", severity: "note", message: `${name}: ${call.method} ${call.url} was answered by the gateway itself; nothing reached v2`, details: [`at ${formatSite(siteOf(call.frames, side.tree))}`] });
    }
    const refused = side.data.hits.filter((h) => h.status === 401).length;
    if (refused) notes.push({ kind: "auth", severity: "note", message: `${name}: ${refused} request${refused === 1 ? " was" : "s were"} refused for its API key: give the client any sandbox_… key (verify sets RUNPOD_API_KEY=sandbox_verify)` });
  }
  return notes;
}
