// Which fields an object built elsewhere can carry, as its declaration says: a tool's input
// schema (a zod object shape given to the same call as the handler that receives the input, as
// MCP servers do), or a parameter's declared type (an interface or type literal of the project).
// With the fields known, a body taken from such a value converts as a literal body does, field by
// field (`params.imageName` → `image: params.imageName`). Rest bindings (`const { podId, ...rest }
// = params`) carry the other fields. Anything else (an untyped value, an index signature, `any`)
// has no declared shape.
import { Node, SyntaxKind, type ObjectLiteralExpression } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind, objectLiteral } from "./values.ts";
import { isFunctionLike } from "./scope.ts";
import { skipParens } from "./nodes.ts";

export interface DeclaredField {
  name: string;
  /** May be left out (`.optional()`, `x?:`). */
  optional: boolean;
  /** May be null (`.nullable()`, `| null`). */
  nullable: boolean;
  /** The values the declaration allows, when it lists them (`z.enum([...])`, a literal union). */
  oneOf?: unknown[];
  /** The one value it holds, written as a literal where the body is built (built-body.ts). */
  literal?: { value: unknown };
  /** The variable it is read from, where not the value itself (a field copied from a spread of it, built-body.ts). */
  readFrom?: string;
  /** A list written with entries wherever it is given (`[flavor]`): one entry, or some (built-body.ts). */
  entries?: "one" | "some";
}

export interface DeclaredShape {
  fields: DeclaredField[];
  /** Where the shape is declared, for a mark or a note. */
  declaredAt: Node;
}

/** The declared fields of the value `node` holds, or undefined when they are not declared. */
export function declaredShape(a: Analysis, node: Node, depth = 0): DeclaredShape | undefined {
  const n = skipParens(node);
  if (depth > 3 || !Node.isIdentifier(n)) return undefined;
  const b = bind(a, n);
  if (b?.kind === "param" && b.path.length === 0) return paramShape(a, b.decl, b.fn, b.index);
  if (b?.kind === "var" && b.init) {
    // `const { podId, ...rest } = params`: the fields of params the pattern does not take.
    if (b.path.length === 1 && b.path[0] === "...") {
      const whole = declaredShape(a, b.init, depth + 1);
      const pattern = b.decl.getFirstDescendantByKind(SyntaxKind.ObjectBindingPattern);
      if (!whole || !pattern) return undefined;
      const taken = new Set(pattern.getElements().filter((e) => !e.getDotDotDotToken()).map((e) => e.getPropertyNameNode()?.getText() ?? e.getName()));
      return { fields: whole.fields.filter((f) => !taken.has(f.name)), declaredAt: whole.declaredAt };
    }
    if (b.path.length === 0 && Node.isIdentifier(skipParens(b.init))) return declaredShape(a, b.init, depth + 1);
  }
  return undefined;
}

/** Where a tool definition keeps its input schema. */
const SCHEMA_KEYS = ["inputSchema", "schema", "parameters", "input"];

/**
 * The strings a declared field lists (`op: z.enum(["start", "stop"])`), read as `op` of a
 * destructured parameter (`({ podId, op }) => …`) or `args.op` of a whole one.
 */
export function declaredStrings(a: Analysis, node: Node): string[] | undefined {
  const n = skipParens(node);
  let id: Node = n;
  let key: string | undefined;
  if (Node.isPropertyAccessExpression(n)) {
    id = skipParens(n.getExpression());
    key = n.getName();
  }
  if (!Node.isIdentifier(id)) return undefined;
  const b = bind(a, id);
  if (b?.kind !== "param") return undefined;
  const name = key && b.path.length === 0 ? key : !key && b.path.length === 1 ? b.path[0] : undefined;
  if (!name || name === "...") return undefined;
  const field = paramShape(a, b.decl, b.fn, b.index)?.fields.find((f) => f.name === name);
  const values = field?.oneOf;
  return values?.length && values.every((v) => typeof v === "string") && !field!.optional && !field!.nullable ? (values as string[]) : undefined;
}

function paramShape(a: Analysis, decl: Node, fn: Node, index: number): DeclaredShape | undefined {
  const typed = typeShape(decl);
  if (typed) return typed;
  // A handler given to the same call as a zod shape receives the parsed input as its first parameter.
  if (index !== 0 || !isFunctionLike(fn)) return undefined;
  const holder = fn.getParent();
  // `tool({ parameters: z.object({ … }), execute: async (args) => … })`: the schema beside the handler.
  if (holder && Node.isPropertyAssignment(holder) && Node.isObjectLiteralExpression(holder.getParent())) {
    for (const key of SCHEMA_KEYS) {
      const sibling = (holder.getParent() as ObjectLiteralExpression).getProperty(key);
      const shape = sibling && Node.isPropertyAssignment(sibling) ? zodShapeIn(a, sibling.getInitializerOrThrow()) : undefined;
      if (shape) return shape;
    }
    return undefined;
  }
  const call = holder;
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(fn as never)) return undefined;
  for (const arg of call.getArguments()) {
    if (arg === fn) continue;
    const shape = zodShapeIn(a, arg);
    if (shape) return shape;
  }
  return undefined;
}

/** A zod object shape: `{ name: z.string(), … }`, `z.object({ … })`, or one under `inputSchema` / `schema` / `parameters`. */
function zodShapeIn(a: Analysis, arg: Node, depth = 0): DeclaredShape | undefined {
  if (depth > 2) return undefined;
  let obj = objectLiteral(a, arg);
  const u = skipParens(arg);
  if (!obj && Node.isCallExpression(u) && /^z\.(strict)?[oO]bject$/.test(u.getExpression().getText())) obj = objectLiteral(a, u.getArguments()[0]);
  if (!obj || !Node.isObjectLiteralExpression(obj)) return undefined;
  const props = obj.getProperties();
  const fields: DeclaredField[] = [];
  for (const p of props) {
    if (!Node.isPropertyAssignment(p)) return undefined;
    const field = zodField(p.getName().replace(/^["']|["']$/g, ""), p.getInitializerOrThrow());
    if (!field) {
      // `{ description, inputSchema: { … } }`: the shape one level down.
      if (SCHEMA_KEYS.includes(p.getName())) return zodShapeIn(a, p.getInitializerOrThrow(), depth + 1);
      if (fields.length === 0) continue;
      return undefined;
    }
    fields.push(field);
  }
  return fields.length ? { fields, declaredAt: obj } : undefined;
}

/** One zod field: its chain of calls from `z.` (`z.string().optional().describe(…)`). */
function zodField(name: string, init: Node): DeclaredField | undefined {
  const chain: Node[] = [];
  let cur: Node = skipParens(init);
  while (Node.isCallExpression(cur)) {
    chain.unshift(cur);
    const callee = cur.getExpression();
    if (!Node.isPropertyAccessExpression(callee)) return undefined;
    cur = callee.getExpression();
  }
  if (!Node.isIdentifier(cur) || cur.getText() !== "z" || !chain.length) return undefined;
  const methods = chain.map((c) => ((c as any).getExpression() as Node & { getName(): string }).getName());
  const field: DeclaredField = { name, optional: false, nullable: false };
  for (const m of methods) {
    if (m === "optional") field.optional = true;
    else if (m === "nullable") field.nullable = true;
    else if (m === "nullish") field.optional = field.nullable = true;
    else if (m === "default") field.optional = false; // zod fills it in
  }
  const first = chain[0] as Node & { getArguments(): Node[] };
  if (methods[0] === "enum") {
    const list = first.getArguments()[0];
    if (list && Node.isArrayLiteralExpression(list)) {
      const values = list.getElements().map((e) => (Node.isStringLiteral(e) ? e.getLiteralValue() : undefined));
      if (values.every((v) => v !== undefined)) field.oneOf = values;
    }
  }
  if (methods[0] === "literal") {
    const lit = first.getArguments()[0];
    if (lit && (Node.isStringLiteral(lit) || Node.isNumericLiteral(lit))) field.oneOf = [lit.getLiteralValue()];
  }
  return field;
}

/** A parameter typed by the project: the properties of its type (not `any`, no index signature). */
function typeShape(decl: Node): DeclaredShape | undefined {
  const typeNode = (decl as any).getTypeNode?.() as Node | undefined;
  if (!typeNode) return undefined;
  try {
    const type = decl.getType();
    if (type.isAny() || type.isUnknown() || !type.isObject() || type.getStringIndexType() || type.isArray()) return undefined;
    const fields: DeclaredField[] = [];
    for (const sym of type.getProperties()) {
      const d = sym.getDeclarations()[0];
      if (!d || !(Node.isPropertySignature(d) || Node.isPropertyDeclaration(d))) return undefined;
      const t = sym.getTypeAtLocation(decl);
      const members = t.isUnion() ? t.getUnionTypes() : [t];
      const literals = members.filter((m) => !m.isUndefined() && !m.isNull());
      const oneOf = literals.every((m) => m.isStringLiteral() || m.isNumberLiteral()) && literals.length ? literals.map((m) => m.getLiteralValue()) : undefined;
      const text = d.getTypeNode()?.getText() ?? "";
      fields.push({ name: sym.getName(), optional: d.hasQuestionToken() || /\bundefined\b/.test(text), nullable: /\bnull\b/.test(text), ...(oneOf ? { oneOf } : {}) });
    }
    return fields.length ? { fields, declaredAt: typeNode } : undefined;
  } catch {
    return undefined;
  }
}
