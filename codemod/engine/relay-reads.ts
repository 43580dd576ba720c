// A record that leaves sight only by being answered from the app's own routes: what the code that
// fetches those routes reads of it, gathered over every relay (field → `file:line`), or why that
// cannot be told (the caller then asks the project-wide word search, project-reads.ts).
import type { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { AppRoute } from "./relay-routes.ts";
import { routeReads } from "./relay-consumers.ts";

export function relayedReads(a: Analysis, relays: { route: AppRoute; node: Node }[]): { reads: Map<string, string>; through: string } | { undecided: string } {
  const reads = new Map<string, string>();
  const routes = new Set<string>();
  for (const r of relays) {
    const got = routeReads(a, r.route);
    if ("undecided" in got) return got;
    routes.add(r.route.shown);
    for (const [field, at] of got.reads) if (!reads.has(field)) reads.set(field, at);
  }
  return { reads, through: [...routes].join(", ") };
}
