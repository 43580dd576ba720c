// A table of descriptor builders: `const OPS = { start: (id) => ({ method, url }), … }` read as
// `OPS.start(id)`. The entry's callers are the calls of `OPS.<entry>`; a table read any other way
// (`OPS[name](id)`, handed on whole, an entry taken out as a value) may call any entry where the
// run does not look, so then no entry's callers are known (its descriptors are not followed).
import { Node } from "../ts-morph.ts";
import { callersOf } from "./evaluate/callers.ts";
import { references } from "./references.ts";

/** The calls of a descriptor builder: a function's own, or those of a table entry. */
export function builderCallers(fn: Node): Node[] | undefined {
  const entry = fn.getParent();
  if (!entry || !Node.isPropertyAssignment(entry) || entry.getInitializer() !== fn) return callersOf(fn);
  const table = entry.getParent();
  const decl = table?.getParent();
  if (!table || !decl || !Node.isVariableDeclaration(decl) || decl.getInitializer() !== table || !Node.isIdentifier(decl.getNameNode())) return undefined;
  const list = decl.getParent();
  if (!list || !Node.isVariableDeclarationList(list) || String(list.getDeclarationKind()) !== "const") return undefined;
  const key = entry.getName();
  const out: Node[] = [];
  for (const r of references(decl.getNameNode())) {
    if (r === decl.getNameNode() || r.getFirstAncestor((x) => Node.isTypeNode(x))) continue;
    const p = r.getParent();
    if (p && (Node.isImportSpecifier(p) || Node.isExportSpecifier(p) || Node.isImportClause(p))) continue;
    if (!p || !Node.isPropertyAccessExpression(p) || p.getExpression() !== r) return undefined;
    if (p.getName() !== key) continue;
    const call = p.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== p) return undefined;
    out.push(call);
  }
  return out;
}
