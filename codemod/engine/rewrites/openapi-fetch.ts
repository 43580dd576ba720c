// Rewrite, openapi-fetch clients: paths are typed templates (`client.GET("/pods/{podId}", { params:
// { path: { podId } } })`), so the template's parameter names and the `params.path` keys become
// v2's (`{id}`); a list is unwrapped in the `{ data }` destructuring (`data` may be absent on
// errors); record reads on `data` go through the lens. (`error` reads are the error flow's: openapi-answer.ts.)
import { Node } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import { enclosingFunction } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, type Analysis, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { prop } from "../values.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import type { Problems } from "./problems.ts";

/** `/pods/{podId}/start` → `/pods/{id}/start`: template names follow the operation's path parameters. */
export function v2TemplateNames(path: string, op: OperationMapping): string {
  let out = path;
  for (const [v1, v2] of Object.entries(op.pathParams ?? {})) out = out.split(`{${v1}}`).join(`{${v2}}`);
  return out;
}

/** `params: { path: { podId } }` → `{ id: podId }`. */
export function renamePathParams(plan: Plan, http: HttpCall, op: OperationMapping): void {
  const renames = Object.entries(op.pathParams ?? {}).filter(([v1, v2]) => v1 !== v2);
  if (!renames.length) return;
  const opts = http.options && unwrapExpression(http.options);
  const params = opts && Node.isObjectLiteralExpression(opts) ? prop(opts, "params") : undefined;
  const pathObj = params && Node.isObjectLiteralExpression(unwrapExpression(params)) ? prop(unwrapExpression(params), "path") : undefined;
  const obj = pathObj && unwrapExpression(pathObj);
  if (!obj || !Node.isObjectLiteralExpression(obj)) {
    plan.problems.push({ reason: "the path parameters are passed in an object built elsewhere", advice: `rename ${renames.map(([x, y]) => `${x} → ${y}`).join(", ")} in params.path` });
    return;
  }
  for (const [v1, v2] of renames) {
    const p = obj.getProperty(v1);
    if (!p) continue;
    if (Node.isShorthandPropertyAssignment(p)) edit(plan, p, { start: p.getStart(), end: p.getStart(), text: `${v2}: ` });
    else if (Node.isPropertyAssignment(p)) edit(plan, p.getNameNode(), { start: p.getNameNode().getStart(), end: p.getNameNode().getEnd(), text: v2 });
    else plan.problems.push({ reason: `params.path.${v1} is written in a form the codemod does not rewrite`, advice: `rename it to ${v2}` });
  }
}

/** The `{ data, error }` destructuring of an awaited openapi-fetch call, if that is how it is read. */
export function resultBinding(http: HttpCall): Node | undefined {
  const outer = skipParens(http.call);
  const awaited = outer.getParent();
  if (!awaited || !Node.isAwaitExpression(awaited)) return undefined;
  const decl = skipParens(awaited).getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isObjectBindingPattern(decl.getNameNode())) return undefined;
  return decl.getNameNode();
}

function element(binding: Node, key: string): Node | undefined {
  if (!Node.isObjectBindingPattern(binding)) return undefined;
  return binding.getElements().find((el) => (el.getPropertyNameNode()?.getText() ?? el.getName()) === key);
}

/** References to the local bound to `data` / `error`. */
export function boundRefs(http: HttpCall, key: "data" | "error"): Node[] {
  const binding = resultBinding(http);
  const el = binding && element(binding, key);
  if (!el || !Node.isBindingElement(el) || !Node.isIdentifier(el.getNameNode())) return [];
  return referencesOf(enclosingFunction(el), el.getNameNode());
}

/** `const { data = [] } = await client.GET("/endpoints")` → `const { data: { endpoints: data = [] } = {} } = …`. */
export function unwrapListBinding(plan: Plan, http: HttpCall, wrapper: string): void {
  const binding = resultBinding(http);
  const el = binding && element(binding, "data");
  if (!el || !Node.isBindingElement(el)) {
    plan.problems.push({ reason: `v2 wraps the list in { ${wrapper}: [...] } and the result is not read as { data }`, advice: `read data.${wrapper}` });
    return;
  }
  const local = el.getNameNode().getText();
  const init = el.getInitializer();
  edit(plan, el, { start: el.getStart(), end: el.getEnd(), text: `data: { ${wrapper}: ${local}${init ? ` = ${init.getText()}` : ""} } = {}` });
}
