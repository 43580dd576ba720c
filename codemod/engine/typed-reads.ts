// A record that leaves the flow the engine follows (stored, returned to a framework) but is typed
// by the project's own record type: the compiler's references of that type's members are its reads,
// wherever the record went, as long as every value of the type stays typed by it. Any place where
// it stops being that type (handed to `any`, cast, spread, indexed with a key, serialised whole,
// returned to code whose types the run does not load, a template the run does not parse) means
// not every read is known: the answer says where, and the caller keeps its mark.
import { findReferencesAsNodes } from "./find-references.ts";
import { Node, ts, type TypeScript } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { Problems } from "./rewrites/problems.ts";
import { editableField } from "./declared-types.ts";
import { isFunctionLike } from "./scope.ts";
import { writtenAt } from "./nodes.ts";
import { isTestFile, TEST_PATH } from "./test-files.ts";
import { SFC_RE, sfcPath } from "../sfc.ts";
import { projectText } from "./project-reads.ts";

/** The reads of the type's members (field → first `file:line`), or where a value of the type goes out of the compiler's sight. */
export type TypedReads = { type: string; fields: Set<string>; at: Map<string, string> } | { type: string; unknown: string };

/** Where a value leaves the followed flow: the node, and whether it leaves by being returned. */
export interface LeftSight {
  node: Node;
  viaReturn: boolean;
}

const memo = new WeakMap<Analysis, Map<Node, TypedReads>>();

/**
 * The reads of a record typed by `record` (a declared body type node, `get<V1Pod[]>`'s `V1Pod`) that
 * left the flow at `left`; undefined when `record` is not a plain object type of the project's own
 * source (the mechanism does not apply).
 */
export function typedRecordReads(a: Analysis, record: Node | undefined, left: LeftSight[]): TypedReads | undefined {
  const decl = projectRecordType(a, record);
  if (!decl) return undefined;
  const name = (decl as any).getName() as string;
  const checker = decl.getProject().getTypeChecker().compilerObject;
  const holds = typeHolder(checker, decl);
  // Where the site's value leaves the flow it is `any` to the checker (the client's types are not
  // loaded): the place it goes must be typed by the record type, or its reads there are unseen.
  for (const l of left) {
    const why = untypedTarget(checker, holds, l);
    if (why) return { type: name, unknown: `${why} (${at(l.node)})` };
  }
  let byRun = memo.get(a);
  if (!byRun) memo.set(a, (byRun = new Map()));
  let found = byRun.get(decl);
  if (!found) byRun.set(decl, (found = readsOfType(a, decl, name, checker, holds)));
  return found;
}

/**
 * Every read known through the type, and one the adapter cannot serve: that read is what would go
 * wrong unseen, so the mark names it first (`the record is read for costPerHr (views.ts:4), which the adapter cannot fill`).
 */
export function readsBlock(problems: Problems): void {
  for (const p of problems) {
    p.risk ??= "silent";
    const m = /^(.*?) \S+(?: \/ \S+)*, and the record is read for (.*)$/.exec(p.reason);
    if (m) p.brief ??= `the record is read for ${m[2]}, which ${m[1]}`;
  }
}

/** An interface or a type alias of an object literal type, declared in the project's own source, whose members are plain fields. */
function projectRecordType(a: Analysis, record: Node | undefined): Node | undefined {
  if (!record || !Node.isTypeReference(record)) return undefined;
  const typeName = record.getTypeName();
  let sym = Node.isIdentifier(typeName) ? typeName.getSymbol() : undefined;
  if (sym?.isAlias()) sym = sym.getAliasedSymbol();
  const decls = sym?.getDeclarations() ?? [];
  if (decls.length !== 1) return undefined;
  const d = decls[0]!;
  const members = Node.isInterfaceDeclaration(d) && !d.getExtends().length && !d.getTypeParameters().length ? d.getMembers() : Node.isTypeAliasDeclaration(d) && !d.getTypeParameters().length && Node.isTypeLiteral(d.getTypeNode()) ? (d.getTypeNode() as any).getMembers() as Node[] : undefined;
  if (!members?.length || !members.every((m) => Node.isPropertySignature(m) && editableField(a, m))) return undefined;
  return d;
}

/** Whether a type holds the record type: itself, in a union, an array, a promise, a container's type arguments, a project object's fields or a function's result. */
function typeHolder(checker: TypeScript.TypeChecker, decl: Node): (t: TypeScript.Type | undefined) => boolean {
  const own = decl.compilerNode;
  const literal = Node.isTypeAliasDeclaration(decl) ? decl.getTypeNode()?.compilerNode : undefined;
  const cache = new Map<TypeScript.Type, boolean>();
  const is = (t: TypeScript.Type) => !!t.aliasSymbol?.declarations?.includes(own as any) || !!t.getSymbol()?.declarations?.some((d) => d === own || (d as TypeScript.Node) === literal);
  const visit = (t: TypeScript.Type, depth: number): boolean => {
    if (cache.has(t)) return cache.get(t)!;
    cache.set(t, false);
    let r = is(t) || (t.aliasTypeArguments ?? []).some((x) => visit(x, depth));
    if (!r && t.isUnionOrIntersection()) r = t.types.some((x) => visit(x, depth));
    if (!r && t.flags & ts.TypeFlags.Object) {
      const obj = t as TypeScript.ObjectType;
      if (obj.objectFlags & ts.ObjectFlags.Reference) r = checker.getTypeArguments(t as TypeScript.TypeReference).some((x) => visit(x, depth));
      // A project object's fields and a function's result (not a library type's members: `Array.prototype`).
      const fromProject = (t.getSymbol()?.declarations ?? []).some((d) => !d.getSourceFile().isDeclarationFile);
      if (!r && depth < 5 && fromProject) {
        r = checker.getPropertiesOfType(t).some((p) => visit(checker.getTypeOfSymbol(p), depth + 1));
        r ||= checker.getSignaturesOfType(t, ts.SignatureKind.Call).some((s) => visit(checker.getReturnTypeOfSignature(s), depth + 1));
      }
    }
    cache.set(t, r);
    return r;
  };
  return (t) => !!t && !(t.flags & ts.TypeFlags.Any) && visit(t, 0);
}

const at = (n: Node): string => `${sfcPath(n.getSourceFile().getBaseName())}:${n.getStartLineNumber()}`;

/** Why the place a site's value goes (where the flow lost it) is not typed by the record type, or undefined when it is. */
function untypedTarget(checker: TypeScript.TypeChecker, holds: (t: TypeScript.Type | undefined) => boolean, l: LeftSight): string | undefined {
  let n = l.node;
  while (Node.isParenthesizedExpression(n.getParent()) || Node.isAwaitExpression(n.getParent())) n = n.getParent()!;
  if (l.viaReturn) {
    let fn: Node | undefined = n.getParent();
    while (fn && !isFunctionLike(fn)) fn = fn.getParent();
    const declared = fn && (fn as any).getReturnTypeNode?.();
    const call = fn?.getParent();
    const callback = !!call && (Node.isCallExpression(call) || Node.isNewExpression(call)) && call.getExpression() !== fn;
    if (fn && !callback && !calledInRun(fn)) return "returned to callers outside the run";
    // A callback's result goes where its callee's types say (a return type it declares itself does not carry it there).
    if (!callback && declared && holds(checker.getTypeFromTypeNode(declared.compilerNode))) return undefined;
    if (fn && callback && (Node.isCallExpression(call) || Node.isNewExpression(call))) {
      const param = parameterType(checker, call.compilerNode, call.getArguments().indexOf(fn));
      const result = param && checker.getSignaturesOfType(param, ts.SignatureKind.Call)[0];
      if (result && holds(checker.getReturnTypeOfSignature(result))) return undefined;
      return `returned untyped to ${calleeText(call)}`;
    }
    return "returned untyped";
  }
  const p = n.getParent();
  if (p && Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === ts.SyntaxKind.EqualsToken && p.getRight() === n) {
    return holds(checker.getTypeAtLocation(p.getLeft().compilerNode)) ? undefined : `kept untyped in ${p.getLeft().getText().slice(0, 40)}`;
  }
  if (p && (Node.isCallExpression(p) || Node.isNewExpression(p)) && p.getArguments().includes(n)) {
    return holds(parameterType(checker, p.compilerNode, p.getArguments().indexOf(n))) ? undefined : `handed untyped to ${calleeText(p)}`;
  }
  if (p && Node.isPropertyAssignment(p) && p.getInitializer() === n) {
    return holds(checker.getContextualType(n.compilerNode as TypeScript.Expression)) ? undefined : `kept untyped in ${p.getName()}`;
  }
  return p && Node.isArrayLiteralExpression(p) ? "put in an array the codemod does not follow" : "kept untyped";
}

/** Whether the run holds a call of the function: it is named somewhere other than its declaration, and not re-exported. */
function calledInRun(fn: Node): boolean {
  const p = fn.getParent();
  const name: Node | undefined = (fn as any).getNameNode?.() ?? (p && (Node.isVariableDeclaration(p) || Node.isPropertyAssignment(p) || Node.isPropertyDeclaration(p)) ? p.getNameNode() : undefined);
  if (!name) return false;
  const refs = findReferencesAsNodes(name);
  return refs.length > 0 && refs.every((r) => !Node.isExportSpecifier(r.getParent()) && !Node.isExportAssignment(r.getParent()));
}

function calleeText(call: Node): string {
  return `${shortCallee((call.compilerNode as TypeScript.CallExpression).expression)}(…)`;
}

/** A callee as the mark names it: as written, or its last member where that is long (`….query`). */
function shortCallee(e: TypeScript.Expression): string {
  const text = e.getText().replace(/\s+/g, "");
  // A builder chain (`publicProcedure.input(…).query`) by its last member.
  const chained = ts.isPropertyAccessExpression(e) && ts.isCallExpression(e.expression);
  return text.length <= 40 && !chained ? text : ts.isPropertyAccessExpression(e) ? `….${e.name.text}` : `${text.slice(0, 37)}…`;
}

/** The parameter type a call's resolved signature gives its argument at `index` (a rest parameter's element), undefined when the callee's type is not known. */
function parameterType(checker: TypeScript.TypeChecker, call: TypeScript.CallExpression | TypeScript.NewExpression, index: number): TypeScript.Type | undefined {
  const sig = checker.getResolvedSignature(call);
  if (!sig || index < 0 || !sig.declaration) return undefined;
  // A generic function of the project reads what it is handed through its own type parameters: its declared parameter types decide.
  const own = !sig.declaration.getSourceFile().isDeclarationFile && (sig.declaration as TypeScript.SignatureDeclaration).typeParameters?.length ? checker.getSignatureFromDeclaration(sig.declaration as TypeScript.SignatureDeclaration) : undefined;
  if (own) return ownParameterType(checker, own, index);
  const params = sig.getParameters();
  const last = params[params.length - 1];
  const rest = !!last && !!(last.valueDeclaration && ts.isParameter(last.valueDeclaration) && last.valueDeclaration.dotDotDotToken);
  const p = index < params.length - (rest ? 1 : 0) ? params[index] : rest ? last : undefined;
  if (!p) return undefined;
  const t = checker.getTypeOfSymbolAtLocation(p, call);
  return p === last && rest ? (checker.getIndexTypeOfType(t, ts.IndexKind.Number) ?? t) : t;
}

function ownParameterType(checker: TypeScript.TypeChecker, sig: TypeScript.Signature, index: number): TypeScript.Type | undefined {
  const decl = sig.parameters[Math.min(index, sig.parameters.length - 1)]?.valueDeclaration;
  if (!decl || (index >= sig.parameters.length && !(ts.isParameter(decl) && decl.dotDotDotToken))) return undefined;
  return checker.getTypeAtLocation(decl);
}

/** The reads of the type's members across the parsed project, once a run per type, or the first place its values go out of sight. */
function readsOfType(a: Analysis, decl: Node, name: string, checker: TypeScript.TypeChecker, holds: (t: TypeScript.Type | undefined) => boolean): TypedReads {
  const unknown = (why: string): TypedReads => ({ type: name, unknown: why });
  // The type's own name: annotations and type arguments only; a cast or an `extends` makes other data the record.
  // (A project's tests type their mocks as the record; what they read is not the API's answer.)
  for (const ref of findReferencesAsNodes((decl as any).getNameNode())) {
    if (isTestFile(a, ref)) continue;
    // A component's props typed by it are read in its template, which is not parsed.
    if (SFC_RE.test(sfcPath(ref.getSourceFile().getFilePath())) && !Node.isImportSpecifier(ref.getParent())) return unknown(`it types a component's value, read in a template the codemod does not parse (${at(ref)})`);
    const why = typeNameUse(ref);
    if (why) return unknown(`${why} (${at(ref)})`);
  }
  const fields = new Set<string>();
  const where = new Map<string, string>();
  const members: Node[] = Node.isInterfaceDeclaration(decl) ? decl.getMembers() : (decl as any).getTypeNode().getMembers();
  for (const m of members) {
    const field = (m as any).getName() as string;
    for (const ref of findReferencesAsNodes((m as any).getNameNode())) {
      if (ref.getParent() === m || isTestFile(a, ref)) continue;
      const why = memberUse(ref);
      if (why) return unknown(`${why} (${at(ref)})`);
      fields.add(field);
      if (!where.has(field)) where.set(field, at(ref));
    }
  }
  const leak = leaks(a, checker, holds);
  if (leak) return unknown(leak);
  return { type: name, fields, at: where };
}

/** Why a reference to the type's name lets other data be the record, or undefined (an annotation, a type argument, an import). */
function typeNameUse(ref: Node): string | undefined {
  let top: Node = ref;
  let up = ref.getParent();
  if (!up || Node.isInterfaceDeclaration(up) || Node.isTypeAliasDeclaration(up) || Node.isImportSpecifier(up) || Node.isExportSpecifier(up) || Node.isImportClause(up)) return undefined;
  while (up && (Node.isTypeNode(up) || Node.isTypeReference(up)) && !Node.isExpressionWithTypeArguments(up)) {
    if (Node.isTypeOperatorTypeNode(up) && up.getOperator() === ts.SyntaxKind.KeyOfKeyword) return "its keys are a type";
    top = up;
    up = up.getParent();
  }
  if (!up) return undefined;
  if (Node.isAsExpression(up) || Node.isTypeAssertion(up) || Node.isSatisfiesExpression(up)) return "a value is cast to it";
  if (Node.isExpressionWithTypeArguments(up) || Node.isHeritageClause(up)) return "another type extends it";
  // A call's type argument (`api.get<Pod>(…)`): the value the call gives is declared the record.
  if (Node.isCallExpression(up) || Node.isNewExpression(up)) return undefined;
  if ((Node.isVariableDeclaration(up) || Node.isParameterDeclaration(up) || Node.isPropertyDeclaration(up) || Node.isPropertySignature(up)) && (up as any).getTypeNode() === top) return undefined;
  if (isFunctionLike(up) && (up as any).getReturnTypeNode?.() === top) return undefined;
  if (Node.isTypeAliasDeclaration(up) || Node.isTypeLiteral(up)) return undefined;
  return "it types something the codemod does not follow";
}

/** Why a reference to a member is not a read of a record's field (a write, an object built as the record), or undefined. */
function memberUse(ref: Node): string | undefined {
  const p = ref.getParent();
  if (!p) return "a member reference the codemod does not know";
  if (Node.isPropertyAccessExpression(p) && p.getNameNode() === ref) return writtenAt(p) ? `its field ${ref.getText()} is written` : undefined;
  if (Node.isBindingElement(p)) return p.getDotDotDotToken() ? "it is destructured with a rest element" : undefined;
  if (Node.isStringLiteral(ref) && Node.isElementAccessExpression(p)) return writtenAt(p) ? `its field ${ref.getText()} is written` : undefined;
  if (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) return "an object is built as it";
  return "a member reference the codemod does not know";
}

/**
 * The first place in the parsed project where a value holding the record type stops being typed by
 * it: indexed with a computed key, spread into an object, cast, handed to a parameter (or returned
 * to a callback's caller) typed otherwise, stored where the type is `any`; a component template
 * naming a binding that holds it (templates are not parsed). Undefined when there is none.
 */
function leaks(a: Analysis, checker: TypeScript.TypeChecker, holds: (t: TypeScript.Type | undefined) => boolean): string | undefined {
  const typeOf = (e: TypeScript.Node) => checker.getTypeAtLocation(e);
  for (const file of a.files.values()) {
    const sf = file.sf.compilerNode;
    if (sf.isDeclarationFile || /v2-bridge-adapter\.[cm]?[jt]s$/.test(sf.fileName) || TEST_PATH.test(file.display.replace(/\\/g, "/"))) continue;
    const line = (n: TypeScript.Node) => `${sfcPath(file.sf.getBaseName())}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    let found: string | undefined;
    const visit = (n: TypeScript.Node): void => {
      if (found) return;
      found = leakAt(n, checker, holds, typeOf);
      if (found) found = `${found} (${line(n)})`;
      else ts.forEachChild(n, visit);
    };
    visit(sf);
    if (found) return found;
    if (SFC_RE.test(sfcPath(file.sf.getFilePath()))) {
      // (The engine's text of a component is its scripts alone: the template is read from the file.)
      const whole = projectText(a, sfcPath(file.sf.getFilePath()));
      const shown = whole === null ? "the component" : templateNames(whole, sf, checker, holds);
      if (shown) return `${shown} is used in the template of ${sfcPath(file.sf.getBaseName())}, which the codemod does not parse`;
    }
  }
  return undefined;
}

function leakAt(n: TypeScript.Node, checker: TypeScript.TypeChecker, holds: (t: TypeScript.Type | undefined) => boolean, typeOf: (e: TypeScript.Node) => TypeScript.Type): string | undefined {
  if (ts.isElementAccessExpression(n) && !ts.isStringLiteralLike(n.argumentExpression) && !ts.isNumericLiteral(n.argumentExpression)) {
    const t = typeOf(n.expression);
    if (holds(t) && !checker.isArrayType(t) && !checker.isTupleType(t)) return "read by a computed key";
  }
  if (ts.isSpreadAssignment(n) && holds(typeOf(n.expression))) return "spread into an object";
  if (ts.isBindingElement(n) && n.dotDotDotToken && ts.isObjectBindingPattern(n.parent) && holds(typeOf(n.parent))) return "destructured with a rest element";
  if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && holds(typeOf(n.expression)) && !holds(checker.getTypeFromTypeNode(n.type))) return `cast to ${n.type.getText().slice(0, 30)}`;
  if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && n.arguments) {
    for (const [i, arg] of n.arguments.entries()) {
      const e = ts.isSpreadElement(arg) ? arg.expression : arg;
      if (!holds(typeOf(e))) continue;
      // A function handed on whose result is the record: the caller must take it as the record too.
      if (!holds(parameterType(checker, n, i))) return `handed untyped to ${calleeName(n)}(…)`;
    }
  }
  if (ts.isReturnStatement(n) && n.expression && holds(typeOf(n.expression))) {
    let fn: TypeScript.Node | undefined = n.parent;
    while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
    const declared = fn && (fn as TypeScript.SignatureDeclaration).type;
    if (declared && !holds(checker.getTypeFromTypeNode(declared))) return `returned as ${declared.getText().slice(0, 30)}`;
  }
  if (ts.isVariableDeclaration(n) && n.type && n.initializer && holds(typeOf(n.initializer)) && !holds(checker.getTypeFromTypeNode(n.type))) return `kept untyped in ${n.name.getText()}`;
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && holds(typeOf(n.right)) && !holds(typeOf(n.left))) return `kept untyped in ${n.left.getText().slice(0, 40)}`;
  if ((ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) && ts.isObjectLiteralExpression(n.parent)) {
    const value = ts.isPropertyAssignment(n) ? n.initializer : n.name;
    const context = checker.getContextualType(n.parent);
    if (context && !(context.flags & ts.TypeFlags.Any) && holds(typeOf(value)) && !holds(checker.getContextualType(value as TypeScript.Expression))) return `kept untyped in ${n.name.getText()}`;
  }
  if ((ts.isJsxExpression(n) || ts.isJsxSpreadAttribute(n)) && n.expression && holds(typeOf(n.expression)) && !holds(checker.getContextualType(n.expression))) return "given untyped to a component";
  return undefined;
}

function calleeName(call: TypeScript.CallExpression | TypeScript.NewExpression): string {
  return shortCallee(call.expression);
}

/** A top-level binding of a component's script that holds the record and that its template (outside the script blocks) names. */
function templateNames(text: string, sf: TypeScript.SourceFile, checker: TypeScript.TypeChecker, holds: (t: TypeScript.Type | undefined) => boolean): string | undefined {
  const outside = text.replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, " ");
  const names: TypeScript.Identifier[] = [];
  for (const s of sf.statements) {
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name);
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) names.push(s.name);
    if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name) names.push(c.name);
      if (c.namedBindings && ts.isNamedImports(c.namedBindings)) for (const e of c.namedBindings.elements) names.push(e.name);
    }
  }
  for (const id of names) {
    if (!new RegExp(`\\b${id.text.replace(/\$/g, "\\$")}\\b`).test(outside)) continue;
    if (holds(checker.getTypeAtLocation(id))) return id.text;
  }
  return undefined;
}
