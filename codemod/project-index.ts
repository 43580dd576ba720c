// The project index: which files the analysis must parse (only those that can reach a v1 base
// through imports: codemod/import-closure.ts), and the one ts-morph project that holds them.
// Module resolution is the compiler's own, so relative paths, index files, re-exports, NodeNext
// `.js` specifiers and tsconfig `paths` all resolve.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";
import { Project, ScriptKind, type SourceFile } from "./ts-morph.ts";
import { shareLibraryFiles } from "./shared-lib-files.ts";
export { specifiersOf } from "./import-specifiers.ts";
export { closure } from "./import-closure.ts";
export type { ClosureInput as IndexInput } from "./import-closure.ts";

const ts = (createRequire(import.meta.url)("ts-morph") as typeof TsMorph).ts;

export interface ProjectIndex {
  project: Project;
  /** Files parsed, in path order. */
  files: SourceFile[];
  /** Resolves an import specifier of `from` to a parsed file. */
  resolve(from: string, specifier: string): SourceFile | undefined;
}

interface PathsConfig {
  baseUrl: string;
  paths: Record<string, string[]>;
}

/**
 * `compilerOptions.baseUrl` / `paths` of the root's tsconfig.json or jsconfig.json, if any, with its
 * `extends` chain followed as the compiler does (a SvelteKit app's `$lib` lives in the generated
 * `.svelte-kit/tsconfig.json` it extends). Targets come back absolute: an inherited `paths` is
 * relative to the file that declares it, not to the root.
 */
export function readPathsConfig(root: string): PathsConfig | undefined {
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    const file = path.join(root, name);
    if (!existsSync(file)) continue;
    const json = ts.parseConfigFileTextToJson(file, readFileSync(file, "utf8")).config;
    // No file enumeration: only the options matter here (a missing `extends` target is a diagnostic, not a throw).
    const host: TsMorph.ts.ParseConfigHost = { useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames, readDirectory: () => [], fileExists: ts.sys.fileExists, readFile: ts.sys.readFile };
    const options = json ? ts.parseJsonConfigFileContent(json, host, root, undefined, file).options : {};
    const paths: Record<string, string[]> = {};
    const pathsBase = (options.pathsBasePath as string | undefined) ?? root;
    for (const [pattern, targets] of Object.entries(options.paths ?? {})) paths[pattern] = targets.map((t) => path.resolve(options.baseUrl ?? pathsBase, t));
    for (const [pattern, target] of Object.entries(frameworkAliases(root, json))) paths[pattern] ??= [target];
    if (!Object.keys(paths).length && !options.baseUrl) return undefined;
    return { baseUrl: options.baseUrl ?? root, paths };
  }
  const aliases = Object.entries(frameworkAliases(root, undefined));
  return aliases.length ? { baseUrl: root, paths: Object.fromEntries(aliases.map(([p, t]) => [p, [t]])) } : undefined;
}

/**
 * Aliases a framework defines whatever the tsconfig holds: SvelteKit's `$lib` → `src/lib` (its
 * generated `.svelte-kit/tsconfig.json`, often not committed, declares it; an app that depends on
 * `@sveltejs/kit` or extends that file has it).
 */
function frameworkAliases(root: string, json: { extends?: string | string[] } | undefined): Record<string, string> {
  const extended = [json?.extends ?? []].flat();
  let kit = extended.some((e) => /(^|[\\/])\.svelte-kit[\\/]tsconfig\.json$/.test(e));
  if (!kit && existsSync(path.join(root, "package.json"))) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies?: object; devDependencies?: object };
      kit = "@sveltejs/kit" in { ...pkg.dependencies, ...pkg.devDependencies };
    } catch {
      kit = false;
    }
  }
  return kit ? { $lib: path.join(root, "src/lib"), "$lib/*": path.join(root, "src/lib/*") } : {};
}

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/**
 * A text-level resolver (for the closure, before anything is parsed): relative and `paths`
 * specifiers. Answers are cached (a bare specifier resolves the same from every file, a relative
 * one from every file of a directory): the closure resolves every import of the tree.
 */
export function textResolver(known: Set<string>, config: PathsConfig | undefined): (from: string, spec: string) => string | undefined {
  const tryBase = (base: string): string | undefined => {
    if (known.has(base)) return base;
    const stem = base.replace(/\.(m|c)?(j|t)sx?$/, "");
    for (const e of EXTENSIONS) if (known.has(stem + e)) return stem + e;
    for (const e of EXTENSIONS) if (known.has(path.join(base, "index" + e))) return path.join(base, "index" + e);
    return undefined;
  };
  const bare = (spec: string): string | undefined => {
    if (!config) return undefined;
    for (const [pattern, targets] of Object.entries(config.paths)) {
      const star = pattern.indexOf("*");
      const matches = star < 0 ? spec === pattern : spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1));
      if (!matches) continue;
      const middle = star < 0 ? "" : spec.slice(star, spec.length - (pattern.length - star - 1));
      for (const t of targets) {
        const hit = tryBase(path.resolve(config.baseUrl, t.replace("*", middle)));
        if (hit) return hit;
      }
    }
    return tryBase(path.resolve(config.baseUrl, spec));
  };
  const cache = new Map<string, string | undefined>();
  return (from, spec) => {
    const key = spec.startsWith(".") ? `${path.dirname(from)}\0${spec}` : spec;
    if (cache.has(key)) return cache.get(key);
    const hit = spec.startsWith(".") ? tryBase(path.resolve(path.dirname(from), spec)) : bare(spec);
    cache.set(key, hit);
    return hit;
  };
}

function scriptKindFor(file: string): TsMorph.ScriptKind {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".tsx") return ScriptKind.TSX;
  // A single-file component's script block (the rest blanked): TypeScript reads plain JS too.
  if (ext === ".ts" || ext === ".mts" || ext === ".cts" || ext === ".vue" || ext === ".svelte") return ScriptKind.TS;
  return ScriptKind.JSX; // .js/.jsx/.mjs/.cjs: JSX is legal in many .js code bases
}

/** One in-memory ts-morph project over the given files at their real paths. */
export function buildProject(files: string[], texts: Map<string, string>, config: PathsConfig | undefined, reuse?: Project): ProjectIndex {
  const project = reuse ?? newProject(config);
  const sfs = files.map((f) => project.createSourceFile(f, texts.get(f) ?? "", { overwrite: true, scriptKind: scriptKindFor(f) }));
  const byPath = new Map(sfs.map((sf) => [sf.getFilePath() as string, sf]));
  const known = new Set(files);
  const fallback = textResolver(known, config);
  const resolve = (from: string, spec: string): SourceFile | undefined => {
    const hit = fallback(from, spec);
    return hit ? byPath.get(hit) ?? project.getSourceFile(hit) : undefined;
  };
  return { project, files: sfs, resolve };
}

/** An empty project with the compiler options the analysis needs (reusable across single files). */
export function newProject(config?: PathsConfig): Project {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      allowJs: true,
      checkJs: false,
      jsx: ts.JsxEmit.Preserve,
      // The standard library types Promise and Array, so record types survive `await` and `.map`.
      lib: ["lib.es2023.d.ts"],
      types: [],
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      noEmit: true,
      ...(config ? { baseUrl: config.baseUrl, paths: config.paths } : {}),
    },
  });
  shareLibraryFiles(project);
  return project;
}

/** Parse errors of a file (ts-morph parses leniently; these are the syntax errors it recovered from). */
export function parseErrorOf(sf: SourceFile): string | undefined {
  const diags = ((sf.compilerNode as any).parseDiagnostics ?? []) as { start?: number; messageText: string | { messageText: string } }[];
  if (!diags.length) return undefined;
  const d = diags[0]!;
  const pos = d.start !== undefined ? sf.getLineAndColumnAtPos(d.start) : { line: 1, column: 1 };
  const msg = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
  return `${pos.line}:${pos.column} ${msg}`;
}

/**
 * Loads the compiler and parses and binds the standard library files, in a throwaway project: shared
 * with every later project (shared-lib-files.ts), they cost the real program nothing. Run while a
 * worker thread scans the rest of the tree (codemod/scan-handoff.ts).
 */
export function warmCompiler(): void {
  const project = newProject();
  project.createSourceFile("/__v2_bridge_warm__.ts", "export {};\n");
  project.getTypeChecker().compilerObject;
}
