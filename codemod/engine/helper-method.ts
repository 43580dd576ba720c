// A request helper's method parameter as it reaches the transport: the caller's method is sent
// through the helper's normalisation and fallback.
import { Node } from "../ts-morph.ts";
import { literalText, unwrapExpression } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { objectLiteral, prop } from "./values.ts";

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

/**
 * The spread in a caller's options literal (`{ query, ...options }`) that may carry a method: one
 * after the literal's own method key, whose value is not a literal without it (by its declared type),
 * and where `carries` says a method in it can be seen (by default: wherever its type allows one).
 */
export function spreadCarrying(a: Analysis, literal: Node, key: string, carries: (e: Node) => Node | undefined = (e) => (optionsMayCarry(e, key) ? e : undefined), depth = 0): { spread: Node; seen: Node } | undefined {
  if (!Node.isObjectLiteralExpression(literal) || depth > 4) return undefined;
  const props = literal.getProperties();
  const last = props.map((p, i) => ((Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && p.getName() === key ? i : -1)).reduce((x, y) => Math.max(x, y), -1);
  for (const p of props.slice(last + 1)) {
    if (!Node.isSpreadAssignment(p)) continue;
    const e = p.getExpression();
    const inner = objectLiteral(a, e);
    if (inner) {
      if (prop(inner, key)) return { spread: e, seen: e };
      const deeper = spreadCarrying(a, inner, key, carries, depth + 1);
      if (deeper) return deeper;
    } else {
      // (Where a method in them is seen: the options themselves, or a project caller's literal.)
      const seen = optionsMayCarry(e, key) ? carries(e) : undefined;
      if (seen) return { spread: e, seen };
    }
  }
  return undefined;
}

/** `undefined`, `null`, `void 0` handed where options go: no options at all, so nothing of them can set the method. */
export function noOptionsValue(node: Node | undefined): boolean {
  const u = node && unwrapExpression(node);
  if (!u) return false;
  if (Node.isIdentifier(u)) return u.getText() === "undefined";
  return Node.isNullLiteral(u) || Node.isVoidExpression(u);
}

/**
 * A parameter typed as a string, number or boolean (`label: string`, contextually from an interface
 * the object implements): it cannot be a helper's options, whatever its callers give there.
 */
export function primitiveTyped(param: Node): boolean {
  try {
    const type = param.getType();
    const parts = type.isUnion() ? type.getUnionTypes() : [type];
    return parts.every((t) => t.isString() || t.isStringLiteral() || t.isNumber() || t.isNumberLiteral() || t.isBoolean() || t.isBooleanLiteral() || t.isTemplateLiteral?.());
  } catch {
    return false;
  }
}
