// The uses of a declaration across the project, through the compiler's find-references: alias
// declarations (imports, re-exports) and writes are left out, a member use is its property access.
import { findReferencesAsNodes } from "./find-references.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { importerUses } from "./module-exports.ts";

export function references(nameNode: Node): Node[] {
  let refs: Node[];
  try {
    refs = findReferencesAsNodes(nameNode);
  } catch {
    return [];
  }
  const out: Node[] = [];
  for (const r of refs) {
    if (r === nameNode) continue;
    // A JSDoc `@param name` names the parameter; it is not a use of its value. Nor is a type's
    // member (`interface Cfg { baseUrl: string }` declares the property a value is read by).
    if (r.getFirstAncestor((x) => Node.isJSDoc(x))) continue;
    if (r.getParent() && (Node.isPropertySignature(r.getParent()!) || Node.isPropertyAssignment(r.getParent()!)) && (r.getParent() as any).getNameNode() === r) continue;
    const p = r.getParent();
    // `const request = require("./http")`: the compiler's CommonJS alias, not a use (its reads are listed).
    if (Node.isVariableDeclaration(r)) continue;
    // Alias declarations: the compiler already follows them to the names' uses.
    if (r.getFirstAncestor((x) => Node.isImportDeclaration(x) || Node.isExportDeclaration(x)) || Node.isImportDeclaration(r) || Node.isExportDeclaration(r)) continue;
    if (p && (Node.isImportSpecifier(p) || Node.isExportSpecifier(p) || Node.isImportClause(p) || Node.isNamespaceImport(p) || Node.isExportAssignment(p) || Node.isImportEqualsDeclaration(p))) continue;
    // Writes are not uses of the value.
    if (p && Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && p.getLeft() === r) continue;
    if (p && Node.isPropertyAccessExpression(p) && p.getNameNode() === r) {
      const pp = p.getParent();
      if (pp && Node.isBinaryExpression(pp) && pp.getOperatorToken().getKind() === SyntaxKind.EqualsToken && pp.getLeft() === p) continue;
      out.push(p);
      continue;
    }
    if (p && (Node.isVariableDeclaration(p) || Node.isPropertyDeclaration(p) || Node.isParameterDeclaration(p) || Node.isMethodDeclaration(p) || Node.isFunctionDeclaration(p)) && (p as any).getNameNode?.() === r) continue;
    out.push(r);
  }
  // A CommonJS export's importers, which the compiler's find-references does not reach.
  for (const u of importerUses(nameNode)) if (!out.includes(u)) out.push(u);
  return out;
}

/** The name a function is used by: its own (declarations, methods), or the variable or class field holding it. */
export function functionName(fn: Node): Node | undefined {
  const own = (fn as any).getNameNode?.() as Node | undefined;
  if (own && (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn))) return own;
  const holder = fn.getParent();
  if (holder && Node.isVariableDeclaration(holder) && Node.isIdentifier(holder.getNameNode())) return holder.getNameNode();
  if (holder && Node.isPropertyDeclaration(holder)) return holder.getNameNode();
  return undefined;
}
