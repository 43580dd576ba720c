// A v1 path against the table: every operation it can be (per method), and the v2 path for one
// with the user's own segments in place of the path parameters.
import { matchV1 } from "../../mappings/index.ts";
import type { LocatedUrl } from "./urls.ts";

export type Match = NonNullable<ReturnType<typeof matchV1>>;

export function uniqueMatches(p: string): Match[] {
  const seen = new Set<string>();
  const out: Match[] = [];
  for (const method of ["GET", "POST", "PATCH", "PUT", "DELETE"]) {
    const m = matchV1(method, p);
    if (m && !seen.has(m.operation.key)) {
      seen.add(m.operation.key);
      out.push(m);
    }
  }
  return out;
}

/** The v2 path (relative to the base the URL uses) with the user's segments for path parameters. */
export function newPathFor(match: Match, url: LocatedUrl): string | null {
  const op = match.operation;
  if (!op.v2) return null;
  const actual = url.path.split("/").filter(Boolean);
  const template = op.v1.path.split("/").filter(Boolean);
  const raw: Record<string, string> = {};
  template.forEach((seg, i) => {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m) raw[m[1]!] = actual[i]!;
  });
  const byV2: Record<string, string> = {};
  for (const [v1Name, v2Name] of Object.entries(op.pathParams ?? {})) byV2[v2Name] = raw[v1Name]!;
  let missing = false;
  const v2 = op.v2.path.replace(/\{(\w+)\}/g, (_, n: string) => byV2[n] ?? ((missing = true), `{${n}}`));
  if (missing) return null;
  const rel = v2.replace(/^\/v2(?=\/|$)/, "");
  return rel + (url.path.endsWith("/") && !rel.endsWith("/") ? "/" : "");
}

