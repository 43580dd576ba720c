// Whether the headers a call sends say JSON, when they are built elsewhere (`headers: getHeaders()`,
// `headers: baseHeaders`): the evaluator follows the expression to the object literals it can
// hold. All of them naming Content-Type: nothing to add. All plain objects without it: the header
// is added by spreading them into a new literal. Anything else (a `Headers` instance, a value the
// evaluator cannot see): unknown, and the site says so.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { optionsOf } from "./evaluate/value.ts";

export type HeadersFact = "json" | "plain" | "unknown";

export function headersFact(a: Analysis, expr: Node): HeadersFact {
  let value;
  try {
    value = a.evaluator.evaluate(expr);
  } catch {
    return "unknown";
  }
  const options = optionsOf(value);
  const literals: Node[] = [];
  for (const o of options) {
    if (o.kind !== "object" || !Node.isObjectLiteralExpression(o.node)) return "unknown";
    literals.push(o.node);
  }
  // A spread inside the literal may carry the header (or a Headers instance): not known.
  if (literals.some((l) => Node.isObjectLiteralExpression(l) && l.getProperties().some((p) => Node.isSpreadAssignment(p)) && !namesContentType(l))) return "unknown";
  return literals.every(namesContentType) ? "json" : "plain";
}

function namesContentType(literal: Node): boolean {
  if (!Node.isObjectLiteralExpression(literal)) return false;
  return literal.getProperties().some((p) => {
    const name = Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName().replace(/^["'`]|["'`]$/g, "") : "";
    return /^content-type$/i.test(name);
  });
}
