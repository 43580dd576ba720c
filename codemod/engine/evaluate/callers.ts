// Who calls a function or constructs a class: the evaluator reads a parameter as the arguments of
// every caller, so it needs them all (a use that is not a call, such as a callback, ends the list).
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { references } from "../references.ts";
import { commonJsExports } from "../module-exports.ts";

/** Beyond this many callers a parameter is read as unknown rather than as the union of them all. */
const MAX_CALLERS = 12;

/** The call and `new` expressions of a function or class, when all of its uses are calls (else undefined). */
export function callersOf(fn: Node): Node[] | undefined {
  const owner = Node.isConstructorDeclaration(fn) ? fn.getParent()! : fn;
  let name = (owner as any).getNameNode?.() as Node | undefined;
  const holder = owner.getParent();
  if (!name && holder && Node.isVariableDeclaration(holder)) name = holder.getNameNode();
  if (!name || !Node.isIdentifier(name)) return undefined;
  const out: Node[] = [];
  for (const r of references(name)) {
    const p = r.getParent();
    if (p && (Node.isCallExpression(p) || Node.isNewExpression(p)) && p.getExpression() === r) out.push(p);
    // `new API.Pods(this)`: the class named through a namespace import.
    else if (p && Node.isPropertyAccessExpression(p) && p.getNameNode() === r && Node.isNewExpression(p.getParent()) && (p.getParent() as any).getExpression() === p) out.push(p.getParent()!);
    // `class Runpod extends APIClient`: the subclass constructs this class through its `super(…)`.
    else if (p && Node.isExpressionWithTypeArguments(p) && Node.isClassDeclaration(owner) && extendsClause(p)) {
      const more = subclassCallers(p.getFirstAncestor((x) => Node.isClassDeclaration(x) || Node.isClassExpression(x)));
      if (!more) return undefined;
      out.push(...more);
    }
    // The declaration itself, imports and re-exports of the name, and types written with it are not uses.
    else if (p && (Node.isClassDeclaration(p) || Node.isImportSpecifier(p) || Node.isExportSpecifier(p) || Node.isImportClause(p) || r.getFirstAncestor((x) => Node.isTypeNode(x)))) continue;
    // Exported the CommonJS way (`module.exports = { get }`, `exports.get = get`): its importers' uses are listed too.
    else if (p && commonJsExports(r.getSourceFile()).has(r)) continue;
    else return undefined;
    if (out.length > MAX_CALLERS) return undefined;
  }
  return out;
}

/**
 * The calls that construct a subclass's parent: its constructor's `super(…)` calls, or, for a
 * subclass without a constructor (its arguments go to the parent as they are), its own callers.
 */
function subclassCallers(sub: Node | undefined): Node[] | undefined {
  if (!sub) return undefined;
  const ctor = (sub as any).getConstructors?.()[0] as Node | undefined;
  if (!ctor) return callersOf(sub);
  return ctor.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => c.getExpression().getKind() === SyntaxKind.SuperKeyword);
}

/** `extends X` (not `implements X`). */
function extendsClause(e: Node): boolean {
  const clause = e.getParent();
  return !!clause && Node.isHeritageClause(clause) && clause.getToken() === SyntaxKind.ExtendsKeyword;
}
