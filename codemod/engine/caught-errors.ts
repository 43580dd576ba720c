// Where the error a failed call throws is caught, and where its body is read there: a try/catch or
// `.catch` around the call, or around a call of the function that makes it (its callers, a few
// levels up, in any module); an axios interceptor of the instance the call is made on (in its
// module or any other). From the caught error, the body is followed by value down
// `response.data` (axios), `response.body` (got) or `await response.json()` (ky): through
// variables, destructuring (`const { response } = error`), `??` / `&&`, and the project's
// functions and classes it is handed to (`toHttpError(e)`, `new ApiError(e)`).
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { declarationScope, isDeclarationName, referencesOf, skipParens } from "./nodes.ts";
import { references, functionName } from "./references.ts";
import { argumentCallee, classNamed, functionNamed } from "./record-callees.ts";
import { classOfMember } from "./symbols.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";

// `JSON.parse(await error.response.text())` as well as `.json()`; `parse()` is `JSON.parse(…)`.
const BODY_PATHS = [["response", "data"], ["response", "body"], ["response", "json()"], ["response", "text()", "parse()"]];
const CALLER_LEVELS = 3;

/** The caught errors (their names: a catch variable, a handler's parameter, or a pattern) a failure of `call` reaches. */
export function catchersOf(a: Analysis, call: Node, propagate: boolean, depth = 0, seen = new Set<Node>()): Node[] {
  const out: Node[] = [];
  let caught = false;
  let cur = skipParens(call);
  // `call.then(…).catch((e) => …)`, `.then(ok, (e) => …)`
  for (;;) {
    const p = cur.getParent();
    const c = p?.getParent();
    if (!p || !Node.isPropertyAccessExpression(p) || p.getExpression() !== cur || !c || !Node.isCallExpression(c) || c.getExpression() !== p) break;
    const name = p.getName();
    if (!["then", "catch", "finally"].includes(name)) break;
    const handler = name === "catch" ? c.getArguments()[0] : name === "then" ? c.getArguments()[1] : undefined;
    if (handler) {
      caught = true;
      const param = handlerParam(a, handler);
      if (param) out.push(param);
    }
    cur = skipParens(c);
  }
  // `try { … call … } catch (e) { … }`, up to the call's function.
  for (let n: Node = cur, p = n.getParent(); p && !isFunctionLike(p) && !Node.isSourceFile(p); n = p, p = p.getParent()) {
    if (!Node.isTryStatement(p) || p.getTryBlock() !== n) continue;
    const clause = p.getCatchClause();
    if (!clause) continue;
    const v = clause.getVariableDeclaration();
    if (v) out.push(v.getNameNode());
    // `catch (e) { log(e); throw e; }` hands the same error on.
    if (!v || !rethrows(clause.getBlock(), v.getName())) caught = true;
  }
  if (!propagate || caught || depth >= CALLER_LEVELS) return out;
  const fn = enclosingFunction(cur);
  if (!isFunctionLike(fn) || seen.has(fn)) return out;
  seen.add(fn);
  for (const c of callersOf(a, fn)) out.push(...catchersOf(a, c, true, depth + 1, seen));
  return out;
}

function rethrows(block: Node, name: string): boolean {
  return block.getDescendantsOfKind(SyntaxKind.ThrowStatement).some((t) => t.getExpression() && unwrapExpression(t.getExpression()!).getText() === name);
}

/** The first parameter of an error handler: an inline function, or a function of the project it names. */
export function handlerParam(a: Analysis, handler: Node): Node | undefined {
  const h = unwrapExpression(handler);
  const fn = isFunctionLike(h) ? h : Node.isIdentifier(h) || Node.isPropertyAccessExpression(h) ? functionNamed(a, h) : undefined;
  const param = (fn as any)?.getParameters?.()[0] as Node | undefined;
  return param && Node.isParameterDeclaration(param) ? param.getNameNode() : undefined;
}

const callerCache = new WeakMap<Node, Node[]>();

/** The calls of a function in the run (by its name, its holder's, or its object property's). */
export function callersOf(a: Analysis, fn: Node): Node[] {
  const cached = callerCache.get(fn);
  if (cached) return cached;
  let name = functionName(fn);
  const holder = fn.getParent();
  if (!name && holder && Node.isPropertyAssignment(holder) && holder.getInitializer() === fn) name = holder.getNameNode();
  const out: Node[] = [];
  for (const r of name ? references(name) : []) {
    const ref = skipParens(r);
    const c = ref.getParent();
    if (c && Node.isCallExpression(c) && c.getExpression() === ref && a.files.has(c.getSourceFile().getFilePath())) out.push(c);
  }
  // A callback handed to a function of the project (`wrap("op", () => api.delete(…))`): its callers are that function's calls of the parameter (`await run()`).
  const callee = !name ? argumentCallee(a, fn) : undefined;
  const param = callee && (callee.param as any).getNameNode?.();
  if (callee && param && Node.isIdentifier(param)) {
    for (const r of referencesOf(callee.fn, param)) {
      const c = skipParens(r).getParent();
      if (c && Node.isCallExpression(c) && c.getExpression() === skipParens(r)) out.push(c);
    }
  }
  callerCache.set(fn, out);
  return out;
}

/** The error handlers of axios interceptors on the instance `call` is made on (`api.interceptors.response.use(ok, onError)`). */
export function interceptorsOf(a: Analysis, call: Node): { param: Node; global: boolean }[] {
  if (!Node.isCallExpression(call)) return [];
  const callee = unwrapExpression(call.getExpression());
  const key = instanceKey(a, Node.isPropertyAccessExpression(callee) ? callee.getExpression() : callee, 0);
  if (!key) return [];
  return (interceptorIndex(a).get(key) ?? []).map((param) => ({ param, global: key === GLOBAL }));
}

export const GLOBAL = "lib:axios";
const indexes = new WeakMap<Analysis, Map<string, Node[]>>();

function interceptorIndex(a: Analysis): Map<string, Node[]> {
  let index = indexes.get(a);
  if (index) return index;
  index = new Map();
  indexes.set(a, index);
  for (const { call, instance } of responseInterceptors(a)) {
    const key = instanceKey(a, instance, 0);
    const handler = call.getArguments()[1];
    const param = key && handler ? handlerParam(a, handler) : undefined;
    if (key && param) index.set(key, [...(index.get(key) ?? []), param]);
  }
  return index;
}

const interceptorCalls = new WeakMap<Analysis, { call: CallExpression; instance: Node }[]>();

/** Every `X.interceptors.response.use(onSuccess, onError)` of the run, with `X` (the instance, or what a set-up function is given). */
export function responseInterceptors(a: Analysis): { call: CallExpression; instance: Node }[] {
  let found = interceptorCalls.get(a);
  if (found) return found;
  interceptorCalls.set(a, (found = []));
  for (const file of a.files.values()) {
    if (!file.text.includes("interceptors")) continue;
    for (const call of file.sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const use = unwrapExpression(call.getExpression());
      const response = Node.isPropertyAccessExpression(use) && use.getName() === "use" ? unwrapExpression(use.getExpression()) : undefined;
      const list = response && Node.isPropertyAccessExpression(response) && response.getName() === "response" ? unwrapExpression(response.getExpression()) : undefined;
      if (list && Node.isPropertyAccessExpression(list) && list.getName() === "interceptors") found.push({ call, instance: list.getExpression() });
    }
  }
  return found;
}

/** Whether a node is inside an axios interceptor's error handler (whose instance says which calls reach it). */
export function inInterceptor(a: Analysis, node: Node): boolean {
  const params = new Set([...interceptorIndex(a).values()].flat());
  for (let n = node.getParent(); n; n = n.getParent()) {
    const first = isFunctionLike(n) ? (n as any).getParameters?.()[0]?.getNameNode?.() : undefined;
    if (first && params.has(first)) return true;
  }
  return false;
}

const nodeKey = (n: Node) => `${n.getSourceFile().getFilePath()}:${n.getStart()}`;

/** Which instance an expression holds: its declaration (through aliases and a factory returning a local one), a class member, or axios itself. */
export function instanceKey(a: Analysis, expr: Node, depth = 0): string | undefined {
  const n = unwrapExpression(expr);
  if (depth > 4) return undefined;
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind === "import") return b.module === "axios" && (b.name === "default" || b.name === "*") ? GLOBAL : undefined;
    if (b?.kind !== "var" || b.path.length) return undefined;
    const init = b.init && unwrapExpression(b.init);
    if (init && (Node.isIdentifier(init) || Node.isPropertyAccessExpression(init))) return instanceKey(a, init, depth + 1);
    const factory = init && Node.isCallExpression(init) ? functionNamed(a, init.getExpression()) : undefined;
    const returned = factory?.getDescendantsOfKind(SyntaxKind.ReturnStatement).find((r) => enclosingFunction(r) === factory && r.getExpression() && Node.isIdentifier(unwrapExpression(r.getExpression()!)));
    if (returned) return instanceKey(a, returned.getExpression()!, depth + 1);
    return nodeKey(b.decl);
  }
  if (Node.isPropertyAccessExpression(n)) {
    const cls = classOfMember(n);
    return cls ? `${nodeKey(cls)}#${n.getName()}` : undefined;
  }
  return undefined;
}

/**
 * Hears of a value still holding the error body (the path not yet read) handed as an argument to a
 * callee of no function the engine resolves (`onError(e)`, `this.handlers.error(err)`): the
 * caller asks handed-on.ts whether that callee is the project's, read out of sight.
 */
export type LostArg = (arg: Node) => void;

/** The error bodies read from a caught error (its name or a pattern binding it). */
export function caughtBodies(a: Analysis, holder: Node, add: (body: Node) => void, under: string[] = [], lost?: LostArg): void {
  const seen = new Set<string>();
  for (const path of BODY_PATHS) follow(a, holder, [...under, ...path], add, 0, seen, lost);
}

/** What a value holds down `path` (`error.data`, a got response's `body`), wherever the code reads it. */
export function followPath(a: Analysis, holder: Node, path: string[], add: (n: Node) => void, lost?: LostArg): void {
  follow(a, holder, path, add, 0, new Set(), lost);
}

/** Follows a value down `path` (property names still to read) to the nodes that hold what the path reads. */
function follow(a: Analysis, node: Node, path: string[], add: (n: Node) => void, depth: number, seen: Set<string>, lost?: LostArg): void {
  const key = `${nodeKey(node)}:${node.getKind()}:${path.join(".")}`;
  if (depth > 8 || seen.has(key)) return;
  seen.add(key);
  const next = (n: Node, rest = path) => follow(a, n, rest, add, depth + 1, seen, lost);
  if (Node.isObjectBindingPattern(node)) {
    if (!path.length) return add(node);
    for (const el of node.getElements()) if ((el.getPropertyNameNode()?.getText() ?? el.getName()) === path[0]) next(el.getNameNode(), path.slice(1));
    return;
  }
  if (Node.isIdentifier(node) && isDeclarationName(node)) {
    for (const r of referencesOf(declarationScope(node), node)) next(r);
    return;
  }
  if (!path.length) return add(node);
  const outer = skipParens(node);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    if (p.getName() === path[0]) return next(p, path.slice(1));
    // ky: `await error.response.json()`, `.text()`, through `.clone()`
    const c = p.getParent();
    const called = c && Node.isCallExpression(c) && c.getExpression() === p ? c : undefined;
    if (called && p.getName() === "clone" && /\(\)$/.test(path[0]!)) return next(called);
    // `.json().catch(() => ({}))`: the body, or the fallback.
    let v = called && skipParens(called);
    for (let up = v?.getParent(); v && up && Node.isPropertyAccessExpression(up) && up.getName() === "catch" && Node.isCallExpression(up.getParent()); up = v.getParent()) v = skipParens(up.getParent()!);
    const awaited = v?.getParent();
    if (path[0] === `${p.getName()}()` && awaited && Node.isAwaitExpression(awaited)) next(awaited, path.slice(1));
    return;
  }
  if (path[0] === "parse()" && Node.isCallExpression(p) && p.getExpression().getText() === "JSON.parse" && p.getArguments()[0] === outer) return next(p, path.slice(1));
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) return next(p.getNameNode());
  if (Node.isBinaryExpression(p)) {
    const op = p.getOperatorToken().getKind();
    const left = p.getLeft() === outer;
    if (((op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) && left) || (op === SyntaxKind.AmpersandAmpersandToken && !left)) next(p);
    return;
  }
  if (Node.isConditionalExpression(p) && p.getCondition() !== outer) return next(p);
  if (Node.isCallExpression(p) && p.getArguments().includes(outer as any)) {
    const callee = argumentCallee(a, outer);
    const name = callee && (callee.param as any).getNameNode?.();
    if (name) next(name);
    else if (!callee && path.length) lost?.(outer);
    return;
  }
  // `new ApiError(e)`: the class's constructor parameter.
  if (Node.isNewExpression(p) && p.getArguments().includes(outer as any)) {
    const param = classNamed(a, p.getExpression())?.getConstructors()[0]?.getParameters()[p.getArguments().indexOf(outer as any)];
    if (param) next(param.getNameNode());
  }
}
