// Rewrite check: query parameters the table drops, emulates or rejects, left in a rewritten URL.
import type { OperationMapping } from "../../../mappings/index.ts";
import type { LocatedUrl } from "../../urls.ts";
import type { Problems } from "./problems.ts";

export function queryParams(url: LocatedUrl, op: OperationMapping, problems: Problems): void {
  if (!url.query || !op.query) return;
  const q = url.query.split("#")[0]!.replace(/^\?/, "");
  const seen = new Set<string>();
  for (const pair of q.split("&")) {
    const name = pair.split("=")[0]!;
    if (!name || name.includes("\0") || seen.has(name)) continue;
    seen.add(name);
    const m = op.query.find((x) => x.v1 === name);
    if (!m?.decision) continue;
    problems.push({ reason: `query parameter ${name} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
  }
}
