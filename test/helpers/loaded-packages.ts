// Runs a CLI command with record-modules.mjs preloaded and returns the npm packages it loaded.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PRELOAD = fileURLToPath(new URL("./record-modules.mjs", import.meta.url));

/** The package of a module path or URL: the part after the last node_modules/ (scope included). */
export function packageOf(file: string): string | null {
  const normal = file.replace(/\\/g, "/");
  const at = normal.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const parts = normal.slice(at + "node_modules/".length).split("/");
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * Starts `node <preload> <bin> ...args`; `until` (optional) is awaited with the child, after
 * which it gets SIGTERM. Resolves with the packages loaded, once the process has exited.
 */
export async function loadedPackages(bin: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; until?: (output: () => string) => Promise<void> }): Promise<{ packages: Set<string>; output: string; code: number | null }> {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), "v2b-mods-")), "modules.txt");
  const child = spawn(process.execPath, ["--import", PRELOAD, bin, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env, V2B_MODULES_OUT: out }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  if (options.until) {
    try {
      await options.until(() => output);
    } finally {
      child.kill("SIGTERM");
    }
  }
  const code = await exited;
  const lines = existsSync(out) ? readFileSync(out, "utf8").split("\n").filter(Boolean) : [];
  const packages = new Set(lines.map((l) => packageOf(l.slice(4))).filter((p): p is string => p !== null));
  return { packages, output, code };
}
