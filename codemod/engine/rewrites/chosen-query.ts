// The query of a URL chosen at run time between two URLs of one operation (chosen-urls.ts): each
// branch's URL is rewritten with its own pairs, each branch's query is checked, and a parameter a
// branch writes in its URL is written for query-moves.ts as the same choice
// (`running ? "RUNNING" : undefined`: the branch that did not send it asks for no filter).
import type { OperationMapping } from "../../../mappings/index.ts";
import type { Edit } from "../../types.ts";
import type { Analysis, Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import type { ChosenUrls } from "../chosen-urls.ts";
import { newPathFor } from "../v1-match.ts";
import { writtenQuery, type Written, type WrittenQuery } from "./query-written.ts";
import { urlWithoutMoved } from "./query-moves.ts";
import { queryParams } from "./query.ts";

/** Each branch's written query, and the two merged: a name a branch's URL writes becomes one choice. */
export function chosenWritten(a: Analysis, http: HttpCall, chosen: ChosenUrls): { merged: WrittenQuery; each: WrittenQuery[] } {
  const each = chosen.branches.map((b) => writtenQuery(a, http, b.url));
  const [t, f] = each as [WrittenQuery, WrittenQuery];
  const merged: WrittenQuery = new Map();
  for (const name of new Set([...t.keys(), ...f.keys()])) {
    const inT = t.get(name);
    const inF = f.get(name);
    if ((t.has(name) && !inT) || (f.has(name) && !inF)) {
      merged.set(name, undefined);
      continue;
    }
    // A place both branches reach (an options object) is the call's own; a branch's URL text is that branch's.
    const shared = (inT ?? []).filter((w) => (inF ?? []).some((x) => x.node === w.node && x.hole === w.hole && w.node));
    const own = (list: Written[] | undefined) => (list ?? []).filter((w) => !shared.some((x) => x.node === w.node && x.hole === w.hole));
    const [ownT, ownF] = [own(inT), own(inF)];
    if (!ownT.length && !ownF.length) merged.set(name, shared);
    // Written elsewhere for one branch only (a `URLSearchParams` in one URL), or twice: not moved.
    else if (shared.length || ownT.length > 1 || ownF.length > 1 || [...ownT, ...ownF].some((w) => w.node)) merged.set(name, undefined);
    else merged.set(name, [{ chosen: { condition: chosen.condition, whenTrue: ownT[0], whenFalse: ownF[0] }, serialised: "text" }]);
  }
  return { merged, each };
}

/** Every branch's URL in v2 terms, leaving out the pairs of `names` (null where one cannot be written). */
export function chosenUrlEdits(chosen: ChosenUrls, op: OperationMapping, names: ReadonlySet<string>, each: WrittenQuery[] | undefined): Edit[] | null {
  const edits: Edit[] = [];
  for (const [i, b] of chosen.branches.entries()) {
    const path = newPathFor(b.match, b.url);
    const made = path === null ? null : urlWithoutMoved(b.url, path, op, names, each?.[i]);
    if (!made) return null;
    edits.push(...made);
  }
  return edits;
}

/** The query check of each branch; what the two share (an options object) is checked once. */
export function chosenQueryParams(plan: Plan, http: HttpCall, chosen: ChosenUrls, op: OperationMapping): void {
  const [first, second] = chosen.branches;
  queryParams(plan, http, first.url, op);
  const problems = plan.problems.length;
  const edits = plan.site.edits.length;
  queryParams(plan, http, second.url, op);
  const seenReasons = new Set(plan.problems.slice(0, problems).map((p) => p.reason));
  const again = plan.problems.slice(problems).filter((p) => seenReasons.has(p.reason));
  for (const p of again) plan.problems.splice(plan.problems.indexOf(p), 1);
  const key = (e: Edit) => `${e.file}:${e.start}:${e.end}:${e.text}`;
  const made = new Set(plan.site.edits.slice(0, edits).map(key));
  const twice = plan.site.edits.slice(edits).filter((e) => made.has(key(e)));
  for (const e of twice) plan.site.edits.splice(plan.site.edits.indexOf(e), 1);
}
