// A mark away from the calls it is about: an error branch matching v1's wording, an error field
// read where it cannot be rewritten, a client hook or callee the error body goes to. Several
// migrated calls may reach one such place, and each of them is a site left for a human: `audit`
// reports one finding per site, so the place gets one mark per operation (`×N` when N of its
// sites share it) and one finding per site, labelled with what the place is (`subject`: an error
// read, a hook), and none of them counts as migrated.
import type { Node } from "../ts-morph.ts";
import type { Subject } from "../../formats/audit.ts";
import { addFinding, type Analysis, type Site } from "./state.ts";
import { quotedCalls } from "./mark-positions.ts";
import { todo } from "./todo-marks.ts";

/** `reason(calls, one)`: the problem, naming the calls of one operation (`one`: a single call). */
export function markForSites(a: Analysis, at: Node, sites: Iterable<Site>, reason: (calls: string, one: boolean) => string, advice: string, subject: Subject): void {
  const byOperation = new Map<string | null, Site[]>();
  for (const s of sites) {
    const op = s.finding?.operation ?? null;
    byOperation.set(op, [...(byOperation.get(op) ?? []), s]);
  }
  const frozen = a.frozen.has(at.getSourceFile().getFilePath());
  for (const [op, group] of byOperation) {
    const text = reason(quotedCalls(group.map((s) => s.call)), group.length === 1);
    for (const s of group) {
      if (!frozen) todo(a, at, op ?? "base", "review", text, advice);
      const f = s.finding;
      addFinding(a, at, { operation: op, v1: f?.v1 ?? null, v2: f?.v2 ?? null, category: "review", reason: text, advice, subject });
      s.markedElsewhere = true;
    }
  }
}
