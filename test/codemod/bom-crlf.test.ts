// Byte fidelity of `v2-bridge rewrite --write` on Windows-style files: a UTF-8 byte-order mark and
// CRLF line endings survive a rewrite byte for byte (edits on line 1, multi-line body rewrites and
// inserted TODO marks included), marks of an earlier run are recognised in a CRLF file, and a file
// the run does not change is left byte-identical. Real files on disk, through the CLI.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeSource } from "../../codemod/single-file.ts";
import { BUILT_CLI } from "../helpers/cli.ts";
import { FIXTURES } from "./fixture-helpers.ts";

const run = promisify(execFile);
const CLI = BUILT_CLI;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

/** A fixture's text as a Windows editor saves it: BOM, CRLF. */
const windows = (text: string) => Buffer.concat([BOM, Buffer.from(text.replace(/\n/g, "\r\n"), "utf8")]);
const fixture = (name: string, file: string) => readFileSync(path.join(FIXTURES, name, file), "utf8");
/** Line endings other than CRLF (a lone LF or CR). */
const loneEndings = (buf: Buffer) => (buf.toString("utf8").match(/\r(?!\n)|(?<!\r)\n/g) ?? []).length;

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [CLI, ...args], { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, ...r };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("rewrite keeps a BOM and CRLF line endings", () => {
  it("a BOM+CRLF file is rewritten to exactly the LF result in CRLF with its BOM; an unchanged one stays byte-identical", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-bom-crlf-"));
    temps.push(dir);
    for (const sub of ["create", "reset", "done"]) mkdirSync(path.join(dir, sub));
    // Line 1 is rewritten (the base constant), bodies become multi-line v2 bodies, marks are inserted.
    writeFileSync(path.join(dir, "create", "input.ts"), windows(fixture("bodies/create-pod-flat-to-nested", "input.ts")));
    writeFileSync(path.join(dir, "reset", "input.ts"), windows(fixture("lifecycle/reset-todo", "input.ts")));
    // Already migrated by an earlier run, marks and all: nothing to do.
    const done = windows(fixture("lifecycle/reset-todo", "output.ts"));
    writeFileSync(path.join(dir, "done", "input.ts"), done);

    const r = await cli(["rewrite", "--write", "--no-progress", "--no-diff", dir]);
    expect(r.stderr).not.toMatch(/error/i);

    for (const [sub, name] of [["create", "bodies/create-pod-flat-to-nested"], ["reset", "lifecycle/reset-todo"]]) {
      const written = readFileSync(path.join(dir, sub!, "input.ts"));
      expect(written.subarray(0, 3), `${sub}: BOM kept`).toEqual(BOM);
      expect(loneEndings(written), `${sub}: only CRLF endings`).toBe(0);
      // The run's root is one level up here, so the adapter module is one level up too.
      expect(written.toString("utf8").replace('"../v2-bridge-adapter"', '"./v2-bridge-adapter"'), sub).toBe(windows(fixture(name!, "output.ts")).toString("utf8"));
    }
    expect(readFileSync(path.join(dir, "done", "input.ts")).equals(done)).toBe(true);

    // The marks now in the CRLF files are read back: the audit finds what it finds in the LF files.
    const lfDir = mkdtempSync(path.join(os.tmpdir(), "codemod-lf-"));
    temps.push(lfDir);
    for (const sub of ["create", "reset", "done"]) mkdirSync(path.join(lfDir, sub));
    writeFileSync(path.join(lfDir, "create", "input.ts"), fixture("bodies/create-pod-flat-to-nested", "output.ts"));
    writeFileSync(path.join(lfDir, "reset", "input.ts"), fixture("lifecycle/reset-todo", "output.ts"));
    writeFileSync(path.join(lfDir, "done", "input.ts"), fixture("lifecycle/reset-todo", "output.ts"));
    const audited = async (root: string) =>
      (JSON.parse((await cli(["audit", "--format", "json", "--no-progress", root])).stdout).findings as Record<string, unknown>[]).map(({ file, line, column, reason }) => ({ file, line, column, reason }));
    const crlfFindings = await audited(dir);
    expect(crlfFindings.length).toBeGreaterThan(4);
    expect(crlfFindings).toEqual(await audited(lfDir));

    // A second rewrite finds nothing to do: every file stays as it is.
    const before = ["create", "reset", "done"].map((sub) => readFileSync(path.join(dir, sub, "input.ts")));
    await cli(["rewrite", "--write", "--no-progress", "--no-diff", dir]);
    ["create", "reset", "done"].forEach((sub, i) => expect(readFileSync(path.join(dir, sub, "input.ts")).equals(before[i]!), sub).toBe(true));
  }, 120_000); // five CLI runs

  it("jscodeshift's entry (one file's source): a mark of an earlier version updated in place (short, ×2) keeps the CRLF ending and the BOM", () => {
    // The long form earlier versions wrote: replaced in place by the short one, counting both calls.
    const mark = (times: string) =>
      `// TODO(v2-migration) ResetPod (no-equivalent)${times}: pod reset has no v2 equivalent (v2 pod actions are start, stop, restart, terminate); advice: call POST /v1/pods/{podId}/stop then /start (or v2 POST /v2/pods/{id}/action {"action":"restart"}), to recreate the container disk, terminate and create the pod again. Operators can opt in to sending restart instead (--reset-policy restart).`;
    const short = "// TODO(v2-migration) ResetPod (no-equivalent) ×2: pod reset has no v2 equivalent (v2 pod actions are start, stop, restart, terminate)\n";
    const call = (id: string) => `fetch(\`\${API}/pods/\${${id}}/reset\`, { method: "POST" })`;
    const source = (base: string, times: string) =>
      `const API = "${base}";\n\nexport async function resetBoth(a: string, b: string) {\n  ${mark(times)}\n  await Promise.all([${call("a")}, ${call("b")}]);\n}\n`;
    const input = windows(source("https://rest.runpod.io/v1", "")).toString("utf8");
    const out = analyzeSource(input, { fileName: path.resolve("bom-crlf-virtual.ts") }).output;
    // The same result as the LF file's, in CRLF with the BOM: the mark counts both calls (×2) in place.
    const lf = analyzeSource(source("https://rest.runpod.io/v1", ""), { fileName: path.resolve("bom-crlf-virtual.ts") }).output;
    expect(lf).toContain(short);
    expect(lf).not.toContain("advice:");
    expect(out).toBe(windows(lf).toString("utf8"));
  });
});
