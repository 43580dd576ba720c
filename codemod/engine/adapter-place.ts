// Where the adapter module goes: in the importing file's package (package-root.ts), and inside
// what that package compiles. A tsconfig with `rootDir: "src"` (or `include: ["src"]`) does not
// compile a module at the package root: importing one breaks the build (TS6059) or leaves it
// out of the output. The module then goes to the compile root that holds the importing file.
import { existsSync } from "node:fs";
import path from "node:path";
import { ts } from "../ts-morph.ts";
import { packageRoot } from "./package-root.ts";

/** The folder the adapter module is written to for `file` (a run rooted at `root`). */
export function adapterDir(file: string, root: string): string {
  const pkg = packageRoot(file, root);
  const compiled = compileSettings(pkg);
  if (!compiled) return pkg;
  const abs = path.resolve(file);
  if (compiled.rootDir && within(abs, compiled.rootDir)) return compiled.rootDir;
  const includes = compiled.includes;
  if (!includes || includes.some((dir) => within(pkg, dir))) return pkg;
  // The package root is not compiled: the include folder that holds the file.
  return includes.filter((dir) => within(abs, dir)).sort((x, y) => x.length - y.length)[0] ?? pkg;
}

function within(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The package's tsconfig.json (its `extends` followed): rootDir, and the folders its `include` patterns start from. */
function compileSettings(pkg: string): { rootDir?: string; includes?: string[] } | null {
  // Read once per file that takes the adapter (not cached: a run may follow an edit of the tsconfig).
  let out: { rootDir?: string; includes?: string[] } | null = null;
  const file = path.join(pkg, "tsconfig.json");
  if (existsSync(file)) {
    const read = ts.readConfigFile(file, ts.sys.readFile);
    if (!read.error && read.config) {
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, pkg, undefined, file);
      const specs = (parsed as { configFileSpecs?: { includeSpecs?: readonly string[] } }).configFileSpecs?.includeSpecs ?? (parsed.raw as { include?: string[] })?.include;
      out = {
        rootDir: parsed.options.rootDir ? path.resolve(pkg, parsed.options.rootDir) : undefined,
        includes: specs?.map((s) => path.resolve(pkg, staticPrefix(s))),
      };
    }
  }
  return out;
}

/** `src/**\/*.ts` → `src`; `*.ts` → `.`. */
function staticPrefix(spec: string): string {
  const segments = spec.split(/[\\/]/);
  const fixed: string[] = [];
  for (const s of segments) {
    if (/[*?[{]/.test(s)) break;
    fixed.push(s);
  }
  // A last segment naming a file (`src/index.ts`) stands for its folder.
  if (fixed.length === segments.length && /\.[cm]?[jt]sx?$/.test(fixed.at(-1) ?? "")) fixed.pop();
  return fixed.join("/") || ".";
}
