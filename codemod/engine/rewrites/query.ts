// Rewrite check: query parameters the table drops, emulates or rejects, left in a rewritten URL
// or passed as an options object (axios `params`, got/ky `searchParams`, openapi-fetch
// `params.query`). The parameters stay as written; the site is marked with the table's decision.
import { Node } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression, type LocatedUrl } from "../urls.ts";
import type { Analysis, Plan } from "../state.ts";
import type { Problems } from "./problems.ts";
import type { HttpCall } from "../transports/index.ts";
import { objectLiteral, prop } from "../values.ts";

function check(name: string, op: OperationMapping, seen: Set<string>, problems: Problems): void {
  if (!name || name.includes("\0") || seen.has(name)) return;
  seen.add(name);
  const m = op.query?.find((x) => x.v1 === name);
  if (!m?.decision) return;
  problems.push({ reason: `query parameter ${name} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
}

/** The object a call passes its query parameters in, if any. */
function queryObject(a: Analysis, http: HttpCall): Node | undefined {
  const opts = http.options && objectLiteral(a, http.options);
  if (!opts) return undefined;
  if (http.lib === "axios") return prop(opts, "params");
  if (http.lib === "convention") return prop(opts, "params") ?? prop(opts, "searchParams") ?? prop(opts, "query");
  if (http.lib === "got" || http.lib === "ky") return prop(opts, "searchParams");
  if (http.lib === "openapi-fetch") {
    const params = prop(opts, "params");
    return params && Node.isObjectLiteralExpression(unwrapExpression(params)) ? prop(unwrapExpression(params), "query") : undefined;
  }
  return undefined;
}

export function queryParams(plan: Plan, http: HttpCall, url: LocatedUrl, op: OperationMapping): void {
  const seen = new Set<string>();
  if (url.query) for (const pair of url.query.split("#")[0]!.replace(/^\?/, "").split("&")) check(pair.split("=")[0]!, op, seen, plan.problems);
  const q = queryObject(plan.a, http);
  if (!q) return;
  const obj = objectLiteral(plan.a, q);
  if (!obj || !Node.isObjectLiteralExpression(obj)) {
    if (op.query?.some((x) => x.decision)) plan.problems.push({ reason: `the query parameters are built elsewhere (${q.getText().slice(0, 40)}), and v2 does not take all of ${op.key}'s v1 parameters as they are`, advice: "check each parameter against docs/mapping.md" });
    return;
  }
  for (const p of obj.getProperties()) {
    if (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) check(p.getName().replace(/^["']|["']$/g, ""), op, seen, plan.problems);
    else if (op.query?.some((x) => x.decision)) plan.problems.push({ reason: `query parameters spread from elsewhere (${p.getText().slice(0, 40)})`, advice: "check each parameter against docs/mapping.md" });
  }
}
