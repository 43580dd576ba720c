// Reading a call's method and body expressions: a literal method, and a body given as is or
// serialised (`JSON.stringify(body)`, `body ? JSON.stringify(body) : undefined`).
import { Node } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import { literalText, unwrapExpression } from "../urls.ts";
import type { HttpCall } from "./transport.ts";

export function methodOf(m: Node | undefined): HttpCall["method"] | undefined {
  if (!m) return undefined;
  const lit = literalText(unwrapExpression(m));
  return lit !== undefined ? { kind: "literal", value: lit.toUpperCase() as HttpMethod, node: unwrapExpression(m) } : { kind: "unknown", node: m };
}

function stringified(node: Node): Node | undefined {
  const n = unwrapExpression(node);
  if (Node.isCallExpression(n) && n.getExpression().getText() === "JSON.stringify" && n.getArguments()[0]) return n.getArguments()[0]!;
  // `body ? JSON.stringify(body) : undefined`, `body && JSON.stringify(body)`
  if (Node.isConditionalExpression(n)) return stringified(n.getWhenTrue()) ?? stringified(n.getWhenFalse());
  if (Node.isBinaryExpression(n) && ["&&", "??", "||"].includes(n.getOperatorToken().getText())) return stringified(n.getRight());
  return undefined;
}

export function bodyOf(node: Node, propNode?: Node): HttpCall["body"] {
  const inner = stringified(node);
  return inner ? { node: inner, stringify: true, prop: propNode } : { node, stringify: false, prop: propNode };
}


/**
 * The options' key given only on a condition (`...(body ? { body: JSON.stringify(body) } : {})`,
 * `...(body && { body: … })`): the property, when the other branch adds nothing.
 */
export function conditionalOption(opts: Node | undefined, key: string): Node | undefined {
  if (!opts || !Node.isObjectLiteralExpression(opts)) return undefined;
  const empty = (n: Node) => Node.isObjectLiteralExpression(unwrapExpression(n)) && (unwrapExpression(n) as any).getProperties().length === 0;
  for (const p of opts.getProperties()) {
    if (!Node.isSpreadAssignment(p)) continue;
    const e = unwrapExpression(p.getExpression());
    const branch = Node.isConditionalExpression(e) && empty(e.getWhenFalse()) ? e.getWhenTrue() : Node.isBinaryExpression(e) && e.getOperatorToken().getText() === "&&" ? e.getRight() : undefined;
    const lit = branch && unwrapExpression(branch);
    const found = lit && Node.isObjectLiteralExpression(lit) ? lit.getProperty(key) : undefined;
    if (found && Node.isPropertyAssignment(found)) return found;
  }
  return undefined;
}
