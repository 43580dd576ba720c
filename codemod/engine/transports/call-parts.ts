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

