// A URL chosen at run time between v1 URLs (`running ? "/pods?desiredStatus=RUNNING" : "/pods"`):
// each branch is located and matched on its own. Where every branch is the same v1 operation, the
// site is that operation (operation-plan.ts plans it once: each branch's URL rewritten, the query
// of each moved or checked, rewrites/chosen-query.ts); where they differ, the mark names what each
// branch calls. A branch whose path is itself computed keeps the older, general mark.
import type { Node } from "../ts-morph.ts";
import { matchV1, type OperationMapping } from "../../mappings/index.ts";
import { isDynamicPath, locate, type LocatedUrl, type Part } from "./urls.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import type { External } from "./values.ts";
import { uniqueMatches, type Match } from "./v1-match.ts";
import { splitQueryHole } from "./query-holes.ts";

export interface ChosenBranch {
  url: LocatedUrl;
  parts: Part[];
  match: Match;
}

/** The condition and its two branches, in the order written (`condition ? whenTrue : whenFalse`). */
export interface ChosenUrls {
  condition: Node;
  branches: [ChosenBranch, ChosenBranch];
}

export type ChosenVerdict = { kind: "one"; chosen: ChosenUrls; op: OperationMapping } | { kind: "mark"; reason: string; advice: string; opKey: string | null };

const shown = (url: LocatedUrl) => url.path.replace(/\0/g, "{…}");
const opText = (o: OperationMapping) => `${o.key}${o.v2 ? ` → ${o.v2.method} ${o.v2.path}` : ", no v2 equivalent"}`;

/**
 * What each branch calls: one operation for all (the site is that operation), or the mark naming
 * each branch's operation. Undefined where a branch's path is computed or off the v1 path (the
 * general mark of a URL chosen at run time applies).
 */
export function chosenVerdict(a: Analysis, http: HttpCall, branches: Part[][], external: External | undefined, condition: Node | undefined): ChosenVerdict | undefined {
  if (!condition || branches.length !== 2 || http.lib === "openapi-fetch") return undefined;
  const method = http.method.kind !== "unknown" ? http.method.value : undefined;
  const located: { url: LocatedUrl; parts: Part[]; matches: Match[] }[] = [];
  for (const parts of branches) {
    const url = locate(parts, external);
    if (!url || url.problem || isDynamicPath(url) || url.path === "") return undefined;
    // `/pods${query}`: the path is known, the query is checked with the query.
    splitQueryHole(a, url);
    if (url.path.includes("\0") && url.path.split("/").some((seg) => seg.includes("\0") && seg !== "\0")) return undefined;
    const matches = method ? [matchV1(method, url.path)].filter((m): m is Match => m !== null) : uniqueMatches(url.path);
    located.push({ url, parts, matches });
  }
  const keys = located.map((b) => (b.matches.length === 1 ? b.matches[0]!.operation.key : null));
  if (keys[0] && keys.every((k) => k === keys[0])) {
    const [t, f] = located.map((b) => ({ url: b.url, parts: b.parts, match: b.matches[0]! }));
    return { kind: "one", chosen: { condition, branches: [t!, f!] }, op: t!.match.operation };
  }
  const each = located.map((b) => `${shown(b.url)} (${b.matches.length === 1 ? opText(b.matches[0]!.operation) : b.matches.length ? `${method ?? "method not known"}: ${b.matches.map((m) => m.operation.key).join(" / ")}` : `not a v1 operation path${method ? ` for ${method}` : ""}`})`);
  const ops = [...new Set(located.flatMap((b) => b.matches.map((m) => m.operation.key)))];
  return {
    kind: "mark",
    reason: `the URL is chosen at run time between ${each.join(" and ")}, ${located.every((b) => b.matches.length === 1) ? "two v1 operations" : "not one v1 operation"}`,
    advice: "write each branch as its own v2 call (docs/mapping.md), dropping a path v1 does not have",
    opKey: ops.length ? ops.join("|") : null,
  };
}
