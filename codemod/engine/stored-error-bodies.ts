// An error body stored on what a failed call throws or returns: a field of an error object
// (`new ApiError(res.status, body)` with `public body`, or `this.body = body` in its constructor),
// an object literal (`throw { status, body }`, `return { ok: false, error: { body } }`),
// `Object.assign(new Error(…), { body })`, `err.body = body; throw err`. The holder is followed by
// value from where the body is stored, with the path of fields the body sits under, to a throw
// (whose catches the caller follows down that path: `e.body?.message`) or to where the path is
// read back (`r.error.body.message` on a returned result). Where the holder goes out of sight (a
// callee that cannot be resolved, a field of `this` kept for later), it is said so: what is read
// there is not known.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { declarationScope, isDeclarationName, referencesOf, skipParens } from "./nodes.ts";
import { enclosingFunction, isFunctionLike, resolveIdentifier } from "./scope.ts";
import { handedTo, type Hop } from "./handed-on.ts";
import { constructorOf } from "./record-callees.ts";
import { callersOf } from "./caught-errors.ts";
import { unwrapExpression } from "./urls.ts";

/** A holder of the body thrown (`throw holder`, `Promise.reject(holder)`, `reject(holder)`), the body under `path` in it. */
export interface StoredThrow {
  thrown: Node;
  path: string[];
  hops: Hop[];
}

export interface HolderTrail {
  thrown: (t: StoredThrow) => void;
  /** The body read back out of its holder (`r.error.body`): its reads are the body's. */
  body: (node: Node, hops: Hop[]) => void;
  lost: (node: Node, why: string) => void;
  /** Whether a holder returned is followed to its function's callers: only where it is made on the error side (a success answer's own fields are not error reads). */
  returns: boolean;
}

const MAX_DEPTH = 12;

/** The key an object literal's member stores its value under, or undefined (a computed or spread member). */
function memberKey(member: Node): string | undefined {
  if (Node.isShorthandPropertyAssignment(member)) return member.getName();
  if (!Node.isPropertyAssignment(member)) return undefined;
  const name = member.getNameNode();
  return Node.isIdentifier(name) || Node.isStringLiteral(name) ? (Node.isStringLiteral(name) ? name.getLiteralValue() : name.getText()) : undefined;
}

/**
 * Where a value is stored on an object: `{ body }` / `{ body: v }` (the object literal), `x.body = v`
 * (x's declaration), `this.body = v` in the constructor it was handed to (the `new` expression),
 * a constructor's parameter property (`new ApiError(status, v)`). Undefined when it is not stored.
 */
export interface Stored {
  holder: Node;
  field: string;
  hops: Hop[];
  /** `this.body = body` outside a constructor the body was handed to: kept on the object for later (the holder is the assignment). */
  kept?: boolean;
}

export function storedAt(a: Analysis, value: Node, hops: Hop[]): Stored | undefined {
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p) return undefined;
  if ((Node.isShorthandPropertyAssignment(p) && p.getNameNode() === outer) || (Node.isPropertyAssignment(p) && p.getInitializer() === outer)) {
    const field = memberKey(p);
    const literal = p.getParent();
    return field && literal && Node.isObjectLiteralExpression(literal) ? { holder: literal, field, hops } : undefined;
  }
  if (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && p.getRight() === outer) {
    const left = unwrapExpression(p.getLeft());
    if (!Node.isPropertyAccessExpression(left)) return undefined;
    const target = unwrapExpression(left.getExpression());
    if (target.getKind() === SyntaxKind.ThisKeyword) {
      // `this.body = body` in the constructor the body was handed to: the instance is the `new` expression.
      const ctor = enclosingFunction(p);
      const hop = Node.isConstructorDeclaration(ctor) ? [...hops].reverse().find((h) => h.fn === ctor) : undefined;
      return hop ? { holder: hop.call, field: left.getName(), hops } : { holder: p, field: left.getName(), hops, kept: true };
    }
    const decl = Node.isIdentifier(target) ? declarationName(target) : undefined;
    return decl ? { holder: decl, field: left.getName(), hops } : undefined;
  }
  if (Node.isNewExpression(p)) {
    const index = p.getArguments().indexOf(outer as any);
    const ctor = index >= 0 ? constructorOf(a, p.getExpression()) : undefined;
    const param = ctor?.getParameters()[index];
    if (ctor && param?.isParameterProperty()) return { holder: p, field: param.getName(), hops: [...hops, { fn: ctor, call: p, arg: outer }] };
  }
  return undefined;
}

/** The declared name an identifier resolves to (a variable or a parameter), in its own function. */
export function declarationName(id: Node): Node | undefined {
  const b = resolveIdentifier(id);
  if (!b || (b.kind !== "var" && b.kind !== "param") || b.path.length) return undefined;
  const name = (b.decl as any).getNameNode?.() as Node | undefined;
  return name && Node.isIdentifier(name) ? name : undefined;
}

/** Follows a holder (the body under `path` in it) to where it is thrown, or read back down the path. */
export function followHolder(a: Analysis, holder: Node, path: string[], hops: Hop[], trail: HolderTrail, depth = 0, seen = new Set<string>()): void {
  const key = `${holder.getSourceFile().getFilePath()}:${holder.getStart()}:${holder.getKind()}:${path.join(".")}`;
  if (depth > MAX_DEPTH || seen.has(key)) return;
  seen.add(key);
  const next = (n: Node, rest = path, h = hops) => followHolder(a, n, rest, h, trail, depth + 1, seen);
  if (Node.isIdentifier(holder) && isDeclarationName(holder)) {
    for (const r of referencesOf(declarationScope(holder), holder)) next(r);
    return;
  }
  if (!path.length) return trail.body(holder, hops);
  const outer = skipParens(holder);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    if (p.getName() === path[0]) next(p, path.slice(1));
    return;
  }
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
    const name = p.getNameNode();
    if (Node.isIdentifier(name)) return next(name);
    if (Node.isObjectBindingPattern(name)) for (const el of name.getElements()) if ((el.getPropertyNameNode()?.getText() ?? el.getName()) === path[0]) next(el.getNameNode(), path.slice(1));
    return;
  }
  if (Node.isThrowStatement(p)) return trail.thrown({ thrown: p, path, hops });
  if (Node.isAwaitExpression(p) || (Node.isConditionalExpression(p) && p.getCondition() !== outer)) return next(p);
  if (Node.isBinaryExpression(p)) {
    const op = p.getOperatorToken().getKind();
    const left = p.getLeft() === outer;
    if (((op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) && left) || (op === SyntaxKind.AmpersandAmpersandToken && !left)) return next(p);
  }
  const stored = storedAt(a, outer, hops);
  if (stored) {
    // A field of `this` outside a constructor that made it: kept for later, where its reads are not followed.
    if (stored.kept) return trail.lost(stored.holder, `this.${stored.field}, kept on the object for later`);
    next(stored.holder, [stored.field, ...path], stored.hops);
    if (!Node.isNewExpression(p)) return;
  }
  if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) return trail.returns ? returned(a, p, next) : undefined;
  if (Node.isCallExpression(p) || Node.isNewExpression(p)) {
    const index = p.getArguments().indexOf(outer as any);
    if (index < 0) return;
    const callee = unwrapExpression(p.getExpression()).getText();
    if (Node.isCallExpression(p) && (callee === "Promise.reject" || isRejectOfPromise(p))) return trail.thrown({ thrown: p, path, hops });
    // `Object.assign(new Error(msg), { status, body })` is its first argument, with the others' fields.
    if (Node.isCallExpression(p) && callee === "Object.assign") return next(p);
    const to = handedTo(a, outer);
    if (to?.kind === "param") next(to.name, path, [...hops, to.hop]);
    else if (to) trail.lost(to.call, to.why);
  }
}

/**
 * A holder returned by a function: the calls of the function in the run take it (`throw
 * toError(…)`, `const r = await send(…)`). One with no call in the run answers code outside it,
 * as a body returned whole does (`if (!res.ok) return await res.json()`): not followed, not marked.
 */
function returned(a: Analysis, at: Node, next: (n: Node) => void): void {
  const fn = Node.isArrowFunction(at) ? at : at.getFirstAncestor((n) => isFunctionLike(n));
  for (const c of fn ? callersOf(a, fn) : []) next(c);
}

/** `reject(err)` where `reject` is the second parameter of a `new Promise((resolve, reject) => …)` executor. */
function isRejectOfPromise(call: Node): boolean {
  if (!Node.isCallExpression(call)) return false;
  const callee = unwrapExpression(call.getExpression());
  const b = Node.isIdentifier(callee) ? resolveIdentifier(callee) : undefined;
  if (b?.kind !== "param" || b.index !== 1) return false;
  const executor = b.fn.getParent();
  return !!executor && Node.isNewExpression(executor) && executor.getExpression().getText() === "Promise";
}
