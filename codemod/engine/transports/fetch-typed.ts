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
    const typeNode = (d as any).getTypeNode?.() as Node | undefined;
    if (typeNode && FETCH_TYPE.test(typeNode.getText().trim())) return true;
  }
  return false;
}
