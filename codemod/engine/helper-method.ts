// A request helper's method parameter as it reaches the transport: the caller's method is sent
// through the helper's normalisation and fallback.
import { Node } from "../ts-morph.ts";
import { literalText, unwrapExpression } from "./urls.ts";

/**
 * The expression a helper's method is read from, with its fallback: `method || "GET"`,
 * `(method ?? "GET").toUpperCase()` and `method.toUpperCase()` all send the caller's method.
 */
export function methodParam(node: Node | undefined): { node: Node; fallback?: string } | undefined {
  let u = node && unwrapExpression(node);
  if (u && Node.isCallExpression(u) && u.getArguments().length === 0) {
    const callee = u.getExpression();
    if (Node.isPropertyAccessExpression(callee) && ["toUpperCase", "toLowerCase"].includes(callee.getName())) u = unwrapExpression(callee.getExpression());
  }
  if (u && Node.isBinaryExpression(u) && ["||", "??"].includes(u.getOperatorToken().getText())) {
    const fallback = literalText(unwrapExpression(u.getRight()));
    if (fallback !== undefined) return { node: unwrapExpression(u.getLeft()), fallback };
  }
  return u ? { node: u } : undefined;
}

/**
 * Options handed to a helper whole (`get(path, options)`): whether they can carry a method to
 * the transport, by their declared type. A type without that key (`{ query?; timeout? }`) leaves the
 * helper's own method; an untyped or loose one (`any`, an index signature) may hold anything.
 */
export function optionsMayCarry(options: Node, key: string): boolean {
  try {
    const type = options.getType();
    if (type.isAny() || type.isUnknown()) return true;
    const parts = type.isUnion() ? type.getUnionTypes() : [type];
    return parts.some((t) => {
      if (t.isUndefined() || t.isNull()) return false;
      if (!t.isObject() || t.getStringIndexType()) return true;
      return !!t.getProperty(key);
    });
  } catch {
    return true;
  }
}
