// The one atomic writer (product/atomic-write.ts) that the rewrite, the adapter, the gateway's state,
// the reference cache and the code cache all use. A reader in another process never sees part of a
// file; a write that fails half way (a file size limit: what a full disk does too) leaves the old
// file and no temporary file, and says so; the mode is kept. Real files, real processes.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { writeFileAtomic, writeFileAtomicSync } from "../../product/atomic-write.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));
function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-atomic-"));
  temps.push(dir);
  return dir;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

// Two contents of different lengths: a part of either is neither.
const A = "a".repeat(3 << 20);
const B = "b".repeat((3 << 20) + 4096);

/** Reads `file` in another process until `stop` exists ("ready" after the first read); counts the reads and those that were neither A nor B. */
const READER = `
const fs = require("node:fs");
const [file, stop, aLen, bLen] = process.argv.slice(1);
let reads = 0, torn = 0;
while (!fs.existsSync(stop)) {
  const b = fs.readFileSync(file);
  if (reads++ === 0) process.stdout.write("ready\\n");
  const whole = (b.length === +aLen && b[0] === 97 && b[b.length - 1] === 97 && b.indexOf(98) === -1) || (b.length === +bLen && b[0] === 98 && b[b.length - 1] === 98 && b.indexOf(97) === -1);
  if (!whole) torn++;
}
process.stdout.write(JSON.stringify({ reads, torn }));`;

/** Replaces the file with A and B in turn for a second (and at least 24 times) while the reader reads. */
async function readWhileWriting(write: (file: string, text: string) => Promise<void> | void): Promise<{ reads: number; torn: number }> {
  const dir = tmpDir();
  const file = path.join(dir, "state.json");
  const stop = path.join(dir, "stop");
  writeFileSync(file, A);
  const reader = spawn(process.execPath, ["-e", READER, file, stop, String(A.length), String(B.length)], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  reader.stdout.on("data", (c: Buffer) => (out += c));
  const exited = new Promise((resolve) => reader.once("exit", resolve));
  while (!out.startsWith("ready")) {
    if (reader.exitCode !== null) throw new Error(`reader exited: ${out}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const until = Date.now() + 1000;
  for (let i = 0; i < 24 || Date.now() < until; i++) {
    await write(file, i % 2 ? A : B);
    await new Promise((r) => setImmediate(r));
  }
  writeFileSync(stop, "");
  await exited;
  expect(readdirSync(dir).sort()).toEqual(["state.json", "stop"]);
  return JSON.parse(out.slice("ready\n".length));
}

describe("atomic write", { timeout: 60_000 }, () => {
  it("a reader in another process never sees a part of the file (async and sync writers)", async () => {
    for (const write of [writeFileAtomic, writeFileAtomicSync]) {
      const seen = await readWhileWriting(write);
      expect(seen.reads).toBeGreaterThan(5);
      expect(seen.torn).toBe(0);
    }
  });

  it("the reader would see a plain overwrite half done (the check above can fail)", async () => {
    const seen = await readWhileWriting((file, text) => writeFile(file, text));
    expect(seen.torn).toBeGreaterThan(0);
  });

  it("a write cut short by the file size limit fails, leaves the old file and no temporary file; a rewrite reports it", async () => {
    const dir = tmpDir();
    const files = { async: path.join(dir, "async.json"), sync: path.join(dir, "sync.json") };
    for (const f of Object.values(files)) writeFileSync(f, "old\n");
    // A source file to rewrite whose new text is larger than the limit (and smaller than the codemod's 2 MB cap).
    const project = path.join(dir, "project");
    mkdirSync(project);
    const source = `export const pods = () => fetch("https://rest.runpod.io/v1/pods");\n/*${"x".repeat(1_500_000)}*/\n`;
    writeFileSync(path.join(project, "client.ts"), source);
    const script = path.join(dir, "child.mjs");
    writeFileSync(
      script,
      `process.on("SIGXFSZ", () => {}); // the write fails with EFBIG instead of killing the process
const { writeFileAtomic, writeFileAtomicSync } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "product/atomic-write.ts")).href)});
const { runCodemod } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "codemod/project.ts")).href)});
const big = "y".repeat(4 << 20);
const out = {};
try { await writeFileAtomic(${JSON.stringify(files.async)}, big); out.async = "written"; } catch (e) { out.async = e.code; }
try { writeFileAtomicSync(${JSON.stringify(files.sync)}, Buffer.from(big)); out.sync = "written"; } catch (e) { out.sync = e.code; }
const r = await runCodemod({ paths: [${JSON.stringify(project)}], write: true });
out.rewrite = { changed: r.files.map((f) => f.changed), why: r.findings.filter((f) => /could not be written/.test(f.reason ?? "")).map((f) => f.reason) };
console.log(JSON.stringify(out));`,
    );
    // 1024 blocks: 512 KB (dash) or 1 MB (bash). No other file is written meanwhile (no tsx or V8 cache).
    const { code, stdout, stderr } = await run("sh", ["-c", 'ulimit -f 1024 && exec "$0" --import tsx "$1"', process.execPath, script], { TSX_DISABLE_CACHE: "1", NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.async).toBe("EFBIG");
    expect(out.sync).toBe("EFBIG");
    expect(out.rewrite.changed).toEqual([false]);
    expect(out.rewrite.why.join()).toMatch(/EFBIG/);
    for (const f of Object.values(files)) expect(readFileSync(f, "utf8")).toBe("old\n");
    expect(readFileSync(path.join(project, "client.ts"), "utf8")).toBe(source);
    expect(readdirSync(dir).sort()).toEqual(["async.json", "child.mjs", "project", "sync.json"]);
    expect(readdirSync(project)).toEqual(["client.ts"]);
  });

  it("a failed rename leaves no temporary file; the error reaches the caller", async () => {
    const dir = tmpDir();
    mkdirSync(path.join(dir, "taken"));
    writeFileSync(path.join(dir, "taken", "inside"), "");
    await expect(writeFileAtomic(path.join(dir, "taken"), "x")).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(() => writeFileAtomicSync(path.join(dir, "taken"), "x")).toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });

  it("keeps the replaced file's mode (read-only included), takes an explicit one, and a new file follows the umask", async () => {
    const dir = tmpDir();
    const kept = path.join(dir, "kept.ts");
    writeFileSync(kept, "old");
    chmodSync(kept, 0o640);
    await writeFileAtomic(kept, "new");
    expect([readFileSync(kept, "utf8"), statSync(kept).mode & 0o7777]).toEqual(["new", 0o640]);
    const readOnly = path.join(dir, "read-only.ts");
    writeFileSync(readOnly, "old");
    chmodSync(readOnly, 0o444);
    writeFileAtomicSync(readOnly, "new");
    expect([readFileSync(readOnly, "utf8"), statSync(readOnly).mode & 0o7777]).toEqual(["new", 0o444]);
    const secret = path.join(dir, "salt");
    await writeFileAtomic(secret, "s", { mode: 0o600 });
    expect(statSync(secret).mode & 0o7777).toBe(0o600);
    const fresh = path.join(dir, "fresh");
    await writeFileAtomic(fresh, "f");
    writeFileSync(path.join(dir, "plain"), "p"); // what the umask makes of 0o666
    expect(statSync(fresh).mode & 0o7777).toBe(statSync(path.join(dir, "plain")).mode & 0o7777);
  });
});
