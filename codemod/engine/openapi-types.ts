// openapi-fetch clients are typed by `paths` generated from the v1 document; once their calls
// speak v2 they need types generated from the v2 document. The import is pointed at the v2 file
// and marked with the exact command that generates it (it does not exist until someone runs it).
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { V2_OPENAPI_URL } from "../../mappings/bases.ts";
import { resolveIdentifier } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import type { Analysis, Site } from "./state.ts";
import { addFinding, edit, planFor } from "./state.ts";
import { rootOf } from "./transports/index.ts";
import { sourceLiteral } from "./values.ts";
import { todo } from "./todo-marks.ts";

export function openapiTypes(a: Analysis, sf: SourceFile): void {
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!Node.isIdentifier(callee) || rootOf(a, callee)?.lib !== "openapi-fetch") continue;
    const holder = call.getParent();
    if (!holder || !Node.isVariableDeclaration(holder)) continue;
    const root = rootOf(a, holder.getNameNode());
    const base = root && "instance" in root ? root.instance : undefined;
    const [typeArg] = call.getTypeArguments();
    if (!base || !typeArg || !Node.isTypeReference(typeArg)) continue;
    const b = resolveIdentifier(typeArg.getTypeName());
    if (b?.kind !== "import" || !b.module.startsWith(".")) continue;
    const decl = b.decl;
    if (!Node.isImportDeclaration(decl)) continue;
    const spec = decl.getModuleSpecifier();
    const from = decl.getModuleSpecifierValue();
    const to = /v1/.test(from) ? from.replace(/v1(?!.*v1)/, "v2") : `${from}-v2`;
    const deps = new Set<Node>();
    const source = base.node ? sourceLiteral(a, base.node) : undefined;
    if (source) deps.add(source);
    const file = `${to.replace(/^\.\//, "")}.d.ts`;
    const reason = `the client's \`paths\` types must come from the v2 document: ${to} is imported instead of ${from} and does not exist until it is generated`;
    const advice = `run \`npx openapi-typescript ${V2_OPENAPI_URL} -o ${file}\` next to this file, then remove this mark`;
    const site: Site = { call: decl, file: a.files.get(sf.getFilePath())!, deps, edits: [], complete: false };
    edit(planFor(a, site), spec, { start: spec.getStart() + 1, end: spec.getEnd() - 1, text: to });
    // True only once the client's base flips: then the import moves and the mark says so.
    site.onApply = () => {
      todo(a, decl, "base", "review", reason, advice);
      addFinding(a, decl, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "types" });
    };
    a.sites.push(site);
  }
}
