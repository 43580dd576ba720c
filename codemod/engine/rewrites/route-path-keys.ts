// Rewrite, generated clients' request configs (`{ url: '/pods/{podId}', path: { 'podId': podId } }`,
// transports/route-config.ts): the generated request fills each `{name}` of the template from the
// `path` object's key of that name, so the two are renamed together to v2's names (`{id}`, `'id'`),
// or not at all. Where the `path` object is not written at the call (hey-api's `...options` from the
// SDK function's caller), the template keeps its v1 names: the request still fills them the same way.
import { Node, type ObjectLiteralExpression } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { prop } from "../values.ts";

/** The config's `path` object when it is written at the call and names every parameter v2 renames. */
export function routePathObject(http: HttpCall, op: OperationMapping): ObjectLiteralExpression | undefined {
  if (!http.routeConfig) return undefined;
  const renames = Object.entries(op.pathParams ?? {}).filter(([v1, v2]) => v1 !== v2);
  const opts = http.options && unwrapExpression(http.options);
  const path = opts && Node.isObjectLiteralExpression(opts) ? prop(opts, "path") : undefined;
  const obj = path && unwrapExpression(path);
  if (!renames.length || !obj || !Node.isObjectLiteralExpression(obj)) return undefined;
  return renames.every(([v1]) => keyOf(obj, v1)) ? obj : undefined;
}

function keyOf(obj: ObjectLiteralExpression, name: string): Node | undefined {
  return obj.getProperties().find((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && p.getName().replace(/^["']|["']$/g, "") === name);
}

/** `path: { 'podId': podId }` → `path: { 'id': podId }`, in the quotes it was written with. */
export function renameRoutePathKeys(plan: Plan, obj: ObjectLiteralExpression, op: OperationMapping): void {
  for (const [v1, v2] of Object.entries(op.pathParams ?? {})) {
    if (v1 === v2) continue;
    const p = keyOf(obj, v1)!;
    if (Node.isShorthandPropertyAssignment(p)) edit(plan, p, { start: p.getStart(), end: p.getStart(), text: `${v2}: ` });
    else if (Node.isPropertyAssignment(p)) {
      const name = p.getNameNode();
      const quote = /^["']/.exec(name.getText())?.[0] ?? "";
      edit(plan, name, { start: name.getStart(), end: name.getEnd(), text: `${quote}${v2}${quote}` });
    }
  }
}
