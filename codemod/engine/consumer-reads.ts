// What a page or component that fetches one of the app's relay routes reads of the JSON it gets:
// the fetched value followed, in the file's syntax, through the shapes an app takes it in (the
// Response's `.json()`, axios's `.data`, Nuxt's `useFetch` ref, `.then` callbacks, `await`,
// variables, React state set from it, list methods' callbacks, local functions and components it
// is handed to) to its field reads. Any other use (spread, stored in an object, handed to code of
// another module, rendered whole) is where it leaves sight: the caller falls back to the
// project-wide word search. Read-only: nothing is edited in these files. Names are matched by their
// text in the scope they are declared in, which errs toward more uses (more reads, or leaving sight).
import { ts, type TypeScript } from "../ts-morph.ts";

type N = TypeScript.Node;

/** What a followed expression holds. */
export type Held =
  | { t: "json" }
  | { t: "response" }
  | { t: "axios" }
  | { t: "ref" }
  | { t: "asyncData" }
  | { t: "promise"; of: Held };

export type ConsumerReads = { reads: Map<string, N> } | { leaves: N; why: string };

const ELEMENT_CALLBACK = new Set(["map", "filter", "find", "findLast", "findIndex", "forEach", "some", "every", "flatMap", "sort", "toSorted"]);
const GIVES_RECORDS = new Set(["filter", "find", "findLast", "sort", "toSorted", "slice", "reverse", "toReversed", "at", "concat"]);
const RESPONSE_META = new Set(["ok", "status", "statusText", "headers", "redirected", "url", "type"]);

/** Follows the value `start` holds (`what`) in its file to the record fields read. */
export function consumerReads(start: N, what: Held): ConsumerReads {
  const reads = new Map<string, N>();
  const seen = new Set<string>();
  let left: { leaves: N; why: string } | undefined;
  const leave = (n: N, why: string) => void (left ??= { leaves: n, why });
  const read = (name: string, at: N) => void (reads.has(name) || reads.set(name, at));

  const use = (node: N, held: Held, depth: number): void => {
    if (left) return;
    const key = `${node.pos}:${node.end}:${JSON.stringify(held)}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (depth > 12) return leave(node, "followed too far");
    let outer = node;
    while (outer.parent && (ts.isParenthesizedExpression(outer.parent) || ts.isAsExpression(outer.parent) || ts.isNonNullExpression(outer.parent) || ts.isSatisfiesExpression(outer.parent) || ts.isTypeAssertionExpression(outer.parent))) outer = outer.parent;
    const p = outer.parent;
    if (!p || ts.isExpressionStatement(p) || ts.isVoidExpression(p)) return;
    if (ts.isAwaitExpression(p)) return use(p, held.t === "promise" ? held.of : held, depth + 1);
    if (ts.isPropertyAccessExpression(p) && p.expression === outer) return member(p, p.name.text, held, depth);
    if (ts.isElementAccessExpression(p) && p.expression === outer) {
      const arg = p.argumentExpression;
      if (held.t !== "json") return leave(p, "an element of what the request answers");
      if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return read(arg.text, p);
      if (ts.isNumericLiteral(arg)) return use(p, held, depth + 1);
      return leave(p, "a key computed at run time");
    }
    if (ts.isVariableDeclaration(p) && p.initializer === outer) return bound(p.name, held, depth);
    if (ts.isBinaryExpression(p)) {
      const op = p.operatorToken.kind;
      if (op === ts.SyntaxKind.EqualsToken && p.right === outer) return ts.isIdentifier(p.left) ? named(p.left, held, depth) : leave(p, "stored");
      if ((op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) || (op === ts.SyntaxKind.AmpersandAmpersandToken && p.right === outer)) return use(p, held, depth + 1);
      if ([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken, ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.InstanceOfKeyword].includes(op)) return;
      return leave(p, "used in an expression");
    }
    if (ts.isConditionalExpression(p)) return p.condition === outer ? undefined : use(p, held, depth + 1);
    if (ts.isIfStatement(p) || ts.isWhileStatement(p) || ts.isTypeOfExpression(p) || (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken)) return;
    if (ts.isTemplateSpan(p)) return;
    if (ts.isForOfStatement(p) && p.expression === outer && held.t === "json") {
      const init = p.initializer;
      return ts.isVariableDeclarationList(init) && init.declarations[0] ? bound(init.declarations[0].name, held, depth) : leave(p, "a loop variable assigned elsewhere");
    }
    if (ts.isReturnStatement(p) || (ts.isArrowFunction(p) && p.body === outer)) return returned(p, held, depth);
    if (ts.isCallExpression(p) && p.arguments.includes(outer as TypeScript.Expression)) return handed(p, p.arguments.indexOf(outer as TypeScript.Expression), held, depth);
    if (ts.isJsxExpression(p) && p.parent && ts.isJsxAttribute(p.parent)) return prop(p.parent, held, depth);
    leave(p, "used where the codemod does not follow it");
  };

  /** `x.name` on a held value. */
  const member = (access: TypeScript.PropertyAccessExpression, name: string, held: Held, depth: number): void => {
    const call = access.parent && ts.isCallExpression(access.parent) && access.parent.expression === access ? access.parent : undefined;
    switch (held.t) {
      case "promise":
        if (name === "then" && call) return callback(call.arguments[0], 0, held.of, depth, call, true);
        if ((name === "catch" || name === "finally") && call) return use(call, held, depth + 1);
        return leave(access, `.${name} of the request's promise`);
      case "response":
        if (name === "json" && call) return use(call, { t: "promise", of: { t: "json" } }, depth + 1);
        if (RESPONSE_META.has(name)) return;
        return leave(access, `the Response's .${name}`);
      case "axios":
        if (name === "data") return use(access, { t: "json" }, depth + 1);
        if (RESPONSE_META.has(name)) return;
        return leave(access, `the response's .${name}`);
      case "ref":
        if (name === "value") return use(access, { t: "json" }, depth + 1);
        return leave(access, `the ref's .${name}`);
      case "asyncData":
        if (name === "data") return use(access, { t: "ref" }, depth + 1);
        if (/^(pending|error|status|refresh|execute|clear)$/.test(name)) return;
        return leave(access, `useFetch's .${name}`);
      case "json":
        if (name === "length") return;
        if (call && ELEMENT_CALLBACK.has(name)) {
          callback(call.arguments[0], 0, held, depth, undefined, false);
          if (GIVES_RECORDS.has(name)) use(call, held, depth + 1);
          return;
        }
        if (call && GIVES_RECORDS.has(name)) return use(call, held, depth + 1);
        if (call && /^(includes|indexOf|join|keys|entries|values|reduce|reduceRight)$/.test(name)) return leave(access, `.${name}(…) of the records`);
        return read(name, access);
    }
  };

  /** A callback given the held value as its parameter `index`; `then`: its return is the then-call's value. */
  const callback = (cb: N | undefined, index: number, held: Held, depth: number, thenCall: TypeScript.CallExpression | undefined, isThen: boolean): void => {
    if (!cb) return;
    if (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) {
      if (isThen && thenCall) thenResults.set(cb, thenCall);
      const param = cb.parameters[index];
      if (param) bound(param.name, held, depth);
      return;
    }
    if (ts.isIdentifier(cb)) {
      const setter = stateOf(cb);
      if (setter) return bound(setter, held, depth);
      const fn = localFunction(cb);
      if (fn) {
        if (isThen && thenCall) thenResults.set(fn, thenCall);
        const param = fn.parameters[index];
        return param ? bound(param.name, held, depth) : undefined;
      }
    }
    leave(cb, "handed to a callback the codemod does not follow");
  };
  /** Functions whose returns are a then-call's value. */
  const thenResults = new Map<N, TypeScript.CallExpression>();

  /** A return of the held value: to the then-call it is the callback of, or to a local function's callers. */
  const returned = (at: N, held: Held, depth: number): void => {
    const fn = ts.isArrowFunction(at) ? at : enclosingFunction(at);
    if (!fn) return leave(at, "returned");
    const then = thenResults.get(fn);
    const async = !!ts.getModifiers(fn as TypeScript.FunctionLikeDeclaration & TypeScript.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
    const value: Held = then || async ? (held.t === "promise" ? held : { t: "promise", of: held }) : held;
    if (then) return use(then, value, depth + 1);
    const name = functionName(fn);
    if (!name || exported(name)) return leave(at, "returned out of the file");
    const calls = referencesOf(name).filter((r) => r.parent && ts.isCallExpression(r.parent) && r.parent.expression === r);
    if (calls.length !== referencesOf(name).length) return leave(at, `returned from ${name.text}, which is handed on`);
    for (const r of calls) use(r.parent!, value, depth + 1);
  };

  /** The held value handed to a call: a state setter, a local function's parameter, a log. */
  const handed = (call: TypeScript.CallExpression, index: number, held: Held, depth: number): void => {
    const callee = call.expression;
    if (/^console\.\w+$/.test(callee.getText()) || callee.getText() === "Array.isArray") return;
    if (ts.isIdentifier(callee)) {
      const state = stateOf(callee);
      if (state) return bound(state, held, depth);
      const fn = localFunction(callee);
      const param = fn?.parameters[index];
      if (param && !param.dotDotDotToken) return bound(param.name, held, depth);
    }
    leave(call, `handed to ${callee.getText()}`);
  };

  /** `<PodRow pod={p} />` of a component in this file: its `pod` prop. */
  const prop = (attr: TypeScript.JsxAttribute, held: Held, depth: number): void => {
    const el = attr.parent?.parent;
    const tag = el && (ts.isJsxSelfClosingElement(el) || ts.isJsxOpeningElement(el)) ? el.tagName : undefined;
    const fn = tag && ts.isIdentifier(tag) ? localFunction(tag) : undefined;
    const param = fn?.parameters[0];
    const key = attr.name.getText();
    if (!param) return leave(attr, `given to <${tag?.getText() ?? "?"}> as ${key}`);
    if (ts.isObjectBindingPattern(param.name)) {
      for (const e of param.name.elements) if ((e.propertyName ?? e.name).getText() === key) bound(e.name, held, depth);
      if (param.name.elements.some((e) => e.dotDotDotToken)) leave(param, "props spread on");
      return;
    }
    if (!ts.isIdentifier(param.name)) return leave(param, "props taken apart");
    for (const r of referencesOf(param.name)) {
      const acc = r.parent;
      if (acc && ts.isPropertyAccessExpression(acc) && acc.expression === r) {
        if (acc.name.text === key) use(acc, held, depth + 1);
      } else return leave(r, "props handed on whole");
    }
  };

  /** A name (or pattern) declared with the held value. */
  const bound = (name: TypeScript.BindingName, held: Held, depth: number): void => {
    if (ts.isIdentifier(name)) return named(name, held, depth);
    if (ts.isObjectBindingPattern(name)) {
      for (const el of name.elements) {
        if (el.dotDotDotToken) return leave(el, "a rest of the value");
        const key = (el.propertyName ?? el.name).getText();
        if (held.t === "json") read(key, el);
        else if (held.t === "asyncData" && key === "data") bound(el.name, { t: "ref" }, depth + 1);
        else if (held.t === "axios" && key === "data") bound(el.name, { t: "json" }, depth + 1);
        else if (!((held.t === "response" || held.t === "axios") && RESPONSE_META.has(key)) && !(held.t === "asyncData" && /^(pending|error|status|refresh|execute|clear)$/.test(key))) return leave(el, `${key} taken from it`);
      }
      return;
    }
    if (held.t !== "json") return leave(name, "taken apart");
    for (const el of name.elements) if (!ts.isOmittedExpression(el)) bound(el.name, held, depth + 1);
  };
  const named = (id: TypeScript.Identifier, held: Held, depth: number): void => {
    if (exported(id)) return leave(id, `exported as ${id.text}`);
    for (const r of referencesOf(id)) use(r, held, depth + 1);
  };

  use(start, what, 0);
  return left ?? { reads };
}

function enclosingFunction(n: N): TypeScript.FunctionLikeDeclaration | undefined {
  for (let x = n.parent; x; x = x.parent) if (ts.isFunctionLike(x) && !ts.isFunctionTypeNode(x) && "body" in x) return x as TypeScript.FunctionLikeDeclaration;
  return undefined;
}

function functionName(fn: N): TypeScript.Identifier | undefined {
  if (ts.isFunctionDeclaration(fn) && fn.name) return fn.name;
  const holder = fn.parent;
  return holder && ts.isVariableDeclaration(holder) && holder.initializer === fn && ts.isIdentifier(holder.name) ? holder.name : undefined;
}

/** The declaration a name stands for in this file: a declaration of that text in the nearest enclosing function (or the module). */
export function declarationOf(id: TypeScript.Identifier): TypeScript.Identifier | undefined {
  for (let scope: N | undefined = id.parent; scope; scope = scope.parent) {
    if (!(ts.isFunctionLike(scope) || ts.isSourceFile(scope))) continue;
    let found: TypeScript.Identifier | undefined;
    const visit = (n: N): void => {
      if (found) return;
      // A nested function declares its own name here, and nothing inside it.
      if (ts.isFunctionLike(n)) {
        if (ts.isFunctionDeclaration(n) && n.name?.text === id.text) found = n.name;
        return;
      }
      if ((ts.isVariableDeclaration(n) || ts.isParameter(n) || ts.isBindingElement(n)) && ts.isIdentifier(n.name) && n.name.text === id.text) found = n.name;
      ts.forEachChild(n, visit);
    };
    ts.forEachChild(scope, visit);
    if (found) return found;
  }
  return undefined;
}

/** The function a callee or callback name stands for, declared in this file. */
function localFunction(id: TypeScript.Identifier): TypeScript.FunctionLikeDeclaration | undefined {
  const decl = declarationOf(id);
  const holder = decl?.parent;
  if (holder && ts.isFunctionDeclaration(holder)) return holder;
  const init = holder && ts.isVariableDeclaration(holder) ? holder.initializer : undefined;
  return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
}

/** `const [pods, setPods] = useState(…)`: for `setPods`, the name `pods`. */
function stateOf(id: TypeScript.Identifier): TypeScript.Identifier | undefined {
  const decl = declarationOf(id);
  const el = decl?.parent;
  const pattern = el?.parent;
  if (!el || !ts.isBindingElement(el) || !pattern || !ts.isArrayBindingPattern(pattern) || pattern.elements[1] !== el) return undefined;
  const v = pattern.parent;
  const init = ts.isVariableDeclaration(v) ? v.initializer : undefined;
  const first = pattern.elements[0];
  if (!init || !ts.isCallExpression(init) || !/^(React\.)?useState$/.test(init.expression.getText()) || !first || ts.isOmittedExpression(first) || !ts.isIdentifier(first.name)) return undefined;
  return first.name;
}

/** Declared at the top of a module and exported there (or by `export { name }`): other modules may use it. */
function exported(id: TypeScript.Identifier): boolean {
  const sf = id.getSourceFile();
  const decl = id.parent;
  // Only a module's own top-level names: a variable of its statement list, or a function it declares.
  const stmt = ts.isVariableDeclaration(decl) && decl.name === id ? decl.parent?.parent : ts.isFunctionDeclaration(decl) && decl.name === id ? decl : undefined;
  if (!stmt || stmt.parent !== sf) return false;
  if (ts.canHaveModifiers(stmt) && ts.getModifiers(stmt)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return true;
  return sf.statements.some((s) => ts.isExportDeclaration(s) && !!s.exportClause && ts.isNamedExports(s.exportClause) && s.exportClause.elements.some((e) => (e.propertyName ?? e.name).text === id.text)) || sf.statements.some((s) => ts.isExportAssignment(s) && ts.isIdentifier(s.expression) && s.expression.text === id.text);
}

/** Where a declared name is used: identifiers of its text in its declaring scope (not property names, keys, or the declaration). */
function referencesOf(decl: TypeScript.Identifier): TypeScript.Identifier[] {
  let scope: N | undefined = ts.isFunctionDeclaration(decl.parent) && decl.parent.name === decl ? decl.parent.parent : decl.parent;
  while (scope && !(ts.isFunctionLike(scope) || ts.isSourceFile(scope))) scope = scope.parent;
  // A parameter's scope is its function; a variable's the function (or module) it is declared in.
  const out: TypeScript.Identifier[] = [];
  const visit = (n: N): void => {
    if (ts.isTypeNode(n)) return;
    if (ts.isIdentifier(n) && n !== decl && n.text === decl.text && isReference(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  if (scope) visit(scope);
  return out;
}

function isReference(id: TypeScript.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p)) && p.name === id) return false;
  if (ts.isBindingElement(p) && (p.propertyName === id || p.name === id)) return false;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p)) && p.name === id) return false;
  if (ts.isJsxAttribute(p) || ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isImportClause(p)) return false;
  if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p) || ts.isJsxClosingElement(p)) && p.tagName === id) return false;
  return true;
}
