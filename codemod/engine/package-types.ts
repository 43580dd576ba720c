// The type declarations of a package the project has installed (`node_modules/<name>`, its
// `types` entry and the relative modules it imports), added to the run's in-memory project once
// per package, so that a call of the package can be typed as its declarations type it
// (transports/declared-answer.ts). The analysis reads no other file of node_modules.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Project } from "../ts-morph.ts";

const MAX_FILES = 40;
const loaded = new WeakMap<Project, Set<string>>();

/** `@scope/name/sub` → `@scope/name`; a relative or absolute specifier → undefined. */
function packageName(spec: string): string | undefined {
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:")) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The package's folder, looked for in node_modules from the importing file's folder up. */
export function packageDir(fromFile: string, name: string): string | undefined {
  for (let dir = path.dirname(fromFile); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The entry declaration file a package's package.json names (`types`, `typings`, `exports["."].types`), or index.d.ts. */
function entryOf(dir: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const dot = pkg.exports?.["."];
    const named = pkg.types ?? pkg.typings ?? (typeof dot === "object" ? dot?.types ?? dot?.import?.types ?? dot?.require?.types : undefined);
    const file = path.join(dir, typeof named === "string" ? named : "index.d.ts");
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** A relative import of a declaration file, as the file it names (`./interfaces` → interfaces.d.ts). */
function relativeFile(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.(js|mjs|cjs)$/, ""));
  for (const f of [`${base}.d.ts`, `${base}.d.mts`, `${base}.d.cts`, path.join(base, "index.d.ts")]) if (existsSync(f)) return f;
  return undefined;
}

/** Loads the declarations of the package `spec` names, as installed for `fromFile`; true when it has some. */
export function loadPackageTypes(project: Project, fromFile: string, spec: string): boolean {
  const name = packageName(spec);
  if (!name) return false;
  let done = loaded.get(project);
  if (!done) loaded.set(project, (done = new Set()));
  const dir = packageDir(fromFile, name);
  const key = dir ?? `${fromFile}\0${name}`;
  if (done.has(key)) return !!dir;
  done.add(key);
  const entry = dir && entryOf(dir);
  if (!dir || !entry) return false;
  const fs = project.getFileSystem();
  fs.writeFileSync(path.join(dir, "package.json"), readFileSync(path.join(dir, "package.json"), "utf8"));
  const queue = [entry];
  const seen = new Set<string>();
  while (queue.length && seen.size < MAX_FILES) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    if (!project.getSourceFile(file)) project.createSourceFile(file, text, { overwrite: true });
    for (const m of text.matchAll(/(?:from|import\(|require\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const next = relativeFile(file, m[1]!);
      if (next && !seen.has(next)) queue.push(next);
    }
  }
  return true;
}
