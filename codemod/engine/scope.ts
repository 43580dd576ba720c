// Name resolution without a type checker: walks enclosing scopes of an identifier to its
// declaration (variables, parameters, functions, imports, requires). Cheap and per file.
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";

export type Binding =
  | { kind: "var"; decl: Node; /** initializer of the whole declaration */ init: Node | undefined; /** property path inside a destructuring pattern */ path: string[]; isConst: boolean }
  | { kind: "param"; decl: Node; fn: Node; index: number; /** property path inside a destructured parameter */ path: string[] }
  | { kind: "function"; decl: Node }
  | { kind: "import"; module: string; /** exported name, "default", or "*" */ name: string; decl: Node }
  | { kind: "catch"; decl: Node };

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

export function isFunctionLike(node: Node): boolean {
  return FUNCTION_KINDS.has(node.getKind());
}

/**
 * The default the destructuring in `decl` gives the name `id` (`{ baseUrl = DEFAULT } = {}`), read
 * at a use of the name or at its declaration.
 */
export function elementDefault(id: Node, decl: Node | undefined): Node | undefined {
  const own = id.getFirstAncestorByKind(SyntaxKind.BindingElement);
  if (own && own.getNameNode() === id) return own.getInitializer();
  const name = id.getText();
  const el = decl?.getDescendantsOfKind(SyntaxKind.BindingElement).find((e) => Node.isIdentifier(e.getNameNode()) && e.getNameNode().getText() === name);
  return el?.getInitializer();
}

/** Names bound by a binding name (identifier or destructuring pattern), each with its property path. */
export function bindingNames(name: Node, path: string[] = []): { name: string; node: Node; path: string[] }[] {
  if (Node.isIdentifier(name)) return [{ name: name.getText(), node: name, path }];
  if (Node.isObjectBindingPattern(name)) {
    return name.getElements().flatMap((el) => {
      if (el.getDotDotDotToken()) return bindingNames(el.getNameNode(), [...path, "..."]);
      const prop = el.getPropertyNameNode();
      const key = prop ? (Node.isIdentifier(prop) || Node.isStringLiteral(prop) ? (Node.isStringLiteral(prop) ? prop.getLiteralValue() : prop.getText()) : "[computed]") : el.getNameNode().getText();
      return bindingNames(el.getNameNode(), [...path, key]);
    });
  }
  if (Node.isArrayBindingPattern(name)) {
    return name.getElements().flatMap((el, i) => (Node.isBindingElement(el) ? bindingNames(el.getNameNode(), [...path, String(i)]) : []));
  }
  return [];
}

function requireModule(init: Node | undefined): string | undefined {
  let node = init;
  while (node && (Node.isAwaitExpression(node) || Node.isParenthesizedExpression(node))) node = node.getExpression();
  if (node && Node.isCallExpression(node)) {
    const callee = node.getExpression();
    const arg = node.getArguments()[0];
    if ((Node.isIdentifier(callee) && callee.getText() === "require") || callee.getKind() === SyntaxKind.ImportKeyword) {
      if (arg && (Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg))) return arg.getLiteralValue();
    }
  }
  return undefined;
}

/** What `scope` itself declares under `name`, looked up once a scope and name: a module's statements were walked again for every identifier resolved in it. */
function declaredIn(scope: Node, name: string): Binding | undefined {
  let names = declaredByScope.get(scope);
  if (!names) declaredByScope.set(scope, (names = new Map()));
  let found = names.get(name);
  if (found === undefined) names.set(name, (found = ownDeclaration(scope, name) ?? null));
  return found ?? undefined;
}
const declaredByScope = new WeakMap<Node, Map<string, Binding | null>>();

function ownDeclaration(scope: Node, name: string): Binding | undefined {
  // Parameters and the function's own name.
  if (isFunctionLike(scope)) {
    const params = (scope as any).getParameters?.() as Node[] | undefined;
    if (params) {
      for (let i = 0; i < params.length; i++) {
        const p = params[i]!;
        for (const b of bindingNames((p as any).getNameNode())) if (b.name === name) return { kind: "param", decl: p, fn: scope, index: i, path: b.path };
      }
    }
    if (Node.isFunctionExpression(scope) && scope.getName() === name) return { kind: "function", decl: scope };
  }
  if (Node.isCatchClause(scope)) {
    const v = scope.getVariableDeclaration();
    // `catch (e)`, and `catch ({ response })`: a name the pattern binds.
    if (v && bindingNames(v.getNameNode()).some((b) => b.name === name)) return { kind: "catch", decl: v };
  }
  let statements: Node[] = [];
  if (Node.isSourceFile(scope) || Node.isBlock(scope) || Node.isModuleBlock(scope) || Node.isCaseClause(scope) || Node.isDefaultClause(scope)) {
    statements = (scope as any).getStatements();
  } else if (Node.isForStatement(scope) || Node.isForOfStatement(scope) || Node.isForInStatement(scope)) {
    const init = Node.isForStatement(scope) ? scope.getInitializer() : scope.getInitializer();
    if (init && Node.isVariableDeclarationList(init)) statements = [init];
  }
  for (const st of statements) {
    const lists: Node[] = Node.isVariableStatement(st) ? [st.getDeclarationList()] : Node.isVariableDeclarationList(st) ? [st] : [];
    for (const list of lists) {
      const isConst = (list as any).getDeclarationKind?.() === "const";
      for (const decl of (list as any).getDeclarations() as Node[]) {
        const d = decl as any;
        for (const b of bindingNames(d.getNameNode())) {
          if (b.name !== name) continue;
          const init = d.getInitializer() as Node | undefined;
          const mod = requireModule(init);
          if (mod !== undefined) return { kind: "import", module: mod, name: b.path.length ? b.path[0]! : "*", decl };
          return { kind: "var", decl, init, path: b.path, isConst };
        }
      }
    }
    if ((Node.isFunctionDeclaration(st) || Node.isClassDeclaration(st)) && st.getName() === name) return { kind: "function", decl: st };
    if (Node.isImportDeclaration(st)) {
      const module = st.getModuleSpecifierValue();
      const def = st.getDefaultImport();
      if (def && def.getText() === name) return { kind: "import", module, name: "default", decl: st };
      const ns = st.getNamespaceImport();
      if (ns && ns.getText() === name) return { kind: "import", module, name: "*", decl: st };
      for (const spec of st.getNamedImports()) {
        const local = spec.getAliasNode()?.getText() ?? spec.getName();
        if (local === name) return { kind: "import", module, name: spec.getName(), decl: st };
      }
    }
    if (Node.isImportEqualsDeclaration(st) && st.getName() === name) {
      const ref = st.getModuleReference();
      if (Node.isExternalModuleReference(ref)) {
        const e = ref.getExpression();
        if (e && Node.isStringLiteral(e)) return { kind: "import", module: e.getLiteralValue(), name: "*", decl: st };
      }
    }
  }
  return undefined;
}

/** The declaration an identifier refers to, or undefined for globals. */
export function resolveIdentifier(id: Node): Binding | undefined {
  const name = id.getText();
  let node: Node | undefined = id.getParent();
  while (node) {
    const found = declaredIn(node, name);
    if (found) return found;
    node = node.getParent();
  }
  return undefined;
}

/** Counts identifier nodes named `name` inside `scope` (declarations included). */
export function countIdentifiers(scope: Node, name: string): number {
  return identifiersNamed(scope, name).length;
}

/**
 * The identifiers named `name` inside `scope`, in source order. Indexed once a scope: finding the
 * uses of a name walked the whole function (or module) each time, and on large modules those walks
 * were most of a run.
 */
export function identifiersNamed(scope: Node, name: string): readonly Node[] {
  let index = identifiersByScope.get(scope);
  if (!index) {
    index = new Map();
    for (const d of scope.getDescendantsOfKind(SyntaxKind.Identifier)) {
      const text = d.getText();
      const list = index.get(text);
      if (list) list.push(d);
      else index.set(text, [d]);
    }
    identifiersByScope.set(scope, index);
  }
  return index.get(name) ?? [];
}
const identifiersByScope = new WeakMap<Node, Map<string, Node[]>>();

/** The nearest enclosing function (or the source file). */
export function enclosingFunction(node: Node): Node {
  let n: Node | undefined = node.getParent();
  while (n && !isFunctionLike(n) && !Node.isSourceFile(n)) n = n.getParent();
  return n ?? node.getSourceFile();
}

/**
 * The function a call is made for: its enclosing function, or, inside a thunk handed to a call
 * that function returns (`return withRetry(async () => request(url))`, `pRetry(() => …)`), the
 * function around that call (the thunk only defers the request; its result is the function's).
 */
export function runningFunction(node: Node): Node {
  let fn = enclosingFunction(node);
  for (let i = 0; i < 3; i++) {
    const thunk = fn;
    if (!(Node.isArrowFunction(thunk) || Node.isFunctionExpression(thunk)) || thunk.getParameters().length) return fn;
    const call = thunk.getParent();
    if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(thunk as any)) return fn;
    let up: Node | undefined = call.getParent();
    while (up && (Node.isAwaitExpression(up) || Node.isParenthesizedExpression(up) || Node.isAsExpression(up))) up = up.getParent();
    const outer = enclosingFunction(call);
    const returned = !!up && (Node.isReturnStatement(up) || (Node.isArrowFunction(up) && up === outer));
    if (!returned || !isFunctionLike(outer)) return fn;
    fn = outer;
  }
  return fn;
}

export function isAsyncFunction(fn: Node): boolean {
  return isFunctionLike(fn) && !!(fn as any).isAsync?.();
}

export type { SourceFile };

export interface Writes {
  /** `x = value` after the declaration. */
  assigned: Node[];
  /** `x += value`. */
  appended: Node[];
  /** Any other write (`x -= …`, `x++`, a destructuring assignment, `for (x of …)`). */
  other: boolean;
}

const writesCache = new WeakMap<Node, Writes>();

/** The writes to a variable after its declaration (none for a `const`), in source order. */
export function writesOf(decl: Node): Writes {
  let w = writesCache.get(decl);
  if (w) return w;
  w = { assigned: [], appended: [], other: false };
  writesCache.set(decl, w);
  const list = decl.getParent();
  if (!Node.isVariableDeclaration(decl) || !list || !Node.isVariableDeclarationList(list) || list.getDeclarationKind() === "const") return w;
  const name = decl.getNameNode();
  if (!Node.isIdentifier(name)) return w;
  for (const use of identifiersNamed(enclosingFunction(decl), name.getText())) {
    if (use === name) continue;
    const parent = use.getParent();
    let write: "assign" | "append" | "other" | undefined;
    if (parent && Node.isBinaryExpression(parent) && parent.getLeft() === use) {
      const op = parent.getOperatorToken().getKind();
      // `x ??= v` / `x ||= v` leave x as it was or give it v: an assignment of v, beside the old value.
      write = op === SyntaxKind.EqualsToken || op === SyntaxKind.QuestionQuestionEqualsToken || op === SyntaxKind.BarBarEqualsToken ? "assign" : op === SyntaxKind.PlusEqualsToken ? "append" : /Equals/.test(SyntaxKind[op] ?? "") && op !== SyntaxKind.EqualsEqualsToken && op !== SyntaxKind.EqualsEqualsEqualsToken && op !== SyntaxKind.ExclamationEqualsToken && op !== SyntaxKind.ExclamationEqualsEqualsToken ? "other" : undefined;
    } else if (parent && (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(parent.getOperatorToken())) write = "other";
    else if (parent && (Node.isShorthandPropertyAssignment(parent) || Node.isArrayLiteralExpression(parent)) && parent.getFirstAncestor((x) => Node.isBinaryExpression(x) && x.getOperatorToken().getKind() === SyntaxKind.EqualsToken && x.getLeft().getPos() <= use.getPos() && use.getEnd() <= x.getLeft().getEnd())) write = "other";
    else if (parent && (Node.isForOfStatement(parent) || Node.isForInStatement(parent)) && parent.getInitializer() === use) write = "other";
    if (!write || resolveIdentifier(use)?.decl !== decl) continue;
    if (write === "assign") w.assigned.push((parent as any).getRight());
    else if (write === "append") w.appended.push((parent as any).getRight());
    else w.other = true;
  }
  return w;
}

/** Whether a variable is written after its declaration. */
export function isRewritten(decl: Node): boolean {
  const w = writesOf(decl);
  return w.other || w.assigned.length > 0 || w.appended.length > 0;
}

/**
 * The keys named beside the rest element that binds `at`'s name in `decl` (`{ json, ...rest }`:
 * ["json"]); undefined when there is no such element or a sibling's key is computed.
 */
export function restOmits(decl: Node, at: Node): string[] | undefined {
  const name = at.getText();
  const el = (Node.isBindingElement(at.getParent() ?? at) ? [at.getParent()!] : decl.getDescendantsOfKind(SyntaxKind.BindingElement)).find(
    (e) => Node.isBindingElement(e) && !!e.getDotDotDotToken() && Node.isIdentifier(e.getNameNode()) && e.getNameNode().getText() === name,
  );
  const pattern = el?.getParent();
  if (!el || !pattern || !Node.isObjectBindingPattern(pattern)) return undefined;
  const keys: string[] = [];
  for (const sib of pattern.getElements()) {
    if (sib === el) continue;
    const prop = sib.getPropertyNameNode();
    if (!prop) keys.push(sib.getNameNode().getText());
    else if (Node.isIdentifier(prop)) keys.push(prop.getText());
    else if (Node.isStringLiteral(prop)) keys.push(prop.getLiteralValue());
    else return undefined;
  }
  return keys;
}

/**
 * What a function gives back: an arrow's expression body, the `return x` a body only is (one
 * expression), or else every `return` of its own (none when one returns nothing).
 */
export function returnedExpressions(fn: Node): Node[] {
  const body = (fn as any).getBody?.() as Node | undefined;
  if (!body) return [];
  if (!Node.isBlock(body)) return [body];
  const [only, ...rest] = body.getStatements();
  if (!rest.length && only && Node.isReturnStatement(only)) return only.getExpression() ? [only.getExpression()!] : [];
  const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn);
  return returns.every((r) => r.getExpression()) ? returns.map((r) => r.getExpression()!) : [];
}
