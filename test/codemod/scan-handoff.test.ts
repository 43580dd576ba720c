// The tree scan split at the first seed (codemod/scan-handoff.ts): the part before it and the rest,
// appended, are the same as one scan of every file; and the built CLI's audit is the same with the
// rest scanned in a worker thread (V2_BRIDGE_SCAN_THREAD=1, any tree) as on one thread (=0).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_FILE_BYTES } from "../../codemod/source-files.ts";
import { appendScan, emptyScan, scanFiles, scanFrom, type ScanResult } from "../../codemod/tree-scan.ts";
import { TreeListing } from "../../codemod/walk.ts";
import { listSources } from "../../codemod/tree-scan.ts";
import { idleCore } from "../../codemod/scan-handoff.ts";
import { generateMonorepo, writeTree } from "../../bench/monorepo/tree.ts";
import { BUILT_CLI } from "../helpers/cli.ts";

const base = mkdtempSync(path.join(os.tmpdir(), "scan-handoff-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A scan as plain data, in its order (Maps and Sets as entry lists, kept bytes as hex). */
const plain = (s: ScanResult) => ({
  files: s.files,
  specifiers: [...s.specifiers],
  seeds: [...s.seeds],
  skips: s.skips,
  opaque: [...s.opaque],
  telltales: [...s.telltales],
  bundles: [...s.bundles],
  kept: [...s.kept].map(([f, b]) => [f, Buffer.from(b).toString("hex")]),
});

async function auditJson(dir: string, thread: "0" | "1"): Promise<string> {
  try {
    await promisify(execFile)(process.execPath, [BUILT_CLI, "audit", dir, "--format", "json", "--no-progress"], { env: { ...process.env, V2_BRIDGE_SCAN_THREAD: thread }, maxBuffer: 64 << 20 });
    throw new Error("audit found nothing");
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    expect(code).toBe(1);
    return stdout.replace(/"generatedAt": "[^"]*"/, '"generatedAt": ""');
  }
}

describe("the tree scan split at the first seed", { timeout: 300_000 }, () => {
  const tree = generateMonorepo(1500, 11);
  const dir = path.join(base, "acme");
  writeTree(dir, tree);
  const files = listSources([dir], process.cwd(), new TreeListing());

  it("the part up to the first seed and the rest, appended, are one scan of every file", () => {
    const whole = scanFiles(files, DEFAULT_MAX_FILE_BYTES);
    expect(whole.seeds.size).toBeGreaterThan(1);
    const head = scanFrom({ out: emptyScan(files), next: 0, keptBytes: 0 }, DEFAULT_MAX_FILE_BYTES, {}, true);
    expect(head.out.seeds.size).toBe(1);
    expect(head.next).toBeGreaterThan(0);
    expect(head.next).toBeLessThan(files.length);
    const rest = scanFrom({ out: emptyScan(files.slice(head.next)), next: 0, keptBytes: head.keptBytes }, DEFAULT_MAX_FILE_BYTES);
    expect(plain(appendScan(head.out, rest.out))).toEqual(plain(whole));
  });

  it("the built audit: the same JSON with the rest scanned in a worker thread as on one thread", async () => {
    const [threaded, single] = [await auditJson(dir, "1"), await auditJson(dir, "0")];
    expect(JSON.parse(threaded).findings.length).toBe(tree.sites.length);
    expect(threaded).toBe(single);
  });
});

describe("the worker's gate", () => {
  it("starts the worker only with a second core free (the load average below the cores less half a core)", () => {
    expect(idleCore(2, 0.3)).toBe(true);
    expect(idleCore(8, 6.9)).toBe(true);
    // Under load the worker would wait for a core: not started.
    expect(idleCore(2, 1.5)).toBe(false);
    expect(idleCore(2, 14)).toBe(false);
    // One core: never.
    expect(idleCore(1, 0)).toBe(false);
  });
});

