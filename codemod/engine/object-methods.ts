// A function held by a plain object (`export const Client = { async rest(method, path, body) {…} }`,
// `rest: async function (…) {…}`, `rest: async (…) => …`), called as `Client.rest(…)` from any
// module or as `this.rest(…)` from a sibling method. By value: the object the receiver holds is
// read by the evaluator, then its property. It is the function every such call runs only while
// nothing writes the object: a property assigned elsewhere (`Client.rest = mock`), the object
// handed to `Object.assign`/`Object.defineProperty`, or written under a computed key, and which
// function runs is not known here.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { isFunctionLike } from "./scope.ts";
import type { Analysis } from "./state.ts";
import { findReferencesAsNodes } from "./find-references.ts";
import { typedOuter } from "./nodes.ts";

/** The function `access` (`Client.rest`, `this.rest`) reads from a plain object literal no code writes. */
export function objectMethod(a: Analysis, access: Node): Node | undefined {
  if (!Node.isPropertyAccessExpression(access)) return undefined;
  const holder = a.evaluator.evaluate(access.getExpression());
  if (holder.kind !== "object" || !Node.isObjectLiteralExpression(holder.node)) return undefined;
  const v = a.evaluator.property(access, holder, access.getName());
  if (v.kind !== "function" || !isFunctionLike(v.node) || Node.isClassDeclaration(v.node)) return undefined;
  return objectWritten(holder.node, access.getName()) ? undefined : v.node;
}

/** Per literal and key: its references are searched once, not once per call through the object. */
const writtenMemo = new WeakMap<Node, Map<string, boolean>>();

/** Whether code outside the literal may change what `obj.key` holds. */
function objectWritten(obj: Node, key: string): boolean {
  const byKey = writtenMemo.get(obj) ?? writtenMemo.set(obj, new Map()).get(obj)!;
  const known = byKey.get(key);
  if (known !== undefined) return known;
  const written = searchWrites(obj, key);
  byKey.set(key, written);
  return written;
}

function searchWrites(obj: Node, key: string): boolean {
  const prop = (obj as any).getProperty?.(key) as Node | undefined;
  const name = prop && ((prop as any).getNameNode?.() as Node | undefined);
  // The property's own uses: `Client.rest = …` (a write, left out of the plain references).
  if (name && refsOf(name).some((r) => isAssignedAccess(r.getParent()))) return true;
  const holder = holderName(obj);
  if (!holder) return false;
  for (const r of refsOf(holder)) {
    const up = r.getParent();
    if (!up) continue;
    // `Client = other` (a `let`), `Client[k] = …`, `Object.assign(Client, …)`.
    if (Node.isBinaryExpression(up) && up.getLeft() === r && up.getOperatorToken().getKind() === SyntaxKind.EqualsToken) return true;
    if (Node.isElementAccessExpression(up) && up.getExpression() === r && isAssignedAccess(up)) return true;
    if (Node.isCallExpression(up) && up.getArguments()[0] === r && /^Object\.(assign|defineProperty|defineProperties|setPrototypeOf)$/.test(up.getExpression().getText().replace(/\s/g, ""))) return true;
    if (Node.isPropertyAccessExpression(up) && up.getExpression() === r && up.getName() === key && isAssignedAccess(up)) return true;
  }
  return false;
}

/** The name of the variable an object literal initialises (through `as const`, `satisfies`, parentheses). */
function holderName(obj: Node): Node | undefined {
  const decl = typedOuter(obj).getParent();
  return decl && Node.isVariableDeclaration(decl) && Node.isIdentifier(decl.getNameNode()) ? decl.getNameNode() : undefined;
}

function refsOf(name: Node): Node[] {
  try {
    return findReferencesAsNodes(name);
  } catch {
    return [];
  }
}

/** `x.k = …`, `x.k += …`, `x[k] = …`: the access is written. */
function isAssignedAccess(access: Node | undefined): boolean {
  if (!access || !(Node.isPropertyAccessExpression(access) || Node.isElementAccessExpression(access))) return false;
  let up = access.getParent();
  let at: Node = access;
  while (up && Node.isParenthesizedExpression(up)) (at = up), (up = up.getParent());
  if (!up || !Node.isBinaryExpression(up) || up.getLeft() !== at) return false;
  const op = up.getOperatorToken().getKind();
  return op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment;
}
