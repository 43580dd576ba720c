// Client projects for the verify tests, as a team would have them: the client's files, a script
// that exercises it, and its installed packages (node_modules linked to this checkout's).
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCodemod } from "../../codemod/project.ts";
import { REPO_ROOT } from "../../openapi/reference.ts";

export const FIXTURES = path.join(REPO_ROOT, "test", "fixtures");

const made: string[] = [];

/** A temporary project holding the given fixture folders' files (later ones win), with node_modules linked. */
export function project(...folders: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-verify-test-"));
  made.push(dir);
  for (const f of folders) cpSync(path.join(FIXTURES, f), dir, { recursive: true });
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "junction");
  return dir;
}

/** The e2e client (test/fixtures/codemod/client-app) with its run script as run.ts. */
export function clientApp(): string {
  const dir = project("codemod/client-app");
  cpSync(path.join(FIXTURES, "verify", "client-app-run.ts"), path.join(dir, "run.ts"));
  return dir;
}

/** A copy of a project rewritten by the codemod (what `rewrite --write` makes), node_modules linked. */
export async function rewritten(from: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-verify-after-"));
  made.push(dir);
  cpSync(from, dir, { recursive: true, filter: (src) => path.basename(src) !== "node_modules" });
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "junction");
  await runCodemod({ paths: [dir], root: dir, write: true });
  return dir;
}

/** A deliberate defect: replaces text that must be there (so a changed codemod output fails loudly here). */
export function inject(dir: string, file: string, from: string | RegExp, to: string): void {
  const target = path.join(dir, file);
  const text = readFileSync(target, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`defect not injected: ${String(from)} not in ${file}:\n${text}`);
  writeFileSync(target, next);
}

export function cleanupProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
