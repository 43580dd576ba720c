// A plain route table's entry given whole to a send: `const ROUTES = { volumes: { method: "GET",
// path: "/networkvolumes" } }` read as `call(ROUTES.volumes)` by the project's own send helper. The
// entry is the request descriptor, read and rewritten where the table writes it, only while that
// send is its one use: the table is a `const` of this module, not exported, read only as
// `ROUTES.<entry>`, and this entry is named once. Otherwise (two sends of one entry, `ROUTES[key]`,
// the table handed on or exported) an edit of the entry could serve another request: not followed.
import { Node } from "../ts-morph.ts";
import { unwrapExpression } from "./urls.ts";
import { referencesOf } from "./nodes.ts";
import { ownKey } from "./descriptors.ts";

/** The entry literal `node` (`ROUTES.volumes`) names, when this is the entry's one use. */
export function routeTableEntry(node: Node | undefined): (Node & { getProperties(): Node[] }) | undefined {
  const n = node && unwrapExpression(node);
  if (!n || !Node.isPropertyAccessExpression(n)) return undefined;
  const table = unwrapExpression(n.getExpression());
  if (!Node.isIdentifier(table)) return undefined;
  const decl = table.getSymbol()?.getDeclarations()[0];
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode()) || decl.getSourceFile() !== n.getSourceFile()) return undefined;
  const list = decl.getParent();
  const statement = list?.getParent();
  if (!list || !Node.isVariableDeclarationList(list) || list.getDeclarationKind() !== "const") return undefined;
  if (statement && Node.isVariableStatement(statement) && statement.isExported()) return undefined;
  const init = decl.getInitializer();
  const literal = init && unwrapExpression(init);
  if (!literal || !Node.isObjectLiteralExpression(literal)) return undefined;
  const entry = ownKey(literal, n.getName());
  const entryLiteral = entry && unwrapExpression(entry);
  if (!entryLiteral || !Node.isObjectLiteralExpression(entryLiteral)) return undefined;
  const refs = referencesOf(n.getSourceFile(), decl.getNameNode());
  for (const r of refs) {
    const p = r.getParent();
    if (!p || !Node.isPropertyAccessExpression(p) || p.getExpression() !== r) return undefined;
    if (p.getName() === n.getName() && p !== n) return undefined;
  }
  return entryLiteral;
}
