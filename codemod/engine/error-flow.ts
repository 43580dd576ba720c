// A call's failure path: where the error body of a failed call is read. v1 answers `{ message }`
// and v2 an RFC 9457 problem, so every read on that path must follow the call to v2. Followed by
// value from the call:
//   - beside it: a body read on the error side of a status check (response-branch.ts)
//   - its Response (or undici's body) handed to a function of the project (`unwrap(res)` reading it
//     on `!res.ok`, `fail(op, statusCode, body)`), and its body promise's `.then` callback
//   - the error it throws, where it is caught (caught-errors.ts): try/catch, `.catch`, a caller's
//     catch, an axios interceptor of its instance, a wretch chain's catchers (wretch-errors.ts)
//   - for a call answering an Observable, its error handlers on the stream (observable-errors.ts)
//   - for a call through a wrapper or a request helper, the wrapper's or helper's own transport call
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { bodySites } from "./body-sites.ts";
import { describeRead } from "./response-branch.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { declarationScope, referencesOf, skipParens } from "./nodes.ts";
import { functionNamed } from "./record-callees.ts";
import { handedTo, promiseValues, type Hop } from "./handed-on.ts";
import { memberMethod } from "./symbols.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { readCall } from "./call-reader.ts";
import { parsedBy } from "./json-parsers.ts";
import { callersOf, caughtBodies, catchersOf, followPath, handlerParam, interceptorsOf } from "./caught-errors.ts";
import { clientHooks, storedOnError } from "./client-hooks.ts";
import { openapiAnswer } from "./openapi-answer.ts";
import { openapiMiddleware } from "./openapi-middleware.ts";
import { ofetchFailureBodies } from "./ofetch-errors.ts";
import { wretchFailureBodies } from "./wretch-errors.ts";
import { streamFailureBodies } from "./observable-errors.ts";
import { ownFallbackChain } from "./result-fallback.ts";

/** A body read on a call's failure path; `foreign` when calls that are not v1 sites reach it too. */
export interface FailureBody {
  node: Node;
  foreign: boolean;
  /** The functions the body (or its response) was handed to on the way. */
  hops: Hop[];
  /** Read on the error side of a status check only (not merely where an error can reach): where it goes out of sight, it is said so. */
  errorSide: boolean;
}

/** Who hears of what the failure path loses sight of: a got/ky hook that cannot be read, a body handed to a callee that cannot be resolved (each is marked if the call migrates). */
export interface Unfollowed {
  hook: (hook: Node) => void;
  hand: (call: Node, why: string) => void;
}

export function failureBodies(a: Analysis, http: HttpCall, unfollowed: Unfollowed = { hook: () => {}, hand: () => {} }): FailureBody[] {
  const out = new Map<Node, FailureBody>();
  const add: Add = (node, foreign, hops = [], errorSide = false) => {
    const had = out.get(node);
    out.set(node, { node, foreign: (had?.foreign ?? false) || foreign, hops: [...(had?.hops ?? []), ...hops], errorSide: (had?.errorSide ?? false) || errorSide });
  };
  fromCall(a, http, add, unfollowed, true, 0);
  return [...out.values()];
}

type Add = (body: Node, foreign: boolean, hops?: Hop[], errorSide?: boolean) => void;

/** `propagate`: the call's own failure also reaches the catches of its function's callers (not so for a wrapper's inner call, whose callers are not all this site). */
function fromCall(a: Analysis, http: HttpCall, add: Add, unfollowed: Unfollowed, propagate: boolean, depth: number): void {
  if (depth > 3) return;
  for (const s of bodySites(a, http)) {
    const read = s.kind === "value" || s.kind === "promise" ? describeRead(s.node) : undefined;
    if (!read?.errorReachable) continue;
    const errorSide = read.side === "error";
    // A `.catch` fallback of the code's own (`{ error: e.message }`) is read with the body: its reads keep their field.
    if (s.kind === "value") add(s.node, !!ownFallbackChain(s.node), [], errorSide);
    // `res.json().then(function (e) { throw new Error(e.message) })` on `!res.ok`: the callback's parameter.
    else for (const v of promiseValues(a, s.node, errorSide ? unfollowed.hand : undefined)) add(v.value, false, v.hops, errorSide);
  }
  if (http.lib === "openapi-fetch") for (const e of openapiAnswer(a, http.call).errors) add(e, false);
  if (passesResponse(http)) for (const h of responseHandlers(a, http, unfollowed.hand)) responseParam(a, h, (n, hops, errorSide) => add(n, false, hops, errorSide), unfollowed.hand, 0);
  const holders = catchersOf(a, http.call, propagate);
  // The client's error carries the body: a caught error handed out of sight takes the body with it.
  const lost = errorCarriesBody(a, http) ? lostTo(a, unfollowed) : undefined;
  for (const holder of holders) caughtBodies(a, holder, (n) => add(n, false), [], lost);
  ofetchFailureBodies(a, http, holders, (n) => add(n, false));
  // A library that declares its answer's body under a member of its own (`result`: declared-answer.ts) throws
  // errors carrying the error body under the same member (@actions/http-client's `HttpClientError.result`).
  if (http.lib === "convention" && http.answerKey) for (const holder of holders) followPath(a, holder, [http.answerKey], (n) => add(n, false));
  wretchFailureBodies(a, http, (n) => add(n, false), unfollowed.hand);
  // An Observable's error handlers are where its failure certainly is: a body handed out of sight there is said so.
  streamFailureBodies(a, http, holders, (n, hops) => add(n, false, hops, true));
  // axios's, also when the instance is made by a factory of the project (a call by convention).
  if (http.lib === "axios" || http.lib === "convention") for (const { param, global } of interceptorsOf(a, http.call)) caughtBodies(a, param, (n) => add(n, global));
  hooksOf(a, http, holders, add, unfollowed.hook);
  for (const { inner, foreign } of innerTransports(a, http)) fromCall(a, inner, (n, f, hops, errorSide) => add(n, f || foreign, hops, errorSide), unfollowed, false, depth + 1);
}

/** got's and ky's hooks of the call's instance (client-hooks.ts): the body each reads on a failure, and the body a beforeError hook stores on the error its callers catch. */
function hooksOf(a: Analysis, http: HttpCall, holders: Node[], add: Add, unfollowed: (hook: Node) => void): void {
  const found = http.lib === "openapi-fetch" ? openapiMiddleware(a, http) : clientHooks(a, http);
  found.unfollowed.forEach(unfollowed);
  for (const { param, takes, foreign } of found.hooks) {
    if (takes === "fetch-response") responseParam(a, { name: param, hops: [], errorSide: false }, (n, hops) => add(n, foreign, hops), () => {}, 0);
    else if (takes === "got-response") followPath(a, param, ["body"], (n) => describeRead(n).errorReachable && add(n, foreign));
    else {
      const bodies: Node[] = [];
      caughtBodies(a, param, (n) => bodies.push(n));
      bodies.forEach((n) => add(n, foreign));
      for (const field of storedOnError(param, bodies)) for (const holder of holders) followPath(a, holder, [field], (n) => add(n, foreign));
    }
  }
}

const BODY_CARRIERS = new Set(["axios", "got", "ky", "superagent"]);

/** Whether the error a failed call throws holds its body (`err.response.data`), also through a request helper's transport. */
function errorCarriesBody(a: Analysis, http: HttpCall): boolean {
  if (BODY_CARRIERS.has(http.lib)) return true;
  const fn = http.lib === "helper" ? (http.helper?.fn as Node | undefined) : undefined;
  return !!fn && (a.helperTransports.get(fn) ?? []).some((t) => BODY_CARRIERS.has(t.lib));
}

/** An error (still holding the body) handed to a callee of the project that cannot be read (`onError(e)`, `this.opts.onError?.(e)`): said so. */
export function lostTo(a: Analysis, unfollowed: Unfollowed): (arg: Node) => void {
  return (arg) => {
    const to = handedTo(a, arg);
    if (to?.kind === "unfollowed") unfollowed.hand(to.call, `${to.why}, inside the caught error`);
  };
}

/** Whether the call's awaited value is a fetch-like Response (its body read with `.json()` / `.text()`). */
function passesResponse(http: HttpCall): boolean {
  if (http.lib === "fetch" || http.lib === "undici-request") return !http.wrapper?.returnsBody;
  if (http.lib === "helper") return !!http.helper?.returnsResponse && !http.helper.answerLib;
  return http.lib === "convention" && http.style === "json";
}

/** A parameter that takes the call's response (or undici's body), and the functions it was handed through. */
interface Handler {
  name: Node;
  hops: Hop[];
  /** Handed on the error side only (`if (statusCode >= 300) throw await fail(op, statusCode, body)`). */
  errorSide: boolean;
}

/**
 * Parameters of the project's functions that take the call's response: `unwrap(await fetch(…))`,
 * `const res = …; check(res)`, `.then(unwrap)`, and undici's body `const { statusCode, body } = …;
 * fail(op, statusCode, body)`. One handed on the success side only (`if (res.ok) return parse(res)`)
 * is not on the failure path; one handed on the error side to a callee that cannot be resolved is
 * said so (`hand`).
 */
function responseHandlers(a: Analysis, http: HttpCall, hand: Unfollowed["hand"]): Handler[] {
  const out: Handler[] = [];
  const outer = skipParens(http.call);
  const parent = outer.getParent();
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "then" && Node.isCallExpression(parent.getParent())) {
    const cb = (parent.getParent() as any).getArguments()[0] as Node | undefined;
    const param = cb && handlerParam(a, cb);
    // `.then(ensureOk)`: a named function entered here (its other entries may hand it other responses).
    const fn = param && !isFunctionLike(unwrapExpression(cb)) ? param.getFirstAncestor((n) => isFunctionLike(n)) : undefined;
    if (param) out.push({ name: param, hops: fn ? [{ fn, call: skipParens(cb), arg: outer }] : [], errorSide: false });
  }
  if (!parent || !Node.isAwaitExpression(parent)) return out;
  const value = skipParens(parent);
  const handed = (v: Node) => {
    const read = describeRead(v);
    if (!read.errorReachable) return;
    const to = handedTo(a, v);
    if (to?.kind === "param") out.push({ name: to.name, hops: [to.hop], errorSide: read.side === "error" });
    else if (to && read.side === "error") hand(to.call, to.why);
  };
  handed(value);
  const decl = value.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || decl.getInitializer() !== value) return out;
  const name = decl.getNameNode();
  const scope = enclosingFunction(decl);
  if (Node.isIdentifier(name)) for (const r of referencesOf(scope, name)) handed(skipParens(r));
  // undici's body has the Response's `.json()` / `.text()`.
  if (Node.isObjectBindingPattern(name) && http.lib === "undici-request") {
    for (const el of name.getElements()) {
      const key = el.getPropertyNameNode()?.getText() ?? el.getName();
      if (key === "body" && Node.isIdentifier(el.getNameNode())) for (const r of referencesOf(scope, el.getNameNode())) handed(skipParens(r));
    }
  }
  return out;
}

type AddBody = (n: Node, hops: Hop[], errorSide: boolean) => void;

/** A parameter that takes a Response: its body reads on the error side, and the functions it hands it to. */
function responseParam(a: Analysis, h: Handler, add: AddBody, hand: Unfollowed["hand"], depth: number): void {
  if (!Node.isIdentifier(h.name) || depth > 3) return;
  for (const ref of referencesOf(declarationScope(h.name), h.name)) responseUse(a, skipParens(ref), h, add, hand, depth);
}

function responseUse(a: Analysis, outer: Node, h: Handler, add: AddBody, hand: Unfollowed["hand"], depth: number): void {
  const p = outer.getParent();
  const c = p?.getParent();
  // `response.clone().json()` (a hook reads the body and leaves it to the app): the same response.
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && p.getName() === "clone" && c && Node.isCallExpression(c) && c.getExpression() === p) return responseUse(a, skipParens(c), h, add, hand, depth);
  // undici's whole answer handed on (`fail(res)`, then `res.body.json()`): its body reads as a Response's.
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && p.getName() === "body" && c && Node.isPropertyAccessExpression(c) && (c.getName() === "json" || c.getName() === "text")) return responseUse(a, p, h, add, hand, depth);
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && (p.getName() === "json" || p.getName() === "text") && c && Node.isCallExpression(c)) {
    let v: Node = c;
    // `res.json().catch(() => ({}))`: the body (or the fallback) is the awaited value.
    for (let up = skipParens(v).getParent(); up && Node.isPropertyAccessExpression(up) && up.getName() === "catch" && Node.isCallExpression(up.getParent()); up = skipParens(v).getParent()) v = up.getParent()!;
    const awaited = skipParens(v).getParent();
    if (!awaited || !Node.isAwaitExpression(awaited)) {
      // `return res.json().then(function (e) { throw new Error(e.message) })`: the callback's parameter.
      const read = describeRead(c);
      if (p.getName() === "json" && read.errorReachable) {
        const errorSide = h.errorSide || read.side === "error";
        for (const v of promiseValues(a, c, errorSide ? hand : undefined)) add(v.value, [...h.hops, ...v.hops], errorSide);
      }
      return;
    }
    if (p.getName() === "json") {
      const read = describeRead(awaited);
      if (read.errorReachable) add(awaited, h.hops, h.errorSide || read.side === "error");
      return;
    }
    // `JSON.parse(await res.text())`, or the text kept in a variable and parsed later.
    const holder = skipParens(awaited).getParent();
    const texts = holder && Node.isVariableDeclaration(holder) && Node.isIdentifier(holder.getNameNode()) ? referencesOf(enclosingFunction(holder), holder.getNameNode()) : [awaited];
    for (const t of texts) {
      const parse = parsedBy(a, t);
      const read = parse && describeRead(parse, awaited);
      if (parse && read?.errorReachable) add(parse, h.hops, h.errorSide || read.side === "error");
    }
  } else if (p && (Node.isCallExpression(p) || Node.isNewExpression(p)) && p.getArguments().includes(outer as any)) {
    const read = describeRead(outer);
    if (!read.errorReachable) return;
    const errorSide = h.errorSide || read.side === "error";
    const to = handedTo(a, outer);
    if (to?.kind === "param") responseParam(a, { name: to.name, hops: [...h.hops, to.hop], errorSide }, add, hand, depth + 1);
    else if (to && errorSide) hand(to.call, to.why);
  }
}

/** The call's transport calls (its own, a helper's or wrapper's inner ones) whose awaited value is a fetch-like Response. */
export function responseTransports(a: Analysis, http: HttpCall, depth = 0): Node[] {
  if (depth > 3) return [];
  return [...(passesResponse(http) ? [http.call] : []), ...innerTransports(a, http).flatMap(({ inner }) => responseTransports(a, inner, depth + 1))];
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
