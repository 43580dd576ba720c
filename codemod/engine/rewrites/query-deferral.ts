// Query parameters whose mark waits for the end of the site's plan (query-moves.ts): a v1 list
// filter the adapter applies on the client, an include expansion nobody reads. The query check
// (query.ts) asks `deferQuery` before marking a name; the mark is written later, at the place it
// would have had among the site's problems, only if the parameter cannot be moved.
import type { Problems } from "./problems.ts";

interface Deferral {
  names: Set<string>;
  /** Each deferred name and where its problem would have been among the site's problems. */
  at: Map<string, number>;
}

const deferrals = new WeakMap<Problems, Deferral>();

/** Names that may be moved at this site (keyed by the site's problem list, which its plan carries). */
export function offerDeferral(problems: Problems, names: Iterable<string>): void {
  deferrals.set(problems, { names: new Set(names), at: new Map() });
}

/** Whether the query check leaves this name's mark for later (remembering where it would go). */
export function deferQuery(problems: Problems, name: string): boolean {
  const d = deferrals.get(problems);
  if (!d?.names.has(name)) return false;
  if (!d.at.has(name)) d.at.set(name, problems.length);
  return true;
}

/** The deferred names, with their places, ending the deferral. */
export function takeDeferred(problems: Problems): Map<string, number> {
  const d = deferrals.get(problems);
  deferrals.delete(problems);
  return d?.at ?? new Map();
}
