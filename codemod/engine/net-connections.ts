// Which v1 bases a module's uncounted v1 route paths may be sent on, for the recall net
// (recall-net.ts): the files naming the v1 host it reaches through its imports, the bases of the
// calls the engine followed in it (a client handed to its functions as a parameter), and the bases
// made into a client by a package the module imports too (`ky.create({ prefixUrl })` in one module,
// `(api: KyInstance) => api.post('pods', …)` in another: the client reaches it from callers the
// run cannot see). Those bases stay v1 while such a path is there (do-no-harm.ts).
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { derivedClasses } from "./find-references.ts";
import type { Analysis } from "./state.ts";
import { BASE_KEYS } from "./transports/convention.ts";
import { unwrapExpression } from "./urls.ts";

/** Per analysis: package specifier → files of v1 bases given to a client that package makes. */
const clientPackagesOf = new WeakMap<Analysis, Map<string, Set<string>>>();

/** The bare package an identifier is imported from in its file (`import ky from 'ky'` → `ky`). */
function packageOf(sf: SourceFile, name: string): string | undefined {
  for (const d of sf.getImportDeclarations()) {
    const spec = d.getModuleSpecifierValue();
    if (!spec || spec.startsWith(".") || spec.startsWith("/")) continue;
    const names = [d.getDefaultImport()?.getText(), d.getNamespaceImport()?.getText(), ...d.getNamedImports().map((n) => (n.getAliasNode() ?? n.getNameNode()).getText())];
    if (names.includes(name)) return spec;
  }
  return undefined;
}

/** Packages whose call or `new` is given a base option in a file holding a v1 base. */
function clientPackages(a: Analysis): Map<string, Set<string>> {
  const known = clientPackagesOf.get(a);
  if (known) return known;
  const out = new Map<string, Set<string>>();
  const baseFiles = new Set([...a.bases.values()].filter((b) => !b.pinned).map((b) => b.literal.getSourceFile()));
  for (const sf of baseFiles) {
    for (const obj of sf.getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression)) {
      if (!BASE_KEYS.some((k) => obj.getProperty(k))) continue;
      const holder = obj.getParent();
      if (!holder || !(Node.isCallExpression(holder) || Node.isNewExpression(holder))) continue;
      let root: Node = unwrapExpression(holder.getExpression());
      while (Node.isPropertyAccessExpression(root)) root = unwrapExpression(root.getExpression());
      const pkg = Node.isIdentifier(root) ? packageOf(sf, root.getText()) : undefined;
      if (pkg) out.set(pkg, (out.get(pkg) ?? new Set()).add(sf.getFilePath()));
    }
  }
  clientPackagesOf.set(a, out);
  return out;
}

/** The files of v1 bases a v1 route path in this module may be sent on (empty: the module is not a v1 client's). */
export function netConnections(a: Analysis, sf: SourceFile, namesV1Host: (sf: SourceFile) => boolean, imported: (sf: SourceFile) => SourceFile[]): Set<string> {
  const out = new Set<string>();
  const seen = new Set<SourceFile>([sf]);
  const queue = [sf];
  while (queue.length) {
    const file = queue.shift()!;
    if (namesV1Host(file)) out.add(file.getFilePath());
    // A parent class given the base by a subclass's `super(…)` in a module naming the host holds it too.
    for (const f of subclassBaseFiles(file, namesV1Host)) out.add(f);
    for (const target of imported(file)) if (!seen.has(target)) seen.add(target), queue.push(target);
  }
  for (const site of a.sites) {
    if (site.call.getSourceFile() !== sf) continue;
    for (const d of site.deps) if (a.bases.has(d) && !a.bases.get(d)!.pinned) out.add(d.getSourceFile().getFilePath());
  }
  const packages = clientPackages(a);
  for (const d of sf.getImportDeclarations()) {
    for (const f of packages.get(d.getModuleSpecifierValue()) ?? []) out.add(f);
  }
  return out;
}

/** Files naming the v1 host that declare the subclasses of a class this file declares (`class Runpod extends APIClient`), when all of them do. */
function subclassBaseFiles(file: SourceFile, namesV1Host: (sf: SourceFile) => boolean): string[] {
  const out: string[] = [];
  for (const cls of file.getClasses()) {
    let derived: Node[] = [];
    try {
      derived = derivedClasses(cls);
    } catch {
      continue;
    }
    // Only a parent every subclass of which names the host: a core shared with another API's client is not RunPod's.
    if (!derived.length || !derived.every((d) => namesV1Host(d.getSourceFile()))) continue;
    for (const d of derived) if (d.getSourceFile() !== file) out.push(d.getSourceFile().getFilePath());
  }
  return out;
}
