// A fetch Response handed to a function of the project that parses it and returns the body
// (`async function unwrap<T>(res: Response): Promise<T> { if (!res.ok) throw …; return res.json() }`,
// called as `unwrap<Pod[]>(await fetch(…))`): that call is where this site's body is, so the list
// is unwrapped and the record followed there, at this call only (the function's other callers
// keep theirs). A function that only checks the status (or reads the error text) takes nothing
// of the body; one that uses the Response any other way is not followed, and says so.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { argumentCallee, callbackCallee } from "./record-callees.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { classifyRead } from "./response-branch.ts";

/** Response members that say nothing about the body. */
const STATUS = new Set(["ok", "status", "statusText", "headers", "url", "redirected", "type"]);

export type Handed =
  /** The call returns this Response's parsed body. */
  | { kind: "body"; call: Node }
  /** The function reads its status (or error text) only: the body is not its. */
  | { kind: "status"; call: Node }
  /**
   * The function checks the Response (reading its error body on the failure side only) and
   * returns it as it is (`if (res.ok) return res; … throw`): its call is the same Response, read
   * on from there.
   */
  | { kind: "same"; call: Node }
  /** The function uses the Response in a way not followed here: `why` says how, for the mark. */
  | { kind: "unfollowed"; call: Node; why: string };

/** What a project function does with the Response at `value` (an argument of its call); undefined when it is not a project function's argument. */
export function responseHandedTo(a: Analysis, value: Node): Handed | undefined {
  const callee = argumentCallee(a, value);
  if (!callee) return undefined;
  const call = skipParens(value).getParent()!;
  // `if (!res.ok) throw await apiError(res)`: called on the failure branch only, whatever the
  // function reads is the error body (the error pass follows it there), not this site's answer.
  if (classifyRead(call, value) === "error") return { kind: "status", call };
  const use = parsedBodyReturned(callee.fn, callee.param);
  if (use === "none") return { kind: "status", call };
  if (use === "same") return { kind: "same", call };
  return use === "returned" ? { kind: "body", call } : { kind: "unfollowed", call, why: use.why };
}

/** `fetch(…).then(parse)`: the Response handed to a named function of the project as a then callback. */
export function thenHandlerTakes(a: Analysis, thenCall: Node, callback: Node): Handed | undefined {
  const callee = callbackCallee(a, unwrapExpression(callback), 0);
  if (!callee) return undefined;
  const use = parsedBodyReturned(callee.fn, callee.param);
  if (use === "none") return { kind: "status", call: thenCall };
  if (use === "same") return { kind: "same", call: thenCall };
  return use === "returned" ? { kind: "body", call: thenCall } : { kind: "unfollowed", call: thenCall, why: use.why };
}

/**
 * `returned`: every use of the parameter is a status read, the error text, or a `.json()` whose
 * value the function returns and reads no other way (one at least); `same`: status reads, error
 * reads, and the Response itself returned (`return res`); `none`: only status reads and text;
 * else how the function uses it otherwise.
 */
function parsedBodyReturned(fn: Node, param: Node): "returned" | "same" | "none" | { why: string } {
  const name = (param as any).getNameNode?.() as Node | undefined;
  if (!name || !Node.isIdentifier(name)) return { why: "takes it destructured" };
  let returned = false;
  let same = false;
  for (const r of referencesOf(fn, name)) {
    const p = r.getParent();
    if (returnsItself(r, fn)) {
      same = true;
      continue;
    }
    // file:line, as every position in a mark is (a later run finds the mark by it).
    const line = `${r.getSourceFile().getBaseName()}:${r.getStartLineNumber()}`;
    if (!p || !Node.isPropertyAccessExpression(p) || p.getExpression() !== r) return { why: `hands it on (${line})` };
    if (STATUS.has(p.getName())) continue;
    const call = p.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== p) return { why: `reads its ${p.getName()} (${line})` };
    const returns = reachesReturn(call, fn);
    // `throw new Error(await res.text())`: the text of an error, not the body handed back.
    if (p.getName() === "text" && !returns) continue;
    // `if (!res.ok) { const problem = await res.json(); throw … problem.message }`: an error body,
    // whose v1 fields the error pass reads in both shapes (error-flow.ts), not the record.
    if (p.getName() === "json" && !returns && classifyRead(call, r) === "error") continue;
    if (p.getName() !== "json" || !returns) return { why: `reads the body for more than handing it back (${line})` };
    returned = true;
  }
  // (Returning the Response on one path and its parsed body on another: the call's value is either.)
  if (same && returned) return { why: `returns the Response or its body (${fn.getSourceFile().getBaseName()}:${fn.getStartLineNumber()})` };
  return same ? "same" : returned ? "returned" : "none";
}

/** `return res` (as it is, or awaited) in the function itself, not in a callback inside it. */
function returnsItself(ref: Node, fn: Node): boolean {
  let at: Node = ref;
  let up = ref.getParent();
  while (up && (Node.isParenthesizedExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up) || Node.isSatisfiesExpression(up) || Node.isAwaitExpression(up))) {
    at = up;
    up = up.getParent();
  }
  if (!up) return false;
  if (Node.isReturnStatement(up)) return enclosingFunction(up) === fn;
  return Node.isArrowFunction(up) && up === fn && up.getBody() === at;
}

/** `.catch(() => ({}))` (or `null`) on the parsed body: an unparsable body becomes an empty one, the body is still handed back. */
function emptyFallback(access: Node, at: Node): boolean {
  if (!Node.isPropertyAccessExpression(access) || access.getName() !== "catch" || access.getExpression() !== at) return false;
  const call = access.getParent();
  const cb = call && Node.isCallExpression(call) && call.getExpression() === access && call.getArguments().length === 1 ? unwrapExpression(call.getArguments()[0]!) : undefined;
  const body = cb && Node.isArrowFunction(cb) ? unwrapExpression(cb.getBody()) : undefined;
  if (!body) return false;
  return (Node.isObjectLiteralExpression(body) && body.getProperties().length === 0) || body.getKind() === SyntaxKind.NullKeyword || body.getText() === "undefined";
}

/** `return res.json()`, `return (await res.json()) as T`, `const body = await res.json(); … return body`. */
function reachesReturn(value: Node, fn: Node): boolean {
  let up = value.getParent();
  let at: Node = value;
  // (`return res.status === 204 ? null : res.json()`: a branch of what is returned, not its condition.)
  const branch = (n: Node) => Node.isConditionalExpression(n) && n.getCondition() !== at;
  while (up && (Node.isParenthesizedExpression(up) || Node.isAwaitExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up) || Node.isSatisfiesExpression(up) || branch(up) || emptyFallback(up, at))) {
    at = Node.isPropertyAccessExpression(up) ? up.getParent()! : up;
    up = at.getParent();
  }
  if (!up) return false;
  if (Node.isReturnStatement(up)) return enclosingFunction(up) === fn;
  if (Node.isArrowFunction(up)) return up === fn;
  if (Node.isVariableDeclaration(up) && Node.isIdentifier(up.getNameNode()) && enclosingFunction(up) === fn) {
    // Every use is the return: a read of it in the function (`data.message` on an error) is not followed.
    const refs = referencesOf(fn, up.getNameNode());
    return refs.length > 0 && refs.every((r) => {
      const ret = skipParens(r).getParent();
      return !!ret && Node.isReturnStatement(ret) && enclosingFunction(ret) === fn && unwrapExpression(ret.getExpression()!) === r;
    });
  }
  return false;
}
