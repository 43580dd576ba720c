// End to end on real files: the real `v2-bridge audit` before and after `v2-bridge rewrite --write`,
// then `v2-bridge report` over both audits. Checks that the audit's JSON meets the report's input
// contract and that the burn-down goes down.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildReport, checkAudit, loadAudits, mappingTable } from "../../report/index.ts";
import { BUILT_CLI } from "../helpers/cli.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BUILT_CLI, ...args], { cwd: ROOT, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const SOURCE = `const BASE = "https://rest.runpod.io/v1";
export async function start(id: string) {
  await fetch(\`\${BASE}/pods/\${id}/start\`, { method: "POST" });
}
export async function reset(id: string) {
  await fetch(\`\${BASE}/pods/\${id}/reset\`, { method: "POST" });
}
export async function template(id: string) {
  const r = await fetch(\`\${BASE}/templates/\${id}\`);
  return r.json();
}
`;

describe("audit → rewrite → audit → report", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "v2-bridge-pipeline-"));
    mkdirSync(path.join(dir, "app", "src"), { recursive: true });
    writeFileSync(path.join(dir, "app", "src", "pods.ts"), SOURCE);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Four CLI processes (tsx + ts-morph start-up each): give it more than the default 30 s on a busy CI box.
  it("the report reads real audits and shows the burn-down going down", { timeout: 120_000 }, async () => {
    const app = path.join(dir, "app");
    const before = path.join(dir, "audit-before.json");
    const after = path.join(dir, "audit-after.json");

    const a1 = await cli(["audit", app, "--format", "json", "--out", before, "--no-progress"]);
    expect(a1.code, a1.stderr).toBe(1); // some v1 usage left
    expect(checkAudit(JSON.parse(readFileSync(before, "utf8")))).toEqual({ ok: true });

    const rw = await cli(["rewrite", app, "--write", "--no-progress", "--no-diff"]);
    expect(rw.code, rw.stderr).toBe(0);
    const a2 = await cli(["audit", app, "--format", "json", "--out", after, "--no-progress"]);
    expect([0, 1], a2.stderr).toContain(a2.code);
    expect(checkAudit(JSON.parse(readFileSync(after, "utf8")))).toEqual({ ok: true });

    const audits = await loadAudits([after, before]);
    const model = buildReport(mappingTable(), audits, null);
    expect(model.burndown).toHaveLength(2);
    const [first, last] = model.burndown;
    expect(first!.total).toBeGreaterThan(last!.total);
    expect(first!.byCategory.auto).toBeGreaterThan(0);
    // Reset has no v2 form: it is still there after the rewrite, at the top of the page.
    expect(model.attention[0]).toMatchObject({ key: "ResetPod", codeSites: 1 });
    expect(model.operations.find((r) => r.key === "StartPod")).toBeUndefined();

    const out = path.join(dir, "report.html");
    const rep = await cli(["report", "--code", before, "--code", after, "--out", out]);
    expect(rep.code, rep.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<svg");
    expect(html).toContain('data-key="ResetPod"');
  });
});
