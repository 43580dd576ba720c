// The code cache that spares `audit` compiling TypeScript's compiler at every start: a first run
// writes it to the user's cache directory, later runs read it back without rewriting it, a damaged
// cache is rejected and replaced, an upgraded file's old cache is removed, and the findings are the
// same in every case.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/cli.ts";

const BIN = BUILT_CLI;
const native = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

async function audit(project: string, env: NodeJS.ProcessEnv): Promise<{ code: number; findings: unknown }> {
  try {
    await promisify(execFile)(process.execPath, [BIN, "audit", project, "--format", "json", "--no-progress"], { env: { ...process.env, NODE_COMPILE_CACHE: "", ...env } });
    throw new Error("audit found nothing");
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, findings: JSON.parse(stdout).findings };
  }
}

/** name → mtime of every cache file (Node 20: one per large CommonJS file compiled). */
function cacheFiles(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), statSync(p).mtimeMs);
    }
  };
  try {
    walk(dir);
  } catch {
    /* no cache directory yet */
  }
  return out;
}

describe("compile cache", { timeout: 120_000 }, () => {
  const project = mkdtempSync(path.join(os.tmpdir(), "v2b-cc-project-"));
  writeFileSync(path.join(project, "client.ts"), 'export const pods = () => fetch("https://rest.runpod.io/v1/pods").then((r) => r.json());\n');

  it("written by the first run, read (not rewritten) by the next, replaced when damaged, pruned after an upgrade; same findings each time", async () => {
    const xdg = mkdtempSync(path.join(os.tmpdir(), "v2b-cc-"));
    const dir = path.join(xdg, "v2-bridge", "compile-cache");
    const first = await audit(project, { XDG_CACHE_HOME: xdg });
    expect(first.code).toBe(1);
    const written = cacheFiles(dir);
    expect(written.size).toBeGreaterThan(0);
    if (native) return; // Node >= 22.1 keeps its own cache; the rest checks the Node 20 path
    expect([...written.keys()].map((f) => path.basename(f).replace(/-\d+-\d+-\w+\.bin$/, "")).sort()).toEqual(["ts-morph-common.js", "ts-morph.js", "typescript.js"]);

    const second = await audit(project, { XDG_CACHE_HOME: xdg });
    expect(second).toEqual(first);
    expect(cacheFiles(dir)).toEqual(written); // accepted by V8: nothing to write again

    const [damaged] = [...written.keys()].filter((f) => f.includes("typescript.js"));
    writeFileSync(path.join(dir, damaged!), "not a V8 code cache");
    const third = await audit(project, { XDG_CACHE_HOME: xdg });
    expect(third).toEqual(first);
    expect(statSync(path.join(dir, damaged!)).size).toBeGreaterThan(1 << 20); // rejected, then replaced

    // After an upgrade (another size or mtime of the same installed file) the old cache goes.
    const older = damaged!.replace(/typescript\.js-\d+-\d+-/, "typescript.js-1-2-");
    renameSync(path.join(dir, damaged!), path.join(dir, older));
    expect((await audit(project, { XDG_CACHE_HOME: xdg })).findings).toEqual(first.findings);
    expect([...cacheFiles(dir).keys()].sort()).toEqual([...written.keys()].sort());
  });

  it("NODE_DISABLE_COMPILE_CACHE turns it off", async () => {
    const xdg = mkdtempSync(path.join(os.tmpdir(), "v2b-cc-off-"));
    expect((await audit(project, { XDG_CACHE_HOME: xdg, NODE_DISABLE_COMPILE_CACHE: "1" })).code).toBe(1);
    expect(cacheFiles(path.join(xdg, "v2-bridge")).size).toBe(0);
  });
});
