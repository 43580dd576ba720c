// The names a v1 query object built elsewhere can carry, read from its declared type (`params?: {
// desiredStatus?: string; includeMachine?: boolean }` handed to axios's `params`): each property of
// a plain object type, whether it may be left out, and the literal values its type allows when it
// allows only literals (`includeMachine?: false`). Undefined where the type does not say: `any`, an
// index signature, a union of object types, a class or anything with methods (URLSearchParams).
import { Node, SyntaxKind } from "../../ts-morph.ts";
import type { Type } from "ts-morph";

export interface DeclaredQueryName {
  optional: boolean;
  /** The values the type allows, as sent (`"false"`), when it allows only literals; undefined otherwise. */
  values?: string[];
}

export function declaredQueryNames(q: Node): Map<string, DeclaredQueryName> | undefined {
  const t = q.getType();
  const parts = (t.isUnion() ? t.getUnionTypes() : [t]).filter((p) => !p.isUndefined() && !p.isNull());
  if (parts.length !== 1) return undefined;
  const o = parts[0]!;
  if (o.isAny() || o.isUnknown() || !o.isObject() || o.isArray() || o.isTuple() || o.getCallSignatures().length || o.getStringIndexType() || o.getNumberIndexType()) return undefined;
  const out = new Map<string, DeclaredQueryName>();
  for (const sym of o.getProperties()) {
    const decls = sym.getDeclarations();
    // Declared fields of a type literal or interface only: a class's or an object's methods are not query values.
    if (!decls.length || !decls.every((d) => Node.isPropertySignature(d) && !d.getFirstChildByKind(SyntaxKind.FunctionType))) return undefined;
    const type = sym.getTypeAtLocation(q);
    // Left out, or given as undefined (no parameter either way).
    const optional = decls.some((d) => Node.isPropertySignature(d) && d.hasQuestionToken()) || (type.isUnion() && type.getUnionTypes().some((p) => p.isUndefined())) || type.isUndefined();
    out.set(sym.getName(), { optional, values: literalValues(type) });
  }
  return out;
}

/** The values a property type allows as a query sends them, when each is a literal (undefined allowed: absent). */
function literalValues(t: Type): string[] | undefined {
  const parts = (t.isUnion() ? t.getUnionTypes() : [t]).filter((p) => !p.isUndefined());
  if (!parts.length) return undefined;
  const out: string[] = [];
  for (const p of parts) {
    if (p.isStringLiteral() || p.isNumberLiteral()) out.push(String(p.getLiteralValue()));
    else if (p.isBooleanLiteral()) out.push(p.getText());
    else return undefined;
  }
  return out;
}
