// A schema library's validation of a value (zod: `Schema.parse(x)`, `safeParse`, their async forms)
// reads every field the schema names: a record validated by a schema written in v1 names fails on
// a v2 answer. This module finds where a value is validated and what the schema names.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { skipParens } from "./nodes.ts";
import { unwrapExpression } from "./urls.ts";

/** `parse` / `parseAsync` answer the validated value itself (they throw on failure); the `safe` forms a `{ success, data }` result. */
const PARSES = new Set(["parse", "parseAsync", "safeParse", "safeParseAsync"]);
/** Methods whose result validates the same fields as their receiver. */
const SAME_FIELDS = new Set(["optional", "nullable", "nullish", "passthrough", "strict", "strip", "partial", "deepPartial", "required", "describe", "default", "catch", "readonly", "brand", "refine", "superRefine", "transform", "pipe"]);
const OBJECTS = new Set(["object", "strictObject", "looseObject"]);
/** Modifiers whose object keeps the keys it does not name (zod strips them otherwise). */
const KEEPS_OTHERS = new Set(["passthrough", "looseObject"]);

/** What a schema validates: an object naming its keys (each with its own schema), an array of one, or something not read here. */
export type SchemaShape =
  | { kind: "object"; keys: Map<string, Node | undefined>; open?: boolean }
  | { kind: "array"; of: SchemaShape }
  | { kind: "unknown" };

export interface SchemaParse {
  /** The `Schema.parse(x)` call. */
  call: Node;
  /** The schema expression (`PodSchema`, `z.array(PodSchema)`, a parameter). */
  schema: Node;
  /** Whether the call answers the value itself (`parse`), not a `{ success, data }` result. */
  returnsValue: boolean;
}

/** The schema validation `value` is the argument of (through parentheses, `await`, `as`), if any. */
export function schemaParseOf(value: Node): SchemaParse | undefined {
  let outer = skipParens(value);
  let up = outer.getParent();
  while (up && (Node.isAwaitExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up) || Node.isParenthesizedExpression(up))) (outer = up), (up = up.getParent());
  if (!up || !Node.isCallExpression(up) || up.getArguments()[0] !== outer) return undefined;
  const callee = up.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !PARSES.has(callee.getName())) return undefined;
  return { call: up, schema: callee.getExpression(), returnsValue: !callee.getName().startsWith("safe") };
}

/** The function parameter a schema expression is (`schema` of `rp(schema, path)`), as its index. */
export function schemaParamIndex(schema: Node, fn: Node): number | undefined {
  const u = unwrapExpression(schema);
  if (!Node.isIdentifier(u)) return undefined;
  const params = (fn as any).getParameters?.() as Node[] | undefined;
  const i = params?.findIndex((p) => (p as any).getName?.() === u.getText()) ?? -1;
  return i >= 0 ? i : undefined;
}

/** What a zod schema expression validates, through constants (in any module) and its modifiers. */
export function schemaShape(schema: Node, depth = 0): SchemaShape {
  if (depth > 8) return { kind: "unknown" };
  const u = unwrapExpression(schema);
  if (Node.isIdentifier(u)) {
    const init = constInitializer(u);
    return init ? schemaShape(init, depth + 1) : { kind: "unknown" };
  }
  if (!Node.isCallExpression(u)) return { kind: "unknown" };
  const callee = u.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return { kind: "unknown" };
  const name = callee.getName();
  const args = u.getArguments();
  const receiver = callee.getExpression();
  const isZ = Node.isIdentifier(receiver) && receiver.getText() === "z";
  if (isZ && OBJECTS.has(name)) return args[0] ? opened(objectKeys(args[0]), KEEPS_OTHERS.has(name)) : { kind: "unknown" };
  if (isZ && name === "array") return args[0] ? { kind: "array", of: schemaShape(args[0], depth + 1) } : { kind: "unknown" };
  if (isZ) return { kind: "unknown" };
  if (name === "array" && !args.length) return { kind: "array", of: schemaShape(receiver, depth + 1) };
  if (SAME_FIELDS.has(name)) return opened(schemaShape(receiver, depth + 1), KEEPS_OTHERS.has(name));
  if (name === "extend" && args[0]) {
    const base = schemaShape(receiver, depth + 1);
    const more = objectKeys(args[0]);
    return base.kind === "object" && more.kind === "object" ? opened({ kind: "object", keys: new Map([...base.keys, ...more.keys]) }, !!base.open) : { kind: "unknown" };
  }
  return { kind: "unknown" };
}

function opened(s: SchemaShape, open: boolean): SchemaShape {
  return open && s.kind === "object" ? { ...s, open } : s;
}

/**
 * The record fields a validated value can hold, as paths (`gpu.displayName`), with the schema entry
 * naming each: zod strips the keys an object does not name, so what passes a closed object schema
 * holds its keys and nothing else. An entry whose shape is not read (a scalar, `z.any()`) stands for
 * the whole field (`gpu.*`). Undefined where the value may hold fields the schema does not name.
 */
export function schemaFieldPaths(s: SchemaShape, prefix = "", out = new Map<string, Node | undefined>(), depth = 0): Map<string, Node | undefined> | undefined {
  if (s.kind === "array") return schemaFieldPaths(s.of, prefix, out, depth);
  if (s.kind !== "object" || s.open || depth > 6) return undefined;
  for (const [key, entry] of s.keys) {
    const path = `${prefix}${key}`;
    out.set(path, entry);
    const inner = entry ? schemaShape(entry) : ({ kind: "unknown" } as const);
    if ((inner.kind === "object" || inner.kind === "array") && schemaFieldPaths(inner, `${path}.`, out, depth + 1)) continue;
    out.set(`${path}.*`, entry);
  }
  return out;
}

function objectKeys(shape: Node): SchemaShape {
  const obj = unwrapExpression(shape);
  if (!Node.isObjectLiteralExpression(obj)) return { kind: "unknown" };
  const keys = new Map<string, Node | undefined>();
  for (const p of obj.getProperties()) {
    if (Node.isPropertyAssignment(p)) keys.set(p.getName().replace(/^["']|["']$/g, ""), p.getInitializer());
    else if (Node.isShorthandPropertyAssignment(p)) keys.set(p.getName(), p.getNameNode());
    else return { kind: "unknown" };
  }
  return { kind: "object", keys };
}

/** The initializer of the `const` a name refers to, in this module or the one it is imported from. */
function constInitializer(id: Node): Node | undefined {
  try {
    let sym = id.getSymbol();
    if (sym?.isAlias()) sym = sym.getAliasedSymbol();
    const decl = sym?.getDeclarations()[0];
    if (!decl || !Node.isVariableDeclaration(decl)) return undefined;
    const list = decl.getParentIfKind(SyntaxKind.VariableDeclarationList);
    if (!list || list.getDeclarationKind() !== "const") return undefined;
    return decl.getInitializer();
  } catch {
    return undefined;
  }
}

/** A schema expression shortened for a mark. */
export function schemaName(schema: Node): string {
  const t = schema.getText().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}…` : t;
}
