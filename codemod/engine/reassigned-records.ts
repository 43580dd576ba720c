// A `let` holding records that is assigned again (`let pod = await getPod(id); while (…) { pod =
// await getPod(id); }`): each write is a site's record, so the reads of the variable read whichever
// came last. A site's record flow follows the variable's reads (not its writes) and records the
// declaration among the site's type uses and renames; do no harm then checks that every write to it
// is the record of a site that migrates with this one (or null / undefined), else the reads stay v1.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { VariableDeclaration } from "ts-morph";
import type { Site } from "./state.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";

/** `name = value` (a plain assignment to a variable): the variable's declaration. */
export function assignedDeclaration(value: Node): VariableDeclaration | undefined {
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p || !Node.isBinaryExpression(p) || p.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || p.getRight() !== outer) return undefined;
  const left = unwrapExpression(p.getLeft());
  if (!Node.isIdentifier(left)) return undefined;
  const decl = left.getSymbol()?.getDeclarations()[0];
  return decl && Node.isVariableDeclaration(decl) && Node.isIdentifier(decl.getNameNode()) ? decl : undefined;
}

/** The reference is the target of a plain assignment (`pod = …`): it writes the variable, it reads nothing. */
export function isWriteTarget(ref: Node): boolean {
  const p = skipParens(ref).getParent();
  return !!p && Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && unwrapExpression(p.getLeft()) === ref;
}

/** The values written to the variable: its initializer and each assignment's right side. */
export function writtenValues(decl: Node): Node[] {
  if (!Node.isVariableDeclaration(decl)) return [];
  const out: Node[] = [];
  const init = decl.getInitializer();
  if (init) out.push(init);
  for (const r of referencesOf(enclosingFunction(decl), decl.getNameNode())) {
    if (isWriteTarget(r)) out.push((skipParens(r).getParent() as Node & { getRight(): Node }).getRight());
  }
  return out;
}

/** The variable is written more than once (a `let` assigned again): its reads read any write. */
export function reassigned(decl: Node): boolean {
  return writtenValues(decl).length > 1 || (Node.isVariableDeclaration(decl) && !decl.getInitializer() && writtenValues(decl).length > 0);
}

/**
 * A write to a reassigned record variable that no migrating site accounts for: not null or
 * undefined, not a site's record that flows into it (`applying` says which sites migrate), not
 * another variable such a site's record flows through.
 */
export function unheldWrite(decl: Node, sites: Site[], applying: (s: Site) => boolean): Node | undefined {
  const holders = sites.filter((s) => s.typeUses?.has(decl));
  for (const w of writtenValues(decl)) {
    let v = unwrapExpression(w);
    while (Node.isAwaitExpression(v)) v = unwrapExpression(v.getExpression());
    if (Node.isNullLiteral(v) || v.getText() === "undefined") continue;
    const site = holders.find((s) => s.call === v);
    if (site) {
      if (!applying(site)) return w;
      continue;
    }
    // Another variable a holder's record flows through (`let current = pod`).
    const from = Node.isIdentifier(v) ? v.getSymbol()?.getDeclarations()[0] : undefined;
    if (from && holders.some((s) => s.typeUses?.has(from) && applying(s))) continue;
    return w;
  }
  return undefined;
}
