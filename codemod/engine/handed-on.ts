// An error body (or the response it is parsed from) leaving the code beside its call: handed to
// a function or class of the project (`fail(op, statusCode, body)`, `new ApiError(res.status,
// body)`), or to a promise callback (`res.json().then(function (e) { throw new Error(e.message) })`).
// Each is followed to the parameter that takes it. The call it went through is kept (a hop): a
// function that other code calls too reads other APIs' errors as well, so its reads keep v1's
// field beside v2's (error-reads.ts). A callee of the project that cannot be resolved (a
// parameter, a method with several bodies) is said so, with why: the read there is not known.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { argumentCallee, constructorOf, declarationsNamed } from "./record-callees.ts";
import { handlerParam } from "./caught-errors.ts";
import { functionName, references } from "./references.ts";
import { namedOutsideRun } from "./project-reads.ts";
import { isFunctionLike, resolveIdentifier } from "./scope.ts";
import { skipParens } from "./nodes.ts";
import { unwrapExpression } from "./urls.ts";

/** The function (or constructor) a value was handed to, at that call. */
export interface Hop {
  fn: Node;
  call: Node;
  /** The argument as written (`(await body.json()) as { message?: string }`). */
  arg: Node;
}

export type HandedTo =
  /** `name`: the parameter's name (an identifier or a binding pattern). */
  | { kind: "param"; name: Node; hop: Hop }
  /** A callee of the project the codemod cannot resolve to one body. */
  | { kind: "unfollowed"; call: Node; why: string };

/** What takes `value` when it is an argument of a call or a `new` expression; undefined when nothing of the project does. */
export function handedTo(a: Analysis, value: Node): HandedTo | undefined {
  const outer = skipParens(value);
  const call = outer.getParent();
  if (!call || !(Node.isCallExpression(call) || Node.isNewExpression(call))) return undefined;
  const index = call.getArguments().indexOf(outer as any);
  if (index < 0) return undefined;
  if (Node.isCallExpression(call)) {
    const callee = argumentCallee(a, outer);
    const name = callee && (callee.param as any).getNameNode?.();
    if (callee && name) return { kind: "param", name, hop: { fn: callee.fn, call, arg: outer } };
  } else {
    const ctor = constructorOf(a, call.getExpression());
    const param = ctor?.getParameters()[index];
    if (ctor && param) return { kind: "param", name: param.getNameNode(), hop: { fn: ctor, call, arg: outer } };
    if (ctor) return undefined;
  }
  const why = unresolvedProjectCallee(a, call.getExpression());
  return why ? { kind: "unfollowed", call, why } : undefined;
}

/**
 * Why a callee is the project's and still not followed, or undefined when it is not the
 * project's (a global, a package's function, a class without its own constructor).
 */
export function unresolvedProjectCallee(a: Analysis, callee: Node): string | undefined {
  const text = short(callee);
  const direct = unwrapExpression(callee);
  // `onError(body)`, `callback(body)`, `reject(body)`: a function given as a parameter (a method of
  // a parameter, `reply.send(body)`, is a framework's object more often than the project's).
  if (Node.isIdentifier(direct) && resolveIdentifier(direct)?.kind === "param") return `${text}, a function given at run time`;
  const inRun = declarationsNamed(callee).filter((d) => a.files.has(d.getSourceFile().getFilePath()) && !d.getSourceFile().isDeclarationFile());
  if (inRun.length > 1) return `${text}, which has ${inRun.length} definitions`;
  if (inRun.length === 1 && !Node.isClassDeclaration(inRun[0]!)) return `${text}, not a function the codemod can read`;
  // `handlers[kind](body)` on the project's own table.
  if (Node.isElementAccessExpression(direct) && declarationsNamed(direct.getExpression()).some((d) => a.files.has(d.getSourceFile().getFilePath()) && !d.getSourceFile().isDeclarationFile())) return `${text}, chosen at run time`;
  return undefined;
}

/**
 * The values of a body promise (`res.json()`, undici's `body.json()`): `await p` and the first
 * parameter of `p.then(cb)` (a function, an arrow or a named function), through `.catch(…)` /
 * `.finally(…)`. `unfollowed` hears of a callback that is not the project's function it can read.
 */
export function promiseValues(a: Analysis, promise: Node, unfollowed: (call: Node, why: string) => void = () => {}): { value: Node; hops: Hop[] }[] {
  let p = skipParens(promise);
  for (let up = p.getParent(); up && Node.isPropertyAccessExpression(up) && (up.getName() === "catch" || up.getName() === "finally") && Node.isCallExpression(up.getParent()); up = p.getParent()) p = skipParens(up.getParent()!);
  const up = p.getParent();
  if (up && Node.isAwaitExpression(up)) return [{ value: up, hops: [] }];
  const thenCall = up && Node.isPropertyAccessExpression(up) && up.getName() === "then" ? up.getParent() : undefined;
  const cb = thenCall && Node.isCallExpression(thenCall) ? thenCall.getArguments()[0] : undefined;
  if (!cb || cb.getKind() === SyntaxKind.NullKeyword || cb.getText() === "undefined") return [];
  const param = handlerParam(a, cb);
  // `.then(raise)`: a named function, entered here (its other entries may hand it other errors).
  const fn = param && !isFunctionLike(unwrapExpression(cb)) ? param.getFirstAncestor((n) => isFunctionLike(n)) : undefined;
  if (param) return [{ value: param, hops: fn ? [{ fn, call: skipParens(cb), arg: p }] : [] }];
  const why = unresolvedProjectCallee(a, cb);
  if (why) unfollowed(thenCall!, `the callback ${why}`);
  return [];
}

const entriesCache = new WeakMap<Node, Node[]>();

/** The name a function is entered by: its own, its holder's, its class's for a constructor. */
function nameOf(fn: Node): Node | undefined {
  const holder = fn.getParent();
  if (Node.isConstructorDeclaration(fn)) return (holder as any)?.getNameNode?.() as Node | undefined;
  return functionName(fn) ?? (holder && Node.isPropertyAssignment(holder) ? holder.getNameNode() : undefined);
}

/**
 * Where a function is entered in the run: its calls (`fail(…)`), the `new` expressions of a
 * constructor's class, and its name handed on as a callback (`.then(raise)`: the reference).
 */
export function entriesOf(a: Analysis, fn: Node): Node[] {
  const cached = entriesCache.get(fn);
  if (cached) return cached;
  const name = nameOf(fn);
  const out: Node[] = [];
  for (const r of name ? references(name) : []) {
    if (!a.files.has(r.getSourceFile().getFilePath())) continue;
    const ref = skipParens(r);
    const p = ref.getParent();
    if (!p || !(Node.isCallExpression(p) || Node.isNewExpression(p))) continue;
    if (p.getExpression() === ref) {
      if (Node.isNewExpression(p) === Node.isConstructorDeclaration(fn)) out.push(p);
    } else if (p.getArguments().includes(ref as any)) out.push(ref);
  }
  entriesCache.set(fn, out);
  return out;
}

/**
 * Whether a function the error bodies were handed to (through the entries in `reached`) is
 * entered by other code as well: a call of it, or a callback use, in the run that no planned
 * call's failure came through, or a project file outside the run naming it (a module importing
 * the shared helper that no v1 code imports). Such a function reads other APIs' errors too.
 */
export function calledByOthers(a: Analysis, fn: Node, reached: Set<Node> | undefined): boolean {
  if (entriesOf(a, fn).some((c) => !reached?.has(c))) return true;
  const name = nameOf(fn);
  return !!name && !!namedOutsideRun(a, name.getText(), fn.getSourceFile().getFilePath());
}

function short(n: Node): string {
  const t = n.getText().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}…` : t;
}
