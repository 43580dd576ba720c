// Where an HTTP call's answer goes (the fetch Response, axios's response, the promise of either)
// when the code does not read its body right where it is awaited: returned from a function of the
// project, whose callers read it as they would the call itself (`function pod(id) { return
// api.get(…) }`, then `(await pod(id)).data`), or somewhere the codemod does not follow (returned
// out of the run, stored, handed to another module's code). The body reads found along the way are
// body-sites.ts's; the uses that leave sight are reported here, so such a site is marked, not
// migrated with its reads left in v1 shape.
import { Node } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { callersOf } from "./rewrites/record-flow-facts.ts";
import { responseHandedTo } from "./response-handed.ts";
import type { Analysis } from "./state.ts";

const MAX_DEPTH = 3;

/**
 * The answer at `value` (a call, an awaited call, a reference to it) returned from a function:
 * the calls of that function (they stand for the answer), "escapes" when they cannot all be
 * listed, undefined when it is not returned.
 */
export function returnedTo(value: Node): Node[] | "escapes" | undefined {
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p) return undefined;
  const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : Node.isArrowFunction(p) && p.getBody() === outer ? p : undefined;
  if (!fn) return undefined;
  return callersOf(fn) ?? "escapes";
}

/** The answer's own value where `node` (the call, or a caller of the function returning it) is used: through `await`. */
function answerValue(node: Node): Node {
  const outer = skipParens(node);
  const p = outer.getParent();
  return p && Node.isAwaitExpression(p) ? skipParens(p) : outer;
}

/**
 * The first place the answer of `call` goes that the codemod does not follow, or undefined. Member
 * reads (`.data`, `.json()`, `.ok`, `.then(…)`) are where body-sites.ts looks; discarding it,
 * testing it, or destructuring it take nothing away.
 */
export function answerLeaves(a: Analysis, call: Node, fetchLike: boolean, depth = 0): Node | undefined {
  const value = answerValue(call);
  return useLeaves(a, value, fetchLike, depth);
}

function useLeaves(a: Analysis, value: Node, fetchLike: boolean, depth: number): Node | undefined {
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p || Node.isExpressionStatement(p) || Node.isVoidExpression(p)) return undefined;
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) return thenLeaves(a, p, fetchLike, depth);
  if (Node.isIfStatement(p) || Node.isPrefixUnaryExpression(p) || (Node.isBinaryExpression(p) && ["===", "!==", "==", "!="].includes(p.getOperatorToken().getText()))) return undefined;
  const to = returnedTo(outer);
  if (to === "escapes" || (to && depth >= MAX_DEPTH)) return outer;
  if (to) {
    for (const c of to) {
      const at = answerLeaves(a, c, fetchLike, depth + 1);
      if (at) return at;
    }
    return undefined;
  }
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
    const name = p.getNameNode();
    if (!Node.isIdentifier(name)) return undefined;
    for (const r of referencesOf(enclosingFunction(p), name)) {
      const at = useLeaves(a, r, fetchLike, depth);
      if (at) return at;
    }
    return undefined;
  }
  // A fetch Response handed to a function of the project: body-sites.ts follows it (or marks it).
  if (fetchLike && Node.isCallExpression(p) && responseHandedTo(a, outer)) return undefined;
  return outer;
}

/** `.then((r) => …)` on the answer's promise: the callback's parameter is the answer. */
function thenLeaves(a: Analysis, access: Node & { getName(): string; getParent(): Node | undefined }, fetchLike: boolean, depth: number): Node | undefined {
  // An observable's `.pipe(…)` or `.subscribe(…)`: the answer goes on through operators, or into a
  // callback, where its reads are not followed.
  if (["pipe", "subscribe"].includes(access.getName()) && Node.isCallExpression(access.getParent())) return access.getParent();
  if (access.getName() !== "then") return undefined;
  const call = access.getParent();
  const cb = call && Node.isCallExpression(call) ? call.getArguments()[0] : undefined;
  if (!cb || !(Node.isArrowFunction(cb) || Node.isFunctionExpression(cb))) return cb;
  const name = cb.getParameters()[0]?.getNameNode();
  if (!name || !Node.isIdentifier(name)) return undefined;
  for (const r of referencesOf(cb, name)) {
    const at = useLeaves(a, r, fetchLike, depth);
    if (at) return at;
  }
  return undefined;
}
