// openapi-fetch clients are typed by `paths` generated from the v1 document; once their calls
// speak v2 they need types generated from the v2 document. The import is pointed at the v2 file
// and marked with the exact command that generates it (it does not exist until someone runs it).
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { V2_BASE, V2_OPENAPI_URL } from "../../mappings/bases.ts";
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
    // `./schema.js` → `./schema-v2.js` (the extension a NodeNext import names stays last).
    const to = /v1/.test(from) ? from.replace(/v1(?!.*v1)/, "v2") : from.replace(/(\.d)?(\.[cm]?[jt]s)?$/, (ext) => `-v2${ext.replace(/^\.d/, "")}`);
    const deps = new Set<Node>();
    const source = base.node ? sourceLiteral(a, base.node) : undefined;
    if (source) deps.add(source);
    const file = `${to.replace(/^\.\//, "").replace(/\.[cm]?[jt]s$/, "")}.d.ts`;
    const reason = `the client's \`paths\` types must come from the v2 document: ${to} is imported instead of ${from} and does not exist until it is generated`;
    // The v2 document's path keys start with /v2 (its server is the bare host), while the calls
    // name paths under the client's base, which ends in /v2: the keys are generated without it.
    const advice = `generate it next to this file from the v2 document with the /v2 prefix taken off its path keys (the calls' paths are relative to the base ${V2_BASE}): \`curl -s ${V2_OPENAPI_URL} | jq '.paths |= with_entries(.key |= ltrimstr("/v2"))' > runpod-v2.openapi.json && npx openapi-typescript runpod-v2.openapi.json -o ${file}\`, then remove this mark`;
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
