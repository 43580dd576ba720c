// Audit: text/json/sarif shapes, exit codes (0 none, 1 some, 2 error), .gitignore and
// node_modules respected, secrets redacted. Real temp directories on disk.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync, statSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { audit } from "../../cli/audit-command.ts";
import { rewrite } from "../../cli/rewrite-command.ts";
import { runCodemod } from "../../codemod/project.ts";
import { auditSarif } from "../../codemod/report.ts";
import { VERSION } from "../../product/package-info.ts";
import { SOURCE_CLI } from "../helpers/cli.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-audit-"));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const V1_FILE = `const API = "https://rest.runpod.io/v1";
const KEY = "rpa_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
export async function reset(id: string) {
  await fetch(\`\${API}/pods/\${id}/reset\`, { method: "POST", headers: { Authorization: "Bearer rpa_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345" } });
}
export async function list(): Promise<{ id: string; name: string }[]> {
  const res = await fetch(\`\${API}/pods\`, { headers: { Authorization: \`Bearer \${KEY}\` } });
  return res.json();
}
`;

async function capture(fn: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((c: any) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((c: any) => ((stderr += String(c)), true));
  try {
    return { code: await fn(), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe("audit", () => {
  it("json: the exact report shape, relative paths, categories, redacted snippets", async () => {
    const dir = project({ "src/client.ts": V1_FILE, "src/clean.ts": "export const x = 1;\n" });
    const { code, stdout } = await capture(() => audit([dir], { format: "json", progress: false }));
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(["tool", "version", "toolVersion", "generatedAt", "root", "summary", "findings"]);
    expect(report.tool).toBe("v2-bridge");
    expect(report.version).toBe(1);
    expect(report.toolVersion).toBe(VERSION);
    expect(new Date(report.generatedAt).toISOString()).toBe(report.generatedAt);
    expect(report.root).toBe(dir);
    expect(report.summary).toEqual({ files: 2, filesWithFindings: 1, findings: 2, byCategory: { auto: 1, review: 0, "no-equivalent": 1 } });
    for (const f of report.findings) {
      // `problems`: every problem of a site a human must decide, with its advice.
      expect(Object.keys(f)).toEqual(["file", "line", "column", "operation", "v1", "v2", "category", "reason", "advice", "snippet", ...(f.category === "auto" ? [] : ["problems"])]);
      expect(f.file).toBe("src/client.ts");
    }
    const reset = report.findings.find((f: any) => f.operation === "ResetPod");
    expect(reset).toMatchObject({ line: 4, column: 9, v1: { method: "POST", path: "/pods/{podId}/reset" }, v2: null, category: "no-equivalent" });
    expect(reset.snippet).not.toContain("rpa_");
    expect(reset.snippet).toContain("<redacted>");
    const list = report.findings.find((f: any) => f.operation === "ListPods");
    expect(list).toMatchObject({ v1: { method: "GET", path: "/pods" }, v2: { method: "GET", path: "/v2/pods" }, category: "auto" });
    // Call sites are counted, not base strings: the base constant itself is no finding.
    expect(report.findings.find((f: any) => f.operation === null)).toBeUndefined();
    expect(stdout).not.toContain("rpa_ABCDEF");
  });

  it("sarif: minimal SARIF 2.1.0 structure", async () => {
    const dir = project({ "a.ts": V1_FILE });
    const result = await runCodemod({ paths: [dir] });
    const sarif = auditSarif(result) as any;
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/);
    expect(sarif.runs).toHaveLength(1);
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe("v2-bridge");
    const ruleIds = run.tool.driver.rules.map((r: any) => r.id);
    expect(run.results).toHaveLength(2);
    for (const r of run.results) {
      expect(ruleIds).toContain(r.ruleId);
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
      expect(["note", "warning", "error"]).toContain(r.level);
      expect(typeof r.message.text).toBe("string");
      const loc = r.locations[0].physicalLocation;
      expect(loc.artifactLocation.uri).toBe("a.ts");
      expect(loc.region.startLine).toBeGreaterThan(0);
      expect(loc.region.startColumn).toBeGreaterThan(0);
    }
    expect(run.results.find((r: any) => r.ruleId === "ResetPod").level).toBe("error");
    expect(JSON.stringify(sarif)).not.toContain("rpa_ABCDEF");
  });

  it("text: one block per finding and a summary line", async () => {
    const dir = project({ "a.ts": V1_FILE });
    const { code, stdout } = await capture(() => audit([dir], { format: "text", progress: false }));
    expect(code).toBe(1);
    expect(stdout).toMatch(/^a\.ts:4:9 {2}no-equivalent +ResetPod/m);
    expect(stdout).toMatch(/a\.ts:7:\d+ {2}auto +ListPods → GET \/v2\/pods/);
    expect(stdout).toMatch(/1 files scanned, 1 with v1 usage: 2 findings \(1 auto, 0 review, 1 no-equivalent\)/);
  });

  it("exit codes: 0 when clean, 1 with findings, 2 on error", async () => {
    const clean = project({ "a.ts": 'export const API = "https://api.runpod.io/v2";\n' });
    expect((await capture(() => audit([clean], { format: "json", progress: false }))).code).toBe(0);
    const dirty = project({ "a.ts": V1_FILE });
    expect((await capture(() => audit([dirty], { format: "json", progress: false }))).code).toBe(1);
    const missing = await capture(() => audit([path.join(clean, "nope")], { format: "json", progress: false }));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
  });

  // The development entry (tsx over the sources), as `npm start` runs it: the other CLI tests run the build.
  it("the CLI process exits with the audit's code", async () => {
    const dirty = project({ "a.ts": V1_FILE });
    const run = promisify(execFile);
    const err = await run(process.execPath, [SOURCE_CLI, "audit", dirty, "--format", "json"]).catch((e) => e);
    expect(err.code).toBe(1);
    expect(JSON.parse(err.stdout).summary.findings).toBe(2);
  });

  it("flags converter-based record field reads and table-decided query parameters; a marked call stays whole", async () => {
    const src = [
      'const API = "https://rest.runpod.io/v1";',
      "export async function f(id: string) {",
      "  const pod = await (await fetch(`${API}/pods/${id}`)).json();",
      // templateId: v2 pods keep no template link, so the filter cannot move to the client (desiredStatus would).
      "  const list = await (await fetch(`${API}/pods?templateId=t1`)).json();",
      "  return [pod.costPerHr, pod.containerDiskInGb, list.length];",
      "}",
      "export const g = (p: any) => p.desiredStatus;",
    ].join("\n");
    const dir = project({ "a.ts": src });
    const result = await runCodemod({ paths: [dir], write: true });
    const review = result.findings.filter((f) => f.category === "review");
    expect(review).toHaveLength(2);
    expect(review.map((f) => f.reason)).toEqual(expect.arrayContaining([
      "query parameter templateId (emulate): v2 lists take no filter parameters",
      // costPerHr needs the live GPU catalog: no source form rewrites the read.
      expect.stringContaining("reads v1 record field costPerHr (a.ts:5), which is cost + status + gpu + cpu + cloud in v2"),
    ]));
    const out = readFileSync(path.join(dir, "a.ts"), "utf8");
    // Both calls are marked, so both stay whole in v1 shape on the declared v1 base: nothing renamed.
    expect(out).toContain("pod.containerDiskInGb");
    expect(out).toContain("fetch(`${RUNPOD_V1_BASE}/pods/${id}`)");
    expect(out).toContain("p.desiredStatus;"); // origin unknown: untouched
    expect(out.match(/TODO\(v2-migration\)/g)).toHaveLength(2);
  });

  it("respects .gitignore and node_modules", async () => {
    const dir = project({
      ".gitignore": "generated/\n",
      "src/a.ts": V1_FILE,
      "generated/b.ts": V1_FILE,
      "node_modules/lib/index.js": V1_FILE.replace(/: string/g, ""),
      "src/node_modules/x/y.js": V1_FILE.replace(/: string/g, ""),
    });
    const result = await runCodemod({ paths: [dir] });
    expect(result.summary.files).toBe(1);
    expect(new Set(result.findings.map((f) => f.file))).toEqual(new Set(["src/a.ts"]));
  });

  it("a file that does not parse is reported and left alone", async () => {
    const broken = 'const API = "https://rest.runpod.io/v1";\nexport function f( {\n';
    const dir = project({ "broken.ts": broken, "ok.ts": V1_FILE });
    const result = await runCodemod({ paths: [dir], write: true });
    expect(result.parseErrors.map((e) => e.file)).toEqual(["broken.ts"]);
    expect(readFileSync(path.join(dir, "broken.ts"), "utf8")).toBe(broken);
    expect(readFileSync(path.join(dir, "ok.ts"), "utf8")).toContain("https://api.runpod.io/v2");
  });
});

describe("rewrite command", () => {
  it("dry run prints a diff and a summary and writes nothing; --check exits 1; --write applies atomically keeping the mode", async () => {
    const dir = project({ "a.ts": V1_FILE, "b.ts": "export const y = 2;\n" });
    const file = path.join(dir, "a.ts");
    chmodSync(file, 0o640);
    const dry = await capture(() => rewrite([dir], { progress: false }));
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("--- a/a.ts");
    expect(dry.stdout).toContain("+const API = \"https://api.runpod.io/v2\";");
    expect(dry.stdout).not.toContain("b.ts");
    expect(dry.stderr).toMatch(/files scanned: +2/);
    expect(dry.stderr).toMatch(/v1 call sites found: +2/);
    expect(dry.stderr).toMatch(/rewritten: +1/);
    expect(dry.stderr).toMatch(/left for review: +1/);
    expect(readFileSync(file, "utf8")).toBe(V1_FILE);
    expect((await capture(() => rewrite([dir], { check: true, progress: false }))).code).toBe(1);
    const mtimeB = statSync(path.join(dir, "b.ts")).mtimeMs;
    expect((await capture(() => rewrite([dir], { write: true, progress: false }))).code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("/pods/${id}/reset");
    expect(readFileSync(file, "utf8")).toContain("TODO(v2-migration) ResetPod (no-equivalent)");
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(statSync(path.join(dir, "b.ts")).mtimeMs).toBe(mtimeB);
    expect((await capture(() => rewrite([dir], { check: true, progress: false }))).code).toBe(0);
    // The audit after the rewrite reports what is left for a human.
    const after = JSON.parse((await capture(() => audit([dir], { format: "json", progress: false }))).stdout);
    expect(after.findings.map((f: any) => [f.operation, f.category])).toEqual([["ResetPod", "no-equivalent"]]);
  });
});
