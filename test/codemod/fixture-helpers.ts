// Fixture layout, grouped by concept: `<concept>/<case>/input.<ext>` → `output.<ext>`, or for
// multi-file cases `<concept>/<case>/input/**` → `output/**`, with a README.md saying what each
// site must become. Cases are discovered automatically; runs use a temp copy and the project runner.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCodemod } from "../../codemod/project.ts";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/codemod");

/** Case names (`concept/case`): every directory under a concept folder that holds an input. */
export function fixtureCases(): string[] {
  const out: string[] = [];
  for (const concept of readdirSync(FIXTURES)) {
    const dir = path.join(FIXTURES, concept);
    if (!statSync(dir).isDirectory() || concept === "client-app") continue;
    for (const c of readdirSync(dir)) {
      if (statSync(path.join(dir, c)).isDirectory() && readdirSync(path.join(dir, c)).some((f) => f.startsWith("input"))) out.push(`${concept}/${c}`);
    }
  }
  return out.sort();
}

/** Cases that must come out unchanged and without findings. */
export const isNegative = (name: string) => name.startsWith("negatives/");

/** Input files of a case: relative name in the temp dir → expected output file. */
export function casePairs(name: string): { input: string; output: string; rel: string }[] {
  const dir = path.join(FIXTURES, name);
  if (existsSync(path.join(dir, "input")) && statSync(path.join(dir, "input")).isDirectory()) {
    const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));
    return walk(path.join(dir, "input")).map((input) => {
      const rel = path.relative(path.join(dir, "input"), input);
      return { input, output: path.join(dir, "output", rel), rel };
    });
  }
  return readdirSync(dir)
    .filter((f) => f.startsWith("input."))
    .map((f) => ({ input: path.join(dir, f), output: path.join(dir, f.replace(/^input/, "output")), rel: f }));
}

export function copyCase(name: string): string {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `codemod-${name.replace(/\//g, "-")}-`));
  for (const p of casePairs(name)) cpSync(p.input, path.join(tmp, p.rel), { recursive: true });
  return tmp;
}

export async function rewriteCase(name: string): Promise<{ outputs: Map<string, string>; tmp: string; result: Awaited<ReturnType<typeof runCodemod>> }> {
  const tmp = copyCase(name);
  const result = await runCodemod({ paths: [tmp], write: true });
  const outputs = new Map<string, string>();
  for (const p of casePairs(name)) outputs.set(p.rel, readFileSync(path.join(tmp, p.rel), "utf8"));
  return { outputs, tmp, result };
}

export function cleanup(tmp: string): void {
  rmSync(tmp, { recursive: true, force: true });
}

/**
 * Where the rewritten files import the boundary adapter from (`./v2-bridge-adapter`,
 * `../v2-bridge-adapter.js`): the module's path for a type check, beside the file that imports it
 * (the package root, or its compile root: src/ under `rootDir: "src"`). `root`: the run's root.
 */
export function adapterPaths(files: Map<string, string>, root: string): string[] {
  const out = new Set<string>();
  for (const [file, text] of files) {
    for (const m of text.matchAll(/["'](\.{1,2}\/(?:[^"']*\/)?v2-bridge-adapter)(?:\.js)?["']/g)) out.add(path.resolve(path.dirname(file), m[1]!) + ".ts");
  }
  return out.size ? [...out] : [path.join(root, "v2-bridge-adapter.ts")];
}
