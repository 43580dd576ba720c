// A value the code declares as fetch (`fetchImpl: typeof fetch`, `fetch?: typeof globalThis.fetch`):
// whatever a caller injects there (a test's stub, undici's fetch) is called as fetch is, so a call
// of it is a fetch call even where its value cannot be listed.
import { Node } from "../../ts-morph.ts";

const FETCH_TYPE = /^typeof\s+(?:(?:globalThis|window|self|global)\.)?fetch$/;

/** The declared type of the name or member `n` reads is `typeof fetch`. */
export function typedAsFetch(n: Node): boolean {
  if (!Node.isIdentifier(n) && !Node.isPropertyAccessExpression(n)) return false;
  const symbol = n.getSymbol();
  for (const d of symbol?.getDeclarations() ?? []) {
    const typeNode = ((d as any).getTypeNode?.() as Node | undefined) ?? destructuredMemberType(d);
    if (typeNode && FETCH_TYPE.test(typeNode.getText().trim())) return true;
    if (typeNode && Node.isTypeReference(typeNode) && aliasOfFetch(typeNode)) return true;
  }
  return false;
}

/** `type Fetch = typeof fetch` named where the value is declared (`fetchFn: Fetch`). */
function aliasOfFetch(ref: Node): boolean {
  if (!Node.isTypeReference(ref) || ref.getTypeArguments().length) return false;
  const symbol = ref.getTypeName().getSymbol();
  const decls = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  return decls.some((d) => Node.isTypeAliasDeclaration(d) && FETCH_TYPE.test(d.getTypeNode()?.getText().trim() ?? ""));
}

/** `({ fetch }: { fetch: typeof fetch })`: the type the parameter's type literal gives a destructured name. */
function destructuredMemberType(d: Node): Node | undefined {
  if (!Node.isBindingElement(d)) return undefined;
  const pattern = d.getParent();
  const holder = pattern?.getParent();
  if (!Node.isObjectBindingPattern(pattern) || !holder || !(Node.isParameterDeclaration(holder) || Node.isVariableDeclaration(holder))) return undefined;
  const literal = holder.getTypeNode();
  if (!literal || !Node.isTypeLiteral(literal)) return undefined;
  const key = d.getPropertyNameNode()?.getText() ?? d.getName();
  return literal.getProperty(key)?.getTypeNode();
}
