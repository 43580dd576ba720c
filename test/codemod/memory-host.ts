// A compiler host for the type-check tests: the files given are served from memory at their paths,
// everything else (the standard library, @types) from disk, parsed once into `shared` and handed to
// every program after (a program per fixture case: parsing lib.dom again each time was most of the run).
import path from "node:path";
import ts from "typescript";

/**
 * What the disk says, asked once per test process: module resolution probes the same package.json
 * files and node_modules folders for every program (a program per case and version), and those
 * stat calls were a third of the type-check tests' time. Safe to keep: nothing on disk that a
 * program reads changes while the tests run (the fixtures are read, never written; cases are
 * compiled from memory), and the in-memory files are still asked first, so they override the disk.
 */
const disk = { exists: new Map<string, boolean>(), dirs: new Map<string, boolean>(), text: new Map<string, string | undefined>(), real: new Map<string, string>() };

function remembered<V>(cache: Map<string, V>, key: string, ask: (key: string) => V): V {
  if (cache.has(key)) return cache.get(key)!;
  const value = ask(key);
  cache.set(key, value);
  return value;
}

/**
 * Module resolutions made from inside node_modules (@types/node's own imports, a library's types),
 * one cache per set of options: they are the same for every program. Resolutions from a case's
 * files are not cached (a case's in-memory files, the adapter module among them, differ between
 * programs); nothing under node_modules can reach them.
 */
const packageResolutions = new WeakMap<ts.CompilerOptions, ts.ModuleResolutionCache>();

function insidePackages(file: string): boolean {
  return file.split(path.sep).includes("node_modules");
}

export function memoryHost(options: ts.CompilerOptions, files: Map<string, string>, shared: Map<string, ts.SourceFile>): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => files.get(path.resolve(f)) ?? remembered(disk.text, f, read);
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => files.has(path.resolve(f)) || remembered(disk.exists, f, exists);
  const dirExists = host.directoryExists?.bind(host);
  if (dirExists) host.directoryExists = (d) => remembered(disk.dirs, d, dirExists);
  const realpath = host.realpath?.bind(host);
  if (realpath) host.realpath = (f) => remembered(disk.real, f, realpath);
  let cache = packageResolutions.get(options);
  if (!cache) packageResolutions.set(options, (cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), host.getCanonicalFileName, options)));
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts, sf) =>
    literals.map((literal) => ts.resolveModuleName(literal.text, containingFile, opts, host, insidePackages(containingFile) ? cache : undefined, redirected, ts.getModeForUsageLocation(sf, literal, opts)));
  // The program reads package.json scopes (each file's module format) through this cache's package.json part: disk only.
  host.getModuleResolutionCache = () => cache;
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = files.get(path.resolve(f));
    if (text !== undefined) return ts.createSourceFile(f, text, lang);
    if (!shared.has(f)) {
      const sf = getSource(f, lang, ...rest);
      if (!sf) return sf;
      shared.set(f, sf);
    }
    return shared.get(f);
  };
  return host;
}
