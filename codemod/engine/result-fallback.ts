// A request helper's result promise chained on before it is awaited: `helper(…).catch(() => ({ ok: false, data: null }))`
// or `.finally(…)`. The chain answers the helper's result, or (`.catch`) what its handler answers on failure. The body reads
// after it are converted as v2 reads of the body, so the chain passes the result on only where the handler's answer holds
// no body at the result's place: `null` / `undefined` there, no such key, nothing answered, or a rethrow.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";

export type ResultPlace = { key?: string; index?: number };

/**
 * The `.catch(f)` / `.finally(f)` call made on `promise`, when it answers the same result with no body of the handler's
 * own; `"own body"` where the handler may answer one (or cannot be read); undefined where `promise` is not chained so.
 */
export function chainedFallback(promise: Node, place: ResultPlace): Node | "own body" | undefined {
  const access = promise.getParent();
  if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== promise) return undefined;
  const call = access.getParent();
  if (!call || !Node.isCallExpression(call) || call.getExpression() !== access) return undefined;
  const name = access.getName();
  if (name === "finally") return call;
  if (name !== "catch") return undefined;
  const handler = call.getArguments()[0];
  if (!handler || call.getArguments().length > 1) return "own body";
  const fn = unwrapExpression(handler);
  if (!Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn)) return "own body";
  return answers(fn).every((a) => a === undefined || noBodyAt(unwrapExpression(a), place)) ? call : "own body";
}

/** What a function answers: its expression body, or each `return` of its own (undefined for a bare `return`). */
function answers(fn: Node): (Node | undefined)[] {
  const body = (fn as any).getBody() as Node;
  if (!Node.isBlock(body)) return [body];
  return body
    .getDescendantsOfKind(SyntaxKind.ReturnStatement)
    .filter((r) => enclosingFunction(r) === fn)
    .map((r) => r.getExpression());
}

function isEmpty(n: Node): boolean {
  const v = unwrapExpression(n);
  return Node.isNullLiteral(v) || (Node.isIdentifier(v) && v.getText() === "undefined") || Node.isVoidExpression(v);
}

/** The answer holds no body at the place: empty itself, or a literal whose place is missing or empty. */
function noBodyAt(answer: Node, place: ResultPlace): boolean {
  if (isEmpty(answer)) return true;
  if (place.key !== undefined && Node.isObjectLiteralExpression(answer)) {
    return answer.getProperties().every((p) => {
      if (Node.isSpreadAssignment(p)) return false;
      if (!Node.isPropertyAssignment(p)) return (p as any).getName?.() !== place.key;
      const key = p.getNameNode();
      const name = Node.isIdentifier(key) || Node.isStringLiteral(key) ? (Node.isIdentifier(key) ? key.getText() : key.getLiteralValue()) : undefined;
      if (name === undefined) return false;
      return name !== place.key || isEmpty(p.getInitializerOrThrow());
    });
  }
  if (place.index !== undefined && Node.isArrayLiteralExpression(answer)) {
    const els = answer.getElements();
    if (els.some((e) => Node.isSpreadElement(e))) return false;
    const at = els[place.index];
    return !at || Node.isOmittedExpression(at) || isEmpty(at);
  }
  return false;
}

/**
 * `await helper(…).catch((e) => ({ error: e.message }))`: the awaited value is the answer, or an object of the code's own
 * on failure. Returns the `.catch` chain when one of its handlers (a function written there) may answer an object with
 * fields of its own (an object literal with members), so conversions go on the answer before it and reads of the value
 * also read the code's own object. Any other fallback (`() => ({})`, `() => []`, `() => null`) reads as before.
 */
export function ownFallbackChain(value: Node): Node | undefined {
  const awaited = unwrapExpression(value);
  if (!Node.isAwaitExpression(awaited)) return undefined;
  const chain = unwrapExpression(awaited.getExpression());
  let own = false;
  for (let at: Node = chain; Node.isCallExpression(at); ) {
    const callee = at.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "catch") break;
    const handler = at.getArguments()[0] && unwrapExpression(at.getArguments()[0]!);
    if (handler && (Node.isArrowFunction(handler) || Node.isFunctionExpression(handler))) own ||= answers(handler).some((a) => !!a && holdsFields(unwrapExpression(a)));
    at = unwrapExpression(callee.getExpression());
  }
  return own ? chain : undefined;
}

/** An answer that carries fields of its own: an object literal with members (`{ error: e.message }`). */
function holdsFields(answer: Node): boolean {
  return Node.isObjectLiteralExpression(answer) && answer.getProperties().length > 0;
}
