// An instance a package's factory makes (`createAxios({ baseURL })` of a package the codemod has no
// module for) is axios's own where the package's declarations say so: the factory's declared return
// type is `AxiosInstance` imported from "axios" (its `.d.ts` under node_modules, package-types.ts).
// Then a verb call on it takes axios's per-request `baseURL`, and a call kept on v1 can be given a
// base of its own. Without the declarations, other evidence may say so (axios-form.ts).
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { optionsOf } from "../evaluate/value.ts";
import { unwrapExpression } from "../urls.ts";
import { loadPackageTypes } from "../package-types.ts";

/** What a package declares its factory, as called here, returns: axios's AxiosInstance or another type (its text); undefined without declarations. */
export function declaredFactoryReturn(a: Analysis, make: CallExpression): { axios: boolean; type: string } | undefined {
  try {
    const makers = optionsOf(a.evaluator.evaluate(unwrapExpression(make.getExpression())));
    if (!makers.length || !makers.every((m) => m.kind === "module")) return undefined;
    for (const m of makers) if (m.kind === "module") loadPackageTypes(make.getProject(), m.node.getSourceFile().getFilePath(), m.module);
    const decl = make.getProject().getTypeChecker().getResolvedSignature(make)?.getDeclaration();
    if (!decl || !decl.getSourceFile().isDeclarationFile() || !/[\\/]node_modules[\\/]/.test(decl.getSourceFile().getFilePath())) return undefined;
    const returned = Node.isReturnTyped(decl) ? decl.getReturnTypeNode() : undefined;
    if (!returned) return undefined;
    return { axios: namesAxiosInstance(returned), type: returned.getText() };
  } catch {
    return undefined;
  }
}

/** `AxiosInstance` imported from "axios" (also renamed), or `import("axios").AxiosInstance`, as written in the declaration. */
function namesAxiosInstance(type: Node): boolean {
  if (Node.isImportTypeNode(type)) {
    const arg = type.getArgument();
    return /^["']axios["']$/.test(arg.getText()) && type.getQualifier()?.getText() === "AxiosInstance" && !type.getTypeArguments().length;
  }
  if (!Node.isTypeReference(type) || type.getTypeArguments().length) return false;
  const name = type.getTypeName();
  if (!Node.isIdentifier(name)) return false;
  return (name.getSymbol()?.getDeclarations() ?? []).some((d) => Node.isImportSpecifier(d) && d.getNameNode().getText() === "AxiosInstance" && d.getImportDeclaration().getModuleSpecifierValue() === "axios");
}
