// Where a status kept in an object goes: `return { ok: res.ok, status: res.status, data }`,
// `err({ kind: "decode", status: res.status })` (a project function putting its argument at a key
// of what it returns, `err = (error) => ({ ok: false, error })`), through variables and returns of
// the project, to the reads of that member (`r.status`, `r.error.status`), each then a status read
// like `res.status` itself (status-checks.ts). Reads of the object's other members take nothing of
// it; where the object goes out of sight the answer says where.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import { functionNamed } from "./record-callees.ts";
import { shownAsText } from "./display-sinks.ts";
import { unwrapExpression } from "./urls.ts";

export type HeldStatus = { reads: Node[] } | { gone: Node; why: string };

const MAX_DEPTH = 8;
const TESTS = new Set(["===", "!==", "==", "!=", "&&", "||", "??"]);

/**
 * The reads of the status that `value` holds at `path` (keys, outermost first). `own` is the call
 * whose answer this is: out of a helper that serves other calls too, the status returns to it alone.
 */
export function heldStatusReads(a: Analysis, value: Node, path: string[], own?: Node): HeldStatus {
  const reads: Node[] = [];
  const gone = follow({ a, own }, value, path, 0, reads);
  return gone ?? { reads };
}

interface Ctx {
  a: Analysis;
  own?: Node;
}

function follow(ctx: Ctx, value: Node, path: string[], depth: number, reads: Node[]): { gone: Node; why: string } | undefined {
  const outer = skipParens(value);
  if (!path.length) return void reads.push(outer);
  if (depth > MAX_DEPTH) return { gone: outer, why: "goes further than the codemod follows" };
  const p = outer.getParent();
  if (!p || Node.isExpressionStatement(p) || shownAsText(outer)) return undefined;
  // One branch of `cond ? a : b`, or a side of `a ?? b`: the whole expression's value may be it.
  if (Node.isConditionalExpression(p) && p.getCondition() !== outer) return follow(ctx, p, path, depth, reads);
  if (Node.isAwaitExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p) || Node.isSatisfiesExpression(p)) return follow(ctx, p, path, depth, reads);
  // Inside a bigger object literal: the status sits one key deeper.
  if ((Node.isPropertyAssignment(p) && p.getInitializer() === outer) || (Node.isShorthandPropertyAssignment(p) && p.getNameNode() === outer)) {
    const obj = p.getParent();
    return obj ? follow(ctx, obj, [p.getName(), ...path], depth + 1, reads) : undefined;
  }
  // A member read: the one holding the status goes on, any other takes nothing of it.
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) return p.getName() === path[0] ? follow(ctx, p, path.slice(1), depth + 1, reads) : undefined;
  // Tested as a whole (`if (!r)`, `r && …`, `!r.ok` is a member read above).
  if (Node.isIfStatement(p) || Node.isPrefixUnaryExpression(p) || (Node.isBinaryExpression(p) && TESTS.has(p.getOperatorToken().getText()) && p.getRight() !== outer)) return undefined;
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
    const name = p.getNameNode();
    if (!Node.isIdentifier(name)) return { gone: p, why: "is taken apart" };
    for (const r of referencesOf(enclosingFunction(p), name)) {
      const w = skipParens(r).getParent();
      if (w && Node.isBinaryExpression(w) && w.getLeft() === skipParens(r) && w.getOperatorToken().getText() === "=") continue;
      const g = follow(ctx, r, path, depth + 1, reads);
      if (g) return g;
    }
    return undefined;
  }
  if (Node.isCallExpression(p) && p.getArguments().includes(outer as never)) return handed(ctx, p, outer, path, depth, reads);
  let to = returnedTo(outer);
  if (Array.isArray(to) && ctx.own && to.includes(ctx.own)) to = [ctx.own];
  if (to === "escapes") return { gone: outer, why: "is returned to callers the codemod cannot list" };
  if (to) {
    for (const c of to) {
      const g = follow(ctx, c, path, depth + 1, reads);
      if (g) return g;
    }
    return undefined;
  }
  return { gone: outer, why: "is kept" };
}

/**
 * The object handed to a project function: a constructor of results (`err(e)` returning `{ ok:
 * false, error: e }`) puts it at one key of its answer, followed from the call; otherwise it is
 * followed where the function reads its parameter.
 */
function handed(ctx: Ctx, call: Node & { getArguments(): Node[]; getExpression(): Node }, arg: Node, path: string[], depth: number, reads: Node[]): { gone: Node; why: string } | undefined {
  const callee = call.getExpression();
  const fn = functionNamed(ctx.a, callee);
  const index = call.getArguments().indexOf(arg);
  const param = fn ? ((fn as any).getParameters?.() as Node[] | undefined)?.[index] : undefined;
  const name = param && Node.isParameterDeclaration(param) && !param.isRestParameter() ? param.getNameNode() : undefined;
  if (!fn || !name || !Node.isIdentifier(name)) return { gone: call, why: `is handed to ${callee.getText()}` };
  const key = keyOfParam(fn, name.getText());
  if (key) return follow(ctx, call, [key, ...path], depth + 1, reads);
  for (const r of referencesOf(fn, name)) {
    const g = follow(ctx, r, path, depth + 1, reads);
    if (g) return g;
  }
  return undefined;
}

/** The one key every return of `fn` puts its parameter `name` at (`({ ok: false, error })`), when it only returns such objects. */
function keyOfParam(fn: Node, name: string): string | undefined {
  const body = (fn as any).getBody?.() as Node | undefined;
  if (!body) return undefined;
  const returned: Node[] = !Node.isBlock(body) ? [body] : body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn).flatMap((r) => { const e = r.getExpression(); return e ? [e as Node] : []; });
  if (!returned.length) return undefined;
  const keys = returned.map((e) => {
    const obj = unwrapExpression(e);
    if (!Node.isObjectLiteralExpression(obj)) return undefined;
    const at = obj.getProperties().filter((p) => (Node.isShorthandPropertyAssignment(p) && p.getName() === name) || (Node.isPropertyAssignment(p) && unwrapExpression(p.getInitializer()!).getText() === name));
    return at.length === 1 ? (at[0] as any).getName() as string : undefined;
  });
  if (!keys.every((k) => k && k === keys[0])) return undefined;
  // Used nowhere else in the function (logged, compared, stored): only what it returns carries it.
  const uses = body.getDescendantsOfKind(SyntaxKind.Identifier).filter((i) => i.getText() === name && !Node.isParameterDeclaration(i.getParent()));
  return uses.every((u) => returned.some((e) => u.getFirstAncestor((x) => x === e))) ? keys[0] : undefined;
}
