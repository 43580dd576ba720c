// A call of a function made from inside it again (a retry: `request(opts, n)` → `retry(opts, n)`
// → `request(opts, n - 1)`), handing on a parameter unchanged: that parameter holds there exactly
// what the function was given by its other callers. The recursion adds no value of its own (the
// evaluator leaves it out of the parameter's callers), and a request made by it is the request of
// the call that entered the function. A call that hands on anything else (another path, options
// rebuilt or written to, a parameter of a function code outside may call) is an ordinary caller.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { identifiersNamed, resolveIdentifier } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import { writtenAt } from "../nodes.ts";
import { references } from "../references.ts";
import { exportedOutward } from "../outside-callers.ts";

/**
 * Whether `call` (a call of `fn`) gives `fn`'s parameter `index` the value `fn` itself was given
 * there: its argument is that parameter, handed on unchanged directly or through functions that
 * only such calls reach.
 */
export function handsOnOwn(call: Node, fn: Node, index: number, seen: Set<Node> = new Set()): boolean {
  if (!Node.isCallExpression(call)) return false;
  const arg = call.getArguments()[index];
  const id = arg && unwrapExpression(arg);
  if (!id || !Node.isIdentifier(id)) return false;
  const b = resolveIdentifier(id);
  if (b?.kind !== "param" || b.path.length || writtenTo(b.fn, b.decl)) return false;
  if (b.fn === fn) return b.index === index;
  // Through another function: every call of it must hand on `fn`'s own value in its turn.
  if (seen.has(b.fn) || exportedOutward(b.fn)) return false;
  seen.add(b.fn);
  const calls = callsOf(b.fn);
  return !!calls?.length && calls.every((c) => handsOnOwn(c, fn, b.index, seen));
}

/** The calls of a function or method (`f(…)`, `this.f(…)`), when those are all its uses. */
export function callsOf(fn: Node): Node[] | undefined {
  const holder = fn.getParent();
  const name = ((fn as any).getNameNode?.() as Node | undefined) ?? (holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined);
  if (!name || !Node.isIdentifier(name)) return undefined;
  const out: Node[] = [];
  for (const r of references(name)) {
    const p = r.getParent();
    if (p && Node.isCallExpression(p) && p.getExpression() === r) out.push(p);
    else if (p && Node.isPropertyAccessExpression(p) && p.getNameNode() === r && p.getExpression().getKind() === SyntaxKind.ThisKeyword && Node.isCallExpression(p.getParent()) && (p.getParent() as any).getExpression() === p) out.push(p.getParent()!);
    else return undefined;
  }
  return out;
}

/** A parameter assigned, or written into (`opts.path = …`, `delete opts.body`), in its function. */
function writtenTo(fn: Node, decl: Node): boolean {
  const name = (decl as any).getNameNode?.() as Node | undefined;
  if (!name || !Node.isIdentifier(name)) return true;
  for (const use of identifiersNamed(fn, name.getText())) {
    if (use === name || resolveIdentifier(use)?.decl !== decl) continue;
    let top: Node = use;
    while (top.getParent() && (Node.isPropertyAccessExpression(top.getParent()) || Node.isElementAccessExpression(top.getParent())) && (top.getParent() as any).getExpression() === top) top = top.getParent()!;
    if (writtenAt(top)) return true;
    const p = top.getParent();
    if (p && Node.isCallExpression(p) && p.getArguments()[0] === top && /^Object\.(assign|defineProperty)$/.test(p.getExpression().getText())) return true;
  }
  return false;
}
