// What the code says it reads from a record: the fields of its declared type (a type argument
// `post<{ id: string }>(…)`, an `as Pod`, a variable's or function's annotation). A record that
// leaves the codemod's sight under a type naming no field that differs in v2 is safe to pass on.
import { generatorOf } from "./generated-client.ts";
import { Node } from "../ts-morph.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { bind } from "./values.ts";
import { passesValueOn } from "./nodes.ts";
import type { Analysis } from "./state.ts";

/** Strips `Promise<…>`, `Array<…>`, `…[]`, `readonly`, `| undefined | null` down to the record type. */
function recordTypeNode(type: Node | undefined): Node | undefined {
  let t = type;
  for (let i = 0; t && i < 6; i++) {
    if (Node.isArrayTypeNode(t)) t = t.getElementTypeNode();
    else if (Node.isTypeOperatorTypeNode(t)) t = t.getTypeNode();
    else if (Node.isParenthesizedTypeNode(t)) t = t.getTypeNode();
    else if (Node.isUnionTypeNode(t)) {
      const rest = t.getTypeNodes().filter((x) => !/^(undefined|null)$/.test(x.getText()));
      if (rest.length !== 1) return t;
      t = rest[0];
    } else if (Node.isTypeReference(t) && /^(Promise|Array|ReadonlyArray|Awaited)$/.test(t.getTypeName().getText()) && t.getTypeArguments().length === 1) t = t.getTypeArguments()[0];
    else return t;
  }
  return t;
}

/**
 * Whether an Observable's values are declared as nothing (`post<void>`, a function returning the
 * stream as `Observable<void>`) and nowhere as a record: TypeScript lets no subscriber read a field.
 */
export function streamDeclaredNothing(call: Node & { getTypeArguments(): Node[] }, returnTypes: { value?: Node }[]): boolean {
  const declared = [call.getTypeArguments()[0], ...returnTypes.map((r) => r.value)].filter((t): t is Node => !!t);
  return declared.some((t) => /^(void|undefined|never)$/.test(t.getText())) && !declared.some((t) => !!recordTypeOf(t));
}

/** Property names of a record type node, or undefined when unknown (any, unknown, unresolved). */
function fieldsOf(type: Node | undefined): string[] | undefined {
  const t = recordTypeNode(type);
  if (!t) return undefined;
  if (Node.isTypeLiteral(t)) return t.getMembers().map((m) => (m as any).getName?.() as string).filter(Boolean);
  if (/^(any|unknown|object|Record<.*>)$/.test(t.getText())) return undefined;
  // Built from a type the analysis cannot resolve (`Omit<components["schemas"]["Pod"], "id">` with
  // the generated types outside the run): its known fields are not all of the record's.
  if (involvesUnresolved(t, 0)) return undefined;
  try {
    const props = t.getType().getProperties();
    if (!props.length) return undefined;
    return props.map((p) => p.getName());
  } catch {
    return undefined;
  }
}

/** Whether a type node, or a project alias it names, refers to a type that resolves to `any`. */
function involvesUnresolved(t: Node, depth: number): boolean {
  if (depth > 4) return false;
  const refs = [t, ...t.getDescendants()].filter((n) => Node.isTypeReference(n) || Node.isIndexedAccessTypeNode(n));
  for (const r of refs) {
    try {
      if (r.getType().isAny()) return true;
    } catch {
      return true;
    }
    if (!Node.isTypeReference(r)) continue;
    const alias = r.getTypeName().getSymbol()?.getDeclarations().find((d) => Node.isTypeAliasDeclaration(d));
    const aliased = alias && Node.isTypeAliasDeclaration(alias) ? alias.getTypeNode() : undefined;
    if (aliased && involvesUnresolved(aliased, depth + 1)) return true;
  }
  return false;
}

/** The declared fields the value at `node` is read through, if the code declares them. */
export function declaredFields(a: Analysis, node: Node, viaReturn: boolean): string[] | undefined {
  return fieldsOf(declaredType(a, node, viaReturn));
}

/**
 * Whether the code declares the value at `node` as something that has fields (`Pod`, a type
 * literal, a type it cannot resolve), not as nothing (`void`, `unknown`, `any`, no type at all).
 */
export function declaredAsRecord(a: Analysis, node: Node, viaReturn: boolean): boolean {
  const t = recordTypeNode(declaredType(a, node, viaReturn));
  return !!t && !/^(void|unknown|any|undefined|null|never)$/.test(t.getText());
}

/** The type node the value at `node` is declared through: a type argument, `as`, an annotation, or the return type. */
function declaredType(a: Analysis, node: Node, viaReturn: boolean): Node | undefined {
  if (bodyTypeArguments(node).length) return bodyTypeArguments(node)[0];
  const p = node.getParent();
  if (p && (Node.isAsExpression(p) || Node.isSatisfiesExpression(p))) return p.getTypeNode();
  if (Node.isIdentifier(node)) {
    const b = bind(a, node);
    const typeNode = b && (b.kind === "var" || b.kind === "param") ? ((b.decl as any).getTypeNode?.() as Node | undefined) : undefined;
    if (typeNode) return typeNode;
  }
  if (viaReturn) {
    const fn = enclosingFunction(node);
    return isFunctionLike(fn) ? ((fn as any).getReturnTypeNode?.() as Node | undefined) : undefined;
  }
  return undefined;
}

/**
 * Where a renamed field is declared on the value's type in the project's own source (an
 * interface, a type alias, an inline type literal): the declaration is renamed with the reads,
 * so the code still compiles. Returns false when the field is declared somewhere it cannot be
 * renamed to (a nested v2 path, or a file outside the run).
 */
export function renameDeclaredField(a: Analysis, object: Node, v1: string, v2: string, renameEdit: (node: Node, text: string) => void): boolean {
  const decls = declaredFieldsOf(object, v1);
  if (!decls) return true;
  for (const d of decls) {
    if (!Node.isPropertySignature(d) && !Node.isPropertyDeclaration(d)) continue;
    if (!editableField(a, d) || v2.includes(".")) return false;
    renameEdit(d.getNameNode(), v2);
  }
  return true;
}

/** The declarations of a field on the value's type, through `| null | undefined` (`pod?.x`); undefined when the checker fails. */
export function declaredFieldsOf(object: Node, field: string): Node[] | undefined {
  try {
    const type = object.getType();
    const parts = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isNull() && !t.isUndefined()) : [type];
    return parts.flatMap((t) => t.getProperty(field)?.getDeclarations() ?? []);
  } catch {
    return undefined;
  }
}

/**
 * A field read through the converter's helper (`v1DesiredStatus(pod.status)`) whose receiver is
 * typed by the project with the v1 field: that declaration becomes the v2 field, typed `unknown`
 * (its v1 type would be a lie about v2 values; the helper takes anything). Only an optional field
 * (the helper gives undefined for an absent value, so a required one would change the read's
 * type), declared in the run's own source on every type the receiver can have.
 */
export function retypeDeclaredField(a: Analysis, object: Node, v1: string, v2: string, retypeEdit: (decl: Node, name: Node, type: Node | undefined) => void): boolean {
  let parts;
  try {
    const type = object.getType();
    parts = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isNull() && !t.isUndefined()) : [type];
  } catch {
    return false;
  }
  const decls: Node[] = [];
  for (const t of parts) {
    const found = t.getProperty(v1)?.getDeclarations() ?? [];
    if (!found.length) return false;
    decls.push(...found);
  }
  const ok = decls.every((d) => editableField(a, d) && (d as any).hasQuestionToken());
  if (!ok || !decls.length || v2.includes(".")) return false;
  for (const d of new Set(decls)) retypeEdit(d, (d as any).getNameNode(), (d as any).getTypeNode?.());
  return true;
}

/**
 * The record type the code declares a body through where it reads it, which the checker may not
 * see (a client library's own types are not loaded, so `api.get("x").json<Volume[]>()` is `any`
 * to it): a call's one type argument (`.json<T>()`, axios `get<T>()`, `unwrap<T>(…)`, through the
 * `res` of `res.data` and the declaration of `const { data } = …`) or an `as T` around the read.
 * The type node as written (a literal or a reference to a type declared anywhere: membersNamed
 * finds its fields); undefined where the code declares none.
 */
export function declaredBodyRecord(a: Analysis, read: Node): Node | undefined {
  let n: Node | undefined = read;
  if (Node.isBindingElement(n)) {
    const decl = n.getParent().getParent();
    n = Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  } else if (Node.isPropertyAccessExpression(n) && (n.getName() === "data" || n.getName() === "body")) {
    // (axios's `res.data`; got's and superagent's `res.body`, a body read only where it is the parsed answer.)
    const holder = unwrapValue(n.getExpression());
    const b = Node.isIdentifier(holder) ? bind(a, holder) : undefined;
    n = b?.kind === "var" && !b.path.length && Node.isVariableDeclaration(b.decl) ? b.decl.getInitializer() : holder;
  }
  let call = n && unwrapValue(n);
  // `firstValueFrom(this.http.get<T>(…))`: rxjs hands the call's answer on as it is.
  for (let i = 0; call && Node.isCallExpression(call) && i < 3; i++) {
    const [arg] = call.getArguments();
    if (!arg || !passesValueOn(call, arg)) break;
    call = unwrapValue(arg);
  }
  let type = call ? bodyTypeArguments(call)[0] : undefined;
  if (!type) {
    let up = read.getParent();
    while (up && (Node.isParenthesizedExpression(up) || Node.isAwaitExpression(up))) up = up.getParent();
    if (up && Node.isAsExpression(up)) type = up.getTypeNode();
  }
  return recordTypeOf(type);
}

/** The record type a declared body type names (`Volume[]`, `Promise<Pod | null>` → the record's type node), as declaredBodyRecord gives it. */
export function recordTypeOf(type: Node | undefined): Node | undefined {
  const t = recordTypeNode(type);
  return t && (Node.isTypeLiteral(t) || Node.isTypeReference(t) || Node.isUnionTypeNode(t) || Node.isIntersectionTypeNode(t)) ? t : undefined;
}

/**
 * The declarations of the field `name` on a record type from declaredBodyRecord, wherever the
 * checker finds them: an inline type literal, an interface or type alias of this module or of
 * another (imported, re-exported), an inherited member, or a type outside the project.
 */
export function membersNamed(record: Node | undefined, name: string): Node[] {
  if (!record) return [];
  try {
    const type = record.getType();
    const parts = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isNull() && !t.isUndefined()) : [type];
    return [...new Set(parts.flatMap((t) => t.getProperty(name)?.getDeclarations() ?? []))];
  } catch {
    return [];
  }
}

/**
 * A declared record type the run cannot see into: it names a type imported from a package or a
 * module the run did not load (the checker has `any` for it), whose real fields tsc will check.
 */
export function declaredOutsideRun(a: Analysis, record: Node | undefined): boolean {
  if (!record) return false;
  try {
    if (!record.getType().isAny()) return false;
  } catch {
    return true;
  }
  for (const r of [record, ...record.getDescendants()]) {
    if (!Node.isTypeReference(r)) continue;
    let name: Node = r.getTypeName();
    while (Node.isQualifiedName(name)) name = name.getLeft();
    const sym = name.getSymbol();
    if (!sym?.isAlias()) continue;
    const decls = sym.getAliasedSymbol()?.getDeclarations() ?? [];
    if (!decls.length || decls.some((d) => !a.files.has(d.getSourceFile().getFilePath()))) return true;
  }
  return false;
}

/** The receiver of a read is a variable or parameter annotated with a type declaredOutsideRun (`const pod: Pod = …`, `(pod: Pod) =>`). */
export function receiverOutsideRun(a: Analysis, object: Node): boolean {
  const id = object && Node.isIdentifier(object) ? object : undefined;
  const b = id && bind(a, id);
  const typeNode = b && (b.kind === "var" || b.kind === "param") ? ((b.decl as any).getTypeNode?.() as Node | undefined) : undefined;
  return declaredOutsideRun(a, recordTypeNode(typeNode));
}

/** A field declaration the run may edit: a property of a type in the project's own source (never node_modules or a `.d.ts`). */
export function editableField(a: Analysis, d: Node): boolean {
  const sf = d.getSourceFile();
  // (A generated client's models describe v1 and are rewritten by its next generation: generated-client.ts.)
  return (Node.isPropertySignature(d) || Node.isPropertyDeclaration(d)) && a.files.has(sf.getFilePath()) && !sf.isDeclarationFile() && !sf.getFilePath().includes("/node_modules/") && !generatorOf(sf);
}

function unwrapValue(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAwaitExpression(x) || Node.isNonNullExpression(x)) x = x.getExpression();
  return x;
}

/**
 * The type arguments that each declare a call's body: `get<Pod[]>(…)`, or axios's two alike,
 * `get<Pod[], Pod[]>(…)` (the data and what the call resolves to, under an interceptor answering
 * the data): a retype changes both. Others (`<T, AxiosResponse<T>>`) declare no body here.
 */
export function bodyTypeArguments(call: Node): Node[] {
  if (!Node.isCallExpression(call)) return [];
  const args = call.getTypeArguments();
  if (args.length === 1) return args;
  const same = args.length === 2 && args[0]!.getText().replace(/\s/g, "") === args[1]!.getText().replace(/\s/g, "");
  return same ? args : [];
}
