// A kept call in a TanStack Query `queryFn` (`queryFn: () => api("/pods")`) keeps v1 through its
// helper's base parameter like any kept call; its `queryKey` is no URL and does not change. The cache
// entry under that key then holds v1 records, which is sound only while no query moving to v2 runs
// its own `queryFn` under a key that may be the same, and no `setQueryData` writes into it what is
// not the answer of a call staying v1. Otherwise the base stays v1, and the mark says which.
import type { Node } from "../ts-morph.ts";
import type { Analysis, Site } from "./state.ts";
import { sharersOfQuery } from "./query-results.ts";
import { foreignValue } from "./swr-kept-fetcher.ts";

const here = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;

/** Why the kept query's cache entry may come to hold records other than its own v1 ones (undefined when it cannot). */
export function queryKeptEntryWhy(a: Analysis, site: Site): string | undefined {
  const sharers = sharersOfQuery(a, site.call);
  if (!sharers) return undefined;
  for (const s of sharers) {
    if (s.fn) {
      const fn = s.fn;
      const moves = a.sites.some((o) => o !== site && o.finding && o.complete && o.call.getFirstAncestor((n) => n === fn));
      if (moves) return `its queryKey may be the key of the query at ${here(s.call)}, which moves to v2: one cache entry would hold v1 and v2 records`;
      continue;
    }
    const foreign = s.data ? foreignValue(a, s.data) : "data not known";
    if (foreign) return `the cache write at ${here(s.call)} puts ${foreign} into its cached data, which is not the answer of a call that stays v1`;
  }
  return undefined;
}
