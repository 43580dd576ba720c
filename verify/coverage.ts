// What the runs covered: the v2 operations each made, the v1 operations the original client
// called, and the call sites the codemod found that no call went through (code the command never
// exercised, so verify proves nothing about it).
import { matchV1 } from "../mappings/table.ts";
import type { Finding } from "../codemod/types.ts";
import type { RunSide } from "./compare-runs.ts";
import type { Coverage } from "./report-types.ts";
import { passesThrough } from "./sites.ts";

export function coverageOf(before: RunSide, after: RunSide, findings: Finding[]): Coverage {
  const operations = new Map<string, { before: number; after: number }>();
  for (const [name, side] of [["before", before], ["after", after]] as const) {
    for (const s of side.steps) {
      const entry = operations.get(s.label) ?? { before: 0, after: 0 };
      entry[name]++;
      operations.set(s.label, entry);
    }
  }
  const v1 = new Map<string, number>();
  for (const call of before.data.calls) {
    const url = new URL(call.url);
    if (!url.pathname.startsWith("/v1/")) continue;
    const op = matchV1(call.method, url.pathname.slice(3))?.operation.key ?? `${call.method} ${url.pathname}`;
    v1.set(op, (v1.get(op) ?? 0) + 1);
  }
  const sites = new Map<string, { file: string; line: number; operation: string }>();
  for (const f of findings) if (f.operation && f.v1) sites.set(`${f.file}:${f.line}`, { file: f.file, line: f.line, operation: f.operation });
  const neverExercised = [...sites.values()].filter((s) => !before.data.calls.some((c) => passesThrough(c.frames, before.tree, s.file, s.line)));
  return {
    operations: [...operations].map(([operation, n]) => ({ operation, ...n })).sort((a, b) => a.operation.localeCompare(b.operation)),
    v1Operations: [...v1].map(([operation, calls]) => ({ operation, calls })).sort((a, b) => a.operation.localeCompare(b.operation)),
    neverExercised: neverExercised.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line),
    sitesExercised: sites.size - neverExercised.length,
    sitesFound: sites.size,
  };
}
