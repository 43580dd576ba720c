// TypeScript's standard library declarations (lib.es2023.d.ts and the files it references) are the
// same in every in-memory project this process makes: each project parsed and bound them again.
// A library file is parsed once per process and handed to every project, as TypeScript's own
// language service shares files between projects whose settings match (its DocumentRegistry).
// Only files under ts-morph's in-memory library folder are shared, never a project's own files;
// the key includes the target, which decides how a file is parsed.
import type { Project, TypeScript as ts } from "./ts-morph.ts";

const LIB_FOLDER = "/node_modules/typescript/lib/";

const parsed = new Map<string, ts.SourceFile>();

type Registry = {
  createOrUpdateSourceFile(fileName: string, settings: ts.CompilerOptions, snapshot: ts.IScriptSnapshot, kind?: ts.ScriptKind): ts.SourceFile;
  acquireDocument(fileName: string, settings: ts.CompilerOptions, snapshot: ts.IScriptSnapshot, version: string, kind?: ts.ScriptKind): ts.SourceFile;
  getSourceFileVersion(sf: ts.SourceFile): string;
};

/** Makes `project` take its standard library files from the process-wide cache; a no-op where ts-morph's internals differ. */
export function shareLibraryFiles(project: Project): void {
  const registry = (project as unknown as { _context?: { compilerFactory?: { documentRegistry?: Registry } } })._context?.compilerFactory?.documentRegistry;
  if (!registry || typeof registry.createOrUpdateSourceFile !== "function" || typeof registry.acquireDocument !== "function") return;
  const create = registry.createOrUpdateSourceFile.bind(registry);
  const acquire = registry.acquireDocument.bind(registry);
  const shared = (fileName: string, settings: ts.CompilerOptions, make: () => ts.SourceFile): ts.SourceFile => {
    if (!fileName.startsWith(LIB_FOLDER)) return make();
    const key = `${settings.target ?? ""}:${fileName}`;
    let sf = parsed.get(key);
    if (sf === undefined) parsed.set(key, (sf = make()));
    return sf;
  };
  registry.createOrUpdateSourceFile = (fileName, settings, snapshot, kind) => shared(fileName, settings, () => create(fileName, settings, snapshot, kind));
  registry.acquireDocument = (fileName, settings, snapshot, version, kind) => shared(fileName, settings, () => acquire(fileName, settings, snapshot, version, kind));
}
