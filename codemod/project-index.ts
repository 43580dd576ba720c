// The project index: which files the analysis must parse, and the one ts-morph project that
// holds them. A file is parsed only when it can reach a v1 base through imports: the files that
// name the v1 host (or carry a TODO mark of an earlier run), every file that imports them
// (transitively: their helpers' callers), and every file those import (their wrappers, aliases,
// constants). Module resolution is the compiler's own, so relative paths, index files,
// re-exports, NodeNext `.js` specifiers and tsconfig `paths` all resolve.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";
import { Project, ScriptKind, type SourceFile } from "./ts-morph.ts";
export { specifiersOf } from "./import-specifiers.ts";

const ts = (createRequire(import.meta.url)("ts-morph") as typeof TsMorph).ts;

/** The raw text of each file the index may need, and how to tell which ones mention v1. */
export interface IndexInput {
  /** Absolute path → the module specifiers it imports, for every source file that imports any. */
  specifiers: Map<string, string[]>;
  /** Files that name the v1 host or carry a TODO mark (the seeds). */
  seeds: Set<string>;
  /** Directory to look for tsconfig.json / jsconfig.json in (the run's root). */
  root: string;
}

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

/** `compilerOptions.baseUrl` / `paths` of the root's tsconfig.json or jsconfig.json, if any. */
export function readPathsConfig(root: string): PathsConfig | undefined {
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    const file = path.join(root, name);
    if (!existsSync(file)) continue;
    const parsed = ts.parseConfigFileTextToJson(file, readFileSync(file, "utf8"));
    const options = parsed.config?.compilerOptions as { baseUrl?: string; paths?: Record<string, string[]> } | undefined;
    if (!options?.paths && !options?.baseUrl) return undefined;
    return { baseUrl: path.resolve(root, options.baseUrl ?? "."), paths: options.paths ?? {} };
  }
  return undefined;
}

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** A text-level resolver (for the closure, before anything is parsed): relative and `paths` specifiers. */
export function textResolver(known: Set<string>, config: PathsConfig | undefined): (from: string, spec: string) => string | undefined {
  const tryBase = (base: string): string | undefined => {
    const stem = base.replace(/\.(m|c)?(j|t)sx?$/, "");
    const candidates = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => path.join(base, "index" + e))];
    return candidates.find((c) => known.has(c));
  };
  return (from, spec) => {
    if (spec.startsWith(".")) return tryBase(path.resolve(path.dirname(from), spec));
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
}

/** The files to parse: seeds, their importers (transitively), and everything those import. */
export function closure(input: IndexInput, resolve: (from: string, spec: string) => string | undefined): string[] {
  const imports = new Map<string, string[]>();
  const importers = new Map<string, string[]>();
  for (const [file, specs] of input.specifiers) {
    const deps = specs.map((s) => resolve(file, s)).filter((d): d is string => !!d && d !== file);
    imports.set(file, deps);
    for (const d of deps) importers.set(d, [...(importers.get(d) ?? []), file]);
  }
  const up = new Set<string>();
  const stack = [...input.seeds];
  while (stack.length) {
    const f = stack.pop()!;
    if (up.has(f)) continue;
    up.add(f);
    stack.push(...(importers.get(f) ?? []));
  }
  const all = new Set<string>();
  const down = [...up];
  while (down.length) {
    const f = down.pop()!;
    if (all.has(f)) continue;
    all.add(f);
    down.push(...(imports.get(f) ?? []));
  }
  return [...all].sort();
}

function scriptKindFor(file: string): TsMorph.ScriptKind {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".tsx") return ScriptKind.TSX;
  if (ext === ".ts" || ext === ".mts" || ext === ".cts") return ScriptKind.TS;
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
  return new Project({
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
