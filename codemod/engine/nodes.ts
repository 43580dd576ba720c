// Small syntax-tree utilities shared by the passes.
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { enclosingFunction, identifiersNamed, resolveIdentifier } from "./scope.ts";

/** An assignment operator (`=`, `+=`, `??=`…), never a comparison (`<=`, `===`). */
export function isAssignmentOperator(kind: SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}

/** `node` is written where it stands: assigned (`x = v`, `x += v`), updated (`x++`, `--x`) or deleted. */
export function writtenAt(node: Node): boolean {
  const p = node.getParent();
  if (!p) return false;
  if (Node.isBinaryExpression(p)) return p.getLeft() === node && isAssignmentOperator(p.getOperatorToken().getKind());
  if (Node.isPrefixUnaryExpression(p) || Node.isPostfixUnaryExpression(p)) return p.getOperatorToken() === SyntaxKind.PlusPlusToken || p.getOperatorToken() === SyntaxKind.MinusMinusToken;
  return Node.isDeleteExpression(p);
}

/** The whole string concatenation a piece sits in (`"/pods/" + id + "/restart"`), through parentheses; the node itself when none. */
export function concatenationOf(node: Node): Node {
  let n = node;
  for (let p = n.getParent(); p && (Node.isParenthesizedExpression(p) || (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.PlusToken)); p = n.getParent()) n = p;
  return n;
}

/** The outermost expression around `node` that only types or groups it (parentheses, `as`, `satisfies`): its parent is what holds the value. */
export function typedOuter(node: Node): Node {
  let n = node;
  for (let p = n.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isSatisfiesExpression(p)); p = n.getParent()) n = p;
  return n;
}

/** The outermost node around `node` that only wraps it (parentheses, `as`, `!`, `satisfies`, an rxjs pass-through). */
export function skipParens(node: Node): Node {
  let n = node;
  for (;;) {
    const p = n.getParent();
    if (p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p) || Node.isSatisfiesExpression(p) || passesValueOn(p, n))) n = p;
    else return n;
  }
}

const RXJS_PASS = new Set(["firstValueFrom", "lastValueFrom", "from"]);

/**
 * `firstValueFrom(x)`, `lastValueFrom(x)`, `from(x)` of rxjs: the same value as a promise or an
 * observable (an HTTP service in the style of @nestjs/axios answers observables), so an answer
 * read through them is read as the call's own.
 */
export function passesValueOn(call: Node, arg: Node): boolean {
  if (!Node.isCallExpression(call) || call.getArguments().length !== 1 || call.getArguments()[0] !== arg) return false;
  const callee = call.getExpression();
  if (!Node.isIdentifier(callee) || !RXJS_PASS.has(callee.getText())) return false;
  const b = resolveIdentifier(callee);
  if (b?.kind !== "import") return false;
  if (/^rxjs(\/|$)/.test(b.module)) return true;
  // The project's own stand-in (`export function firstValueFrom<T>(source: Observable<T>): Promise<T>`):
  // typed to hand the same T on, it is read the same way.
  return b.module.startsWith(".") && handsTypeOn(callee);
}

function declarationOf(callee: Node) {
  try {
    const symbol = callee.getSymbol();
    const d = ((symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations() ?? []).find((x) => Node.isFunctionDeclaration(x));
    return d && Node.isFunctionDeclaration(d) ? d : undefined;
  } catch {
    return undefined;
  }
}

/** A function declared `<T>(x: A<T>) => B<T>`: its result carries what its one argument carries. */
function handsTypeOn(callee: Node): boolean {
  const fn = declarationOf(callee);
  if (!fn) return false;
  const [tp] = fn.getTypeParameters();
  const params = fn.getParameters();
  const argOf = (t: Node | undefined) => (t && Node.isTypeReference(t) && t.getTypeArguments().length === 1 ? t.getTypeArguments()[0]!.getText() : undefined);
  return !!tp && fn.getTypeParameters().length === 1 && params.length === 1 && argOf(params[0]!.getTypeNode()) === tp.getName() && argOf(fn.getReturnTypeNode()) === tp.getName();
}

/**
 * A plain parameter (a name, no default, not rest) and its uses in its function; undefined for any
 * other parameter, whose value is not simply what callers give.
 */
export function plainParameterUses(param: Node): { param: Node & { getTypeNode(): Node | undefined }; refs: Node[] } | undefined {
  if (!Node.isParameterDeclaration(param)) return undefined;
  const name = param.getNameNode();
  if (!Node.isIdentifier(name) || param.hasInitializer() || param.isRestParameter()) return undefined;
  return { param, refs: referencesOf(enclosingFunction(param) ?? param, name) };
}

/** References to a local name inside a scope (same file). */
export function referencesOf(scope: Node, nameNode: Node): Node[] {
  const name = nameNode.getText();
  const refs: Node[] = [];
  for (const d of identifiersNamed(scope, name)) {
    if (d === nameNode) continue;
    const p = d.getParent();
    // `@param name` in a JSDoc names the parameter, it does not use it.
    if (p && (Node.isJSDocParameterTag(p) || d.getFirstAncestor((x) => Node.isJSDoc(x)))) continue;
    if (p && Node.isPropertyAccessExpression(p) && p.getNameNode() === d) continue;
    if (p && Node.isPropertyAssignment(p) && p.getNameNode() === d) continue;
    // `const { data: tpl } = …` takes the key `data`; it does not read a variable named so.
    if (p && Node.isBindingElement(p) && p.getPropertyNameNode() === d) continue;
    const b = resolveIdentifier(d);
    if (b && (b.kind === "var" || b.kind === "param" || b.kind === "catch") && (b.decl === nameNode.getParent() || b.decl === nameNode.getParent()?.getParent()?.getParent())) refs.push(d);
    else if (b?.kind === "var" && b.decl.getFirstDescendant((x) => x === nameNode)) refs.push(d);
  }
  return refs;
}

/** Whether an identifier is the name a parameter, variable or destructured element declares. */
export function isDeclarationName(id: Node): boolean {
  const p = id.getParent();
  return !!p && (Node.isParameterDeclaration(p) || Node.isVariableDeclaration(p) || Node.isBindingElement(p)) && p.getNameNode() === id;
}

/** Where the uses of a declared name are: its function for a parameter, else the enclosing function. */
export function declarationScope(id: Node): Node {
  const decl = id.getParent();
  return decl && Node.isParameterDeclaration(decl) ? decl.getParent()! : enclosingFunction(id);
}

/**
 * Where a TODO mark for a node goes: the statement it belongs to, or the member of an object
 * literal that starts its own line (`getPod: (id) => rest(…),` in `export const api = { … }`),
 * so each site of such an object gets its own mark.
 */
export function statementOf(node: Node): Node {
  let n: Node = node;
  for (;;) {
    const p = n.getParent();
    if (!p || Node.isSourceFile(p) || Node.isBlock(p) || Node.isCaseClause(p) || Node.isDefaultClause(p) || Node.isModuleBlock(p) || Node.isClassDeclaration(p) || Node.isClassExpression(p)) return n;
    if (Node.isObjectLiteralExpression(p) && startsOwnLine(n)) return n;
    n = p;
  }
}

function startsOwnLine(n: Node): boolean {
  const text = n.getSourceFile().getFullText();
  const lineStart = text.lastIndexOf("\n", n.getStart() - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, n.getStart()));
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").replace(/;/g, ",").trim();
}

/** TypeScript source (`.ts`, `.tsx`, `.mts`, `.cts`): rewrites may write type annotations there. */
export function isTypeScriptFile(path: string): boolean {
  return /\.[cm]?tsx?$/.test(path);
}

/** Where a line can go at the top of a file: after its imports and directive prologue (`"use client"`), or after a shebang. */
export function afterImports(sf: SourceFile, text: string): number {
  let at = 0;
  for (const st of sf.getStatements()) {
    if (Node.isImportDeclaration(st) || (Node.isExpressionStatement(st) && Node.isStringLiteral(st.getExpression()))) at = st.getEnd();
    else break;
  }
  if (at === 0 && text.startsWith("#!")) at = text.indexOf("\n") + 1;
  return at;
}

/** Whether the checker types a value as a string or as an object (undefined: it does not say). */
export function valueKind(n: Node): "string" | "object" | undefined {
  try {
    const t = n.getType();
    if (t.isAny() || t.isUnknown()) return undefined;
    const members = t.isUnion() ? t.getUnionTypes() : [t];
    if (members.every((m) => m.isString() || m.isStringLiteral() || m.isTemplateLiteral())) return "string";
    return members.every((m) => m.isObject() && m.getSymbol()?.getName() !== "URL") ? "object" : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a conversion of a promise's value goes: before the `.catch(…)` links that end it, so a
 * fallback the code gives on failure (`.catch(() => [])`, in v1 shape) is not converted as a v2 answer.
 */
export function beforeFallbacks(promise: Node): Node {
  let at = skipParens(promise);
  for (;;) {
    const callee = Node.isCallExpression(at) ? at.getExpression() : undefined;
    if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== "catch") return at;
    at = skipParens(callee.getExpression());
  }
}

/** The outermost call of a method chain a call sits in (`z.string().default(x).describe(…)`). */
export function chainTop(call: Node): Node {
  let top = call;
  for (;;) {
    const access = top.getParent();
    const next = access?.getParent();
    if (access && Node.isPropertyAccessExpression(access) && access.getExpression() === top && next && Node.isCallExpression(next) && next.getExpression() === access) top = next;
    else return top;
  }
}
