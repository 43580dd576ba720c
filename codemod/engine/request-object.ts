// A `Request` made from a URL and an init and then fetched (`fetch(new Request(url, init))`,
// `const req = new Request(…); fetch(req)`, a function of the project that builds it for this
// send) is the call `fetch(url, init)`: its URL, method and body are read, and rewritten, where
// the Request is made. Followed only through what serves this send alone (a const used nowhere
// else, a function nothing else calls), so an edit there changes no other request.
import { Node } from "../ts-morph.ts";
import type { NewExpression } from "ts-morph";
import type { Analysis } from "./state.ts";
import { bind, returnedExpressions } from "./values.ts";
import { isFunctionLike } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { exported, usedOnlyHere } from "./body-origin.ts";

const MAX_DEPTH = 6;

export interface MadeRequest {
  request: NewExpression;
  url: Node;
  init?: Node;
}

/** The `new Request(url, init)` a fetched value is, followed through what serves only this send; else undefined. */
export function madeRequest(a: Analysis, node: Node | undefined, depth = 0): MadeRequest | undefined {
  if (!node || depth > MAX_DEPTH) return undefined;
  const n = unwrapExpression(Node.isAwaitExpression(unwrapExpression(node)) ? (unwrapExpression(node) as any).getExpression() : node);
  if (Node.isNewExpression(n)) return requestOf(a, n);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind !== "var" || b.path.length || !b.init || !Node.isVariableDeclaration(b.decl) || !usedOnlyHere(b.decl, n)) return undefined;
    return madeRequest(a, b.init, depth + 1);
  }
  if (Node.isCallExpression(n)) {
    const callee = a.evaluator.evaluate(n.getExpression());
    const fn = callee.kind === "function" ? callee.node : undefined;
    if (!fn || !isFunctionLike(fn) || Node.isConstructorDeclaration(fn) || (fn as any).isGenerator?.() || (fn as any).isAsync?.()) return undefined;
    const callers = a.evaluator.callers(fn);
    if (!callers || callers.length !== 1 || callers[0] !== n || exported(fn)) return undefined;
    const returns = returnedExpressions(fn);
    return returns.length === 1 ? madeRequest(a, returns[0], depth + 1) : undefined;
  }
  return undefined;
}

/** `new Request(url, init?)` of the global Request, made from a URL (not from another Request, which carries its own init). */
function requestOf(a: Analysis, n: NewExpression): MadeRequest | undefined {
  const ctor = unwrapExpression(n.getExpression());
  const global = Node.isIdentifier(ctor) ? ctor.getText() === "Request" && !bind(a, ctor) : Node.isPropertyAccessExpression(ctor) && /^(globalThis|window|self)\.Request$/.test(ctor.getText());
  const [url, init, ...more] = n.getArguments();
  if (!global || !url || more.length || Node.isSpreadElement(url) || (init && Node.isSpreadElement(init))) return undefined;
  if (madeRequest(a, url) || isRequestTyped(url)) return undefined;
  return { request: n, url, init };
}

/** A value the compiler types as a Request (`new Request(req, init)` copies that request: not followed). */
function isRequestTyped(node: Node): boolean {
  try {
    return node.getType().getSymbol()?.getName() === "Request";
  } catch {
    return false;
  }
}
