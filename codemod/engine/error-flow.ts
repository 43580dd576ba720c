// A call's failure path: where the error body of a failed call is read. v1 answers `{ message }`
// and v2 an RFC 9457 problem, so every read on that path must follow the call to v2. Followed by
// value from the call:
//   - beside it: a body read on the error side of a status check (response-branch.ts)
//   - its Response handed to a function of the project (`unwrap(res)` reading it on `!res.ok`)
//   - the error it throws, where it is caught (caught-errors.ts): try/catch, `.catch`, a caller's
//     catch, an axios interceptor of its instance
//   - for a call through a wrapper or a request helper, the wrapper's or helper's own transport call
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { bodySites } from "./body-sites.ts";
import { describeRead } from "./response-branch.ts";
import { enclosingFunction } from "./scope.ts";
import { declarationScope, referencesOf, skipParens } from "./nodes.ts";
import { argumentCallee, functionNamed } from "./record-callees.ts";
import { memberMethod } from "./symbols.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { readCall } from "./call-reader.ts";
import { callersOf, caughtBodies, catchersOf, followPath, handlerParam, interceptorsOf } from "./caught-errors.ts";
import { clientHooks, storedOnError } from "./client-hooks.ts";
import { openapiAnswer } from "./openapi-answer.ts";
import { ofetchFailureBodies } from "./ofetch-errors.ts";

/** A body read on a call's failure path; `foreign` when calls that are not v1 sites reach it too. */
export interface FailureBody {
  node: Node;
  foreign: boolean;
}

/** `unfollowed` hears of each got/ky hook on the call's path that cannot be read (it is marked if the call migrates). */
export function failureBodies(a: Analysis, http: HttpCall, unfollowed: (hook: Node) => void = () => {}): FailureBody[] {
  const out = new Map<Node, boolean>();
  fromCall(a, http, (n, foreign) => out.set(n, (out.get(n) ?? false) || foreign), unfollowed, true, 0);
  return [...out].map(([node, foreign]) => ({ node, foreign }));
}

type Add = (body: Node, foreign: boolean) => void;

/** `propagate`: the call's own failure also reaches the catches of its function's callers (not so for a wrapper's inner call, whose callers are not all this site). */
function fromCall(a: Analysis, http: HttpCall, add: Add, unfollowed: (hook: Node) => void, propagate: boolean, depth: number): void {
  if (depth > 3) return;
  for (const s of bodySites(a, http)) if (s.kind === "value" && describeRead(s.node).errorReachable) add(s.node, false);
  if (http.lib === "openapi-fetch") for (const e of openapiAnswer(a, http.call).errors) add(e, false);
  if (passesResponse(http)) for (const p of responseHandlers(a, http.call)) responseParam(a, p, (n) => add(n, false), 0);
  const holders = catchersOf(a, http.call, propagate);
  for (const holder of holders) caughtBodies(a, holder, (n) => add(n, false));
  ofetchFailureBodies(a, http, holders, (n) => add(n, false));
  // axios's, also when the instance is made by a factory of the project (a call by convention).
  if (http.lib === "axios" || http.lib === "convention") for (const { param, global } of interceptorsOf(a, http.call)) caughtBodies(a, param, (n) => add(n, global));
  hooksOf(a, http, holders, add, unfollowed);
  for (const { inner, foreign } of innerTransports(a, http)) fromCall(a, inner, (n, f) => add(n, f || foreign), unfollowed, false, depth + 1);
}

/** got's and ky's hooks of the call's instance (client-hooks.ts): the body each reads on a failure, and the body a beforeError hook stores on the error its callers catch. */
function hooksOf(a: Analysis, http: HttpCall, holders: Node[], add: Add, unfollowed: (hook: Node) => void): void {
  const found = clientHooks(a, http);
  found.unfollowed.forEach(unfollowed);
  for (const { param, takes, foreign } of found.hooks) {
    if (takes === "fetch-response") responseParam(a, param, (n) => add(n, foreign), 0);
    else if (takes === "got-response") followPath(a, param, ["body"], (n) => describeRead(n).errorReachable && add(n, foreign));
    else {
      const bodies: Node[] = [];
      caughtBodies(a, param, (n) => bodies.push(n));
      bodies.forEach((n) => add(n, foreign));
      for (const field of storedOnError(param, bodies)) for (const holder of holders) followPath(a, holder, [field], (n) => add(n, foreign));
    }
  }
}

/** Whether the call's awaited value is a fetch-like Response (its body read with `.json()` / `.text()`). */
function passesResponse(http: HttpCall): boolean {
  if (http.lib === "fetch" || http.lib === "undici-request") return !http.wrapper?.returnsBody;
  if (http.lib === "helper") return !!http.helper?.returnsResponse && !http.helper.answerLib;
  return http.lib === "convention" && http.style === "json";
}

/** Parameters of the project's functions that take the call's response: `unwrap(await fetch(…))`, `const res = …; check(res)`, `.then(unwrap)`. */
function responseHandlers(a: Analysis, call: Node): Node[] {
  const out: Node[] = [];
  const outer = skipParens(call);
  const parent = outer.getParent();
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "then" && Node.isCallExpression(parent.getParent())) {
    const cb = (parent.getParent() as any).getArguments()[0] as Node | undefined;
    const param = cb && handlerParam(a, cb);
    if (param) out.push(param);
  }
  if (!parent || !Node.isAwaitExpression(parent)) return out;
  const value = skipParens(parent);
  const handedTo = (v: Node) => {
    const c = argumentCallee(a, v);
    const name = c && (c.param as any).getNameNode?.();
    if (name) out.push(name);
  };
  handedTo(value);
  const decl = value.getParent();
  if (decl && Node.isVariableDeclaration(decl) && decl.getInitializer() === value && Node.isIdentifier(decl.getNameNode())) {
    for (const r of referencesOf(enclosingFunction(decl), decl.getNameNode())) handedTo(skipParens(r));
  }
  return out;
}

/** A parameter that takes a Response: its body reads on the error side, and the functions it hands it to. */
function responseParam(a: Analysis, name: Node, add: (n: Node) => void, depth: number): void {
  if (!Node.isIdentifier(name) || depth > 3) return;
  for (const ref of referencesOf(declarationScope(name), name)) responseUse(a, skipParens(ref), add, depth);
}

function responseUse(a: Analysis, outer: Node, add: (n: Node) => void, depth: number): void {
  const p = outer.getParent();
  const c = p?.getParent();
  // `response.clone().json()` (a hook reads the body and leaves it to the app): the same response.
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && p.getName() === "clone" && c && Node.isCallExpression(c) && c.getExpression() === p) return responseUse(a, skipParens(c), add, depth);
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && (p.getName() === "json" || p.getName() === "text") && c && Node.isCallExpression(c)) {
    let v: Node = c;
    // `res.json().catch(() => ({}))`: the body (or the fallback) is the awaited value.
    for (let up = skipParens(v).getParent(); up && Node.isPropertyAccessExpression(up) && up.getName() === "catch" && Node.isCallExpression(up.getParent()); up = skipParens(v).getParent()) v = up.getParent()!;
    const awaited = skipParens(v).getParent();
    if (!awaited || !Node.isAwaitExpression(awaited)) return;
    if (p.getName() === "json") {
      if (describeRead(awaited).errorReachable) add(awaited);
      return;
    }
    // `JSON.parse(await res.text())`, or the text kept in a variable and parsed later.
    const holder = skipParens(awaited).getParent();
    const texts = holder && Node.isVariableDeclaration(holder) && Node.isIdentifier(holder.getNameNode()) ? referencesOf(enclosingFunction(holder), holder.getNameNode()) : [awaited];
    for (const t of texts) {
      const parse = jsonParseOf(t);
      if (parse && describeRead(parse, awaited).errorReachable) add(parse);
    }
  } else if (p && Node.isCallExpression(p) && p.getArguments().includes(outer as any)) {
    const callee = argumentCallee(a, outer);
    const next = callee && (callee.param as any).getNameNode?.();
    if (next) responseParam(a, next, add, depth + 1);
  }
}

function jsonParseOf(n: Node): Node | undefined {
  const outer = skipParens(n);
  const p = outer.getParent();
  return p && Node.isCallExpression(p) && p.getExpression().getText() === "JSON.parse" && p.getArguments()[0] === outer ? p : undefined;
}

/** The transport calls a call goes through: a request helper's own (their failures are its callers'), a wrapper's. */
function innerTransports(a: Analysis, http: HttpCall): { inner: HttpCall; foreign: boolean }[] {
  if (http.lib === "helper") {
    const fn = http.helper?.fn as Node | undefined;
    return (fn ? a.helperTransports.get(fn) ?? [] : []).map((inner) => ({ inner, foreign: false }));
  }
  if (!http.wrapper) return [];
  const callee = unwrapExpression(http.call.getExpression());
  const fn = functionNamed(a, callee) ?? memberMethod(callee);
  const inner = fn && wrapperTransport(a, fn, http.wrapper.urlIndex);
  // A wrapper other code calls too (another API): its error reads serve both shapes.
  return inner ? [{ inner, foreign: callersOf(a, fn).some((c) => !a.sites.some((s) => s.call === c)) }] : [];
}

function wrapperTransport(a: Analysis, fn: Node, urlIndex: number): HttpCall | undefined {
  for (const c of fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const inner = readCall(a, c);
    const url = inner?.urlNode && unwrapExpression(inner.urlNode);
    if (!inner || inner.lib === "helper" || !url || !Node.isIdentifier(url)) continue;
    const b = bind(a, url);
    if (b?.kind === "param" && b.fn === fn && b.index === urlIndex && !b.path.length) return inner;
  }
  return undefined;
}
