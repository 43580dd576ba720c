// The failure path of a call that answers an Observable: its error reaches the error handlers
// observable-flow.ts finds on the stream (`catchError(h)`, a subscriber's `error`, `subscribe`'s
// second argument), in the call's module or where a function returning the stream is subscribed
// to. Each handler is read as a caught error's is (caught-errors.ts): written in place, a function
// or method of the project it names (`catchError(this.handleError)`), or the function a factory
// of the project returns (`catchError(this.handleError("delete", []))`). The error body is
// Angular's `HttpErrorResponse.error`, or the AxiosError's `response.data` of @nestjs/axios.
// A handler the codemod cannot read (given at run time, several definitions), or one handing the
// error or its body to a callee it cannot resolve, is said so: the call keeps its mark.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { observableFlow } from "./observable-flow.ts";
import { caughtBodies, followPath } from "./caught-errors.ts";
import { handedTo, unresolvedProjectCallee, type Hop } from "./handed-on.ts";
import { functionNamed } from "./record-callees.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { declarationScope, referencesOf, skipParens } from "./nodes.ts";
import { unwrapExpression } from "./urls.ts";
import { errorFieldReads } from "./rewrites/error-fields.ts";

/** An error handler on the stream: the name its first parameter binds (absent: it takes none), or why it cannot be read. */
export type StreamHandler = { handler: Node; param?: Node; hops: Hop[] } | { handler: Node; why: string };

/** The error handlers the call's failure reaches, each resolved to the function that runs. */
export function streamErrorHandlers(a: Analysis, http: HttpCall): StreamHandler[] {
  if (!http.observable) return [];
  return observableFlow(http.call, http.observable).errorHandlers.map((h) => resolveHandler(a, h));
}

function resolveHandler(a: Analysis, handler: Node): StreamHandler {
  let h = unwrapExpression(handler);
  // `catchError(this.handleError.bind(this))`: the method itself.
  const callee = Node.isCallExpression(h) ? unwrapExpression(h.getExpression()) : undefined;
  if (callee && Node.isPropertyAccessExpression(callee) && callee.getName() === "bind") h = unwrapExpression(callee.getExpression());
  if (isFunctionLike(h)) return { handler, param: firstParam(h), hops: [] };
  if (Node.isIdentifier(h) || Node.isPropertyAccessExpression(h)) {
    const fn = functionNamed(a, h);
    // `catchError(this.handleError)`: a method entered here (other calls may enter it with other errors).
    if (fn) return { handler, param: firstParam(fn), hops: [{ fn, call: skipParens(handler), arg: skipParens(handler) }] };
    return unread(a, handler, h);
  }
  if (Node.isCallExpression(h)) {
    // `catchError(this.handleError("delete", []))`: the function the factory returns.
    const factory = functionNamed(a, h.getExpression());
    const made = factory && returnedFunction(factory);
    if (made) return { handler, param: firstParam(made), hops: [{ fn: factory, call: skipParens(handler), arg: skipParens(handler) }] };
    if (factory) return { handler, why: `made by ${short(h.getExpression())}, which does not return one function the codemod can read` };
    return unread(a, handler, h.getExpression());
  }
  return unread(a, handler, h);
}

/** A handler that is not the project's function to read: why, when it is the project's (a package's handler reads no v1 body). */
function unread(a: Analysis, handler: Node, callee: Node): StreamHandler {
  const why = unresolvedProjectCallee(a, callee);
  return why ? { handler, why } : { handler, hops: [] };
}

function firstParam(fn: Node): Node | undefined {
  const param = (fn as any).getParameters?.()[0] as Node | undefined;
  return param && Node.isParameterDeclaration(param) ? param.getNameNode() : undefined;
}

/** The one function a factory returns (`return (error) => …`), written in its body. */
function returnedFunction(factory: Node): Node | undefined {
  const body = (factory as any).getBody?.() as Node | undefined;
  if (body && !Node.isBlock(body)) return isFunctionLike(unwrapExpression(body)) ? unwrapExpression(body) : undefined;
  const returns = factory.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === factory);
  const values = returns.map((r) => r.getExpression() && unwrapExpression(r.getExpression()!));
  return values.length === 1 && values[0] && isFunctionLike(values[0]) ? values[0] : undefined;
}

/** The error bodies a handler's parameter (or a caught error) holds: Angular's `.error`, the AxiosError's `response.data`. */
function bodiesOf(a: Analysis, http: HttpCall, holder: Node, add: (body: Node) => void): void {
  if (http.observable === "body") followPath(a, holder, ["error"], add);
  else caughtBodies(a, holder, add);
}

/** The error bodies the stream's handlers read (and, for Angular, a catch around `firstValueFrom(…)`): each with the function it was entered by. */
export function streamFailureBodies(a: Analysis, http: HttpCall, holders: Node[], add: (body: Node, hops: Hop[]) => void): void {
  if (http.observable !== "body" && http.observable !== "response") return;
  for (const h of streamErrorHandlers(a, http)) if ("param" in h && h.param) bodiesOf(a, http, h.param, (n) => add(n, h.hops));
  // Angular's error, awaited through firstValueFrom and caught: its body is `.error` too (axios's `response.data` is error-flow.ts's).
  if (http.observable === "body") for (const holder of holders) bodiesOf(a, http, holder, (n) => add(n, []));
}

/**
 * Where a handler the codemod reads hands the error, or its body, to a callee of the project that
 * cannot be resolved (`(e) => onFailure(e)`, `report(e.error)`, the callee given at run time):
 * what is read of the body there is not known.
 */
export function handedOutOfSight(a: Analysis, http: HttpCall, h: StreamHandler): { call: Node; why: string; what: "error" | "error body" } | undefined {
  if (!("param" in h) || !h.param || (http.observable !== "body" && http.observable !== "response")) return undefined;
  let found: { call: Node; why: string; what: "error" | "error body" } | undefined;
  const hand = (what: "error" | "error body") => (call: Node, why: string) => void (found ??= { call, why, what });
  if (Node.isIdentifier(h.param)) {
    for (const r of referencesOf(declarationScope(h.param), h.param)) {
      const to = handedTo(a, r);
      if (to?.kind === "unfollowed") hand("error")(to.call, to.why);
    }
  }
  bodiesOf(a, http, h.param, (body) => void errorFieldReads(a, body, [], 0, { hops: [], unfollowed: hand("error body") }));
  return found;
}

/** An error handler of a stream whose client's error is not known that reads the error's members an HTTP error body hides under (`e.error`, `e.response`). */
export function readsErrorMembers(h: StreamHandler): Node | undefined {
  if (!("param" in h) || !h.param) return undefined;
  if (Node.isObjectBindingPattern(h.param)) return h.param.getElements().find((e) => ["error", "response"].includes(e.getPropertyNameNode()?.getText() ?? e.getName()));
  if (!Node.isIdentifier(h.param)) return undefined;
  const fn = h.param.getFirstAncestor((n) => isFunctionLike(n));
  for (const r of fn ? referencesOf(fn, h.param) : []) {
    const up = r.getParent();
    if (up && Node.isPropertyAccessExpression(up) && up.getExpression() === r && ["error", "response"].includes(up.getName())) return up;
  }
  return undefined;
}

function short(n: Node): string {
  const t = n.getText().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}…` : t;
}
