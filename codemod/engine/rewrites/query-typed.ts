// The names a v1 query object built elsewhere can carry, read from its declared type (`params?: {
// desiredStatus?: string; includeMachine?: boolean }` handed to axios's `params`): each property of
// a plain object type, whether it may be left out, and the literal values its type allows when it
// allows only literals (`includeMachine?: false`). Undefined where the type does not say: `any`, an
// index signature, a union of object types, a class or anything with methods (URLSearchParams).
// Where the object is a parameter whose callers are all seen, the callers say more than the type:
// which names they write and with which values (`callerQueryValues`).
import { Node, SyntaxKind } from "../../ts-morph.ts";
import type { Type } from "ts-morph";
import type { Analysis } from "../state.ts";
import { callerFields } from "../caller-fields.ts";

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

/** One name of a typed query object as its callers write it. */
export interface CallerQueryName {
  /** No caller writes it: the request never carries it. */
  never: boolean;
  /** Every caller writes it. */
  always: boolean;
  /** The values written, as sent (`"false"`), when every caller's is a known literal; undefined otherwise. */
  values?: string[];
  /** The first caller whose value is not known: `listPods(…) at jobs.ts:4 passes status`. */
  unknownAt?: string;
}

/**
 * What the callers write into a query object that is a parameter of the function making the call
 * (`listPods(params?: PodQuery)` handing `params` to axios): per declared name, whether any caller
 * writes it and with which values. Undefined where a writer is out of sight (an exported method
 * nobody here calls: an SDK's users), the parameter has a default, or a caller's argument is not read.
 */
export function callerQueryValues(a: Analysis, q: Node, names: Iterable<string>): Map<string, CallerQueryName> | undefined {
  const fields = callerFields(a, q, [...names], true);
  if (!fields) return undefined;
  const out = new Map<string, CallerQueryName>();
  for (const [name, f] of fields) {
    const values = f.values?.map((v) => (v === null || typeof v === "object" ? undefined : String(v)));
    const known = values && !values.includes(undefined) ? (values as string[]) : undefined;
    out.set(name, { never: !!f.values && f.values.length === 0 && !f.unknownAt, always: !f.absent, values: f.unknownAt ? undefined : known, unknownAt: f.unknownAt });
  }
  return out;
}
