// A type-only import is erased at run time, yet a value of the imported type can carry the v1 base
// into the importing module: `import type { PodConfig } from "./settings"` in a client built with
// a config its callers get from that module (`restBaseUrl: env || "https://rest.runpod.io/v1"` in
// the object `getPodConfig(): Promise<PodConfig>` returns). Such an import still connects the
// module to the v1 base (recall-net.ts); a type of records (`Pod`) no v1 base is written into does not.
import { Node, SyntaxKind, type ExportDeclaration, type ImportDeclaration } from "../ts-morph.ts";
import { V1_HOST } from "../../mappings/bases.ts";

/** Whether a type the declaration names is the type of an object its module writes the v1 host into. */
export function typeCarriesV1Base(d: ImportDeclaration | ExportDeclaration): boolean {
  const names = Node.isImportDeclaration(d) ? d.getNamedImports().map((n) => n.getNameNode()) : d.getNamedExports().map((n) => n.getNameNode());
  const declared = new Set<Node>();
  for (const name of names) {
    try {
      const symbol = name.getSymbol();
      const target = symbol?.getAliasedSymbol() ?? symbol;
      for (const decl of target?.getDeclarations() ?? []) declared.add(decl);
    } catch {
      continue;
    }
  }
  if (!declared.size) return false;
  const files = new Set([...declared].map((x) => x.getSourceFile()));
  for (const file of files) {
    if (!file.getFullText().includes(V1_HOST)) continue;
    for (const literal of file.getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression)) {
      if (!literal.getProperties().some((p) => p.getText().includes(V1_HOST))) continue;
      if (typedAs(literal, declared)) return true;
    }
  }
  return false;
}

/** The object literal's contextual type (a declared variable, parameter or return type) is one of `declared`. */
function typedAs(literal: Node, declared: Set<Node>): boolean {
  try {
    const type = (literal as Node & { getContextualType(): ReturnType<Node["getType"]> | undefined }).getContextualType?.();
    // An async function's return is typed `T | PromiseLike<T>`: T is among the members.
    const members = type ? (type.isUnion() ? type.getUnionTypes() : [type]) : [];
    return members.some((t) => {
      const symbol = t.getAliasSymbol() ?? t.getSymbol();
      return !!symbol && (symbol.getDeclarations() ?? []).some((x) => declared.has(x));
    });
  } catch {
    return false;
  }
}
