// `v2-bridge verify` on the repository's own end-to-end client (test/fixtures/codemod/client-app,
// exercised by its run script): the codemod's rewrite verifies clean, and each deliberately wrong
// rewrite is caught at the call site that is wrong.
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/cli.ts";
import { runVerify } from "../../verify/index.ts";
import { renderText } from "../../verify/render-text.ts";
import type { Difference, VerifyReport } from "../../verify/report-types.ts";
import { formatSite } from "../../verify/sites.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { cleanupProjects, clientApp, inject, project, rewritten } from "./helpers.ts";

const BIN = BUILT_CLI;
const RUN = ["node", "--import", "tsx", "run.ts"];

function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "verify", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every site a report names (divergence and differences), as text. */
const sites = (items: (Difference | null)[]) =>
  items.flatMap((d) => (d ? [d.before?.site, d.after?.site].filter(Boolean).map((s) => formatSite(s!)) : []));

describe.skipIf(missingReference)(refSuite("verify: the e2e client"), { timeout: 120_000 }, () => {
  afterAll(cleanupProjects);

  it("the codemod's rewrite verifies clean (CLI, --format json; the text report rendered from it)", async () => {
    const dir = clientApp();
    const run = await cli(["--format", "json", "--compare-output", "--", ...RUN], dir);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = JSON.parse(run.stdout) as VerifyReport;
    expect(report).toMatchObject({ verdict: "equivalent", differences: [], divergence: null, after: { how: "rewrite", filesChanged: 6 } });
    // Both runs did the whole workload: the original through the gateway, the rewrite straight to v2.
    expect(report.runs.before).toMatchObject({ exitCode: 0, calls: { v1: 17, v2: 0 }, operations: 17 });
    expect(report.runs.after).toMatchObject({ exitCode: 0, calls: { v1: 0, v2: 17 }, operations: 17 });
    expect(report.runs.before.v2Requests).toBeGreaterThanOrEqual(17);
    expect(report.coverage.operations.map((o) => o.operation)).toEqual(expect.arrayContaining(["createPod", "podAction(stop)", "podAction(start)", "updatePod", "createNetworkVolume", "createTemplate", "updateTemplate", "deleteTemplate"]));
    expect(report.coverage.v1Operations).toContainEqual({ operation: "StopPod", calls: 2 });
    expect([report.coverage.sitesExercised, report.coverage.sitesFound, report.coverage.neverExercised]).toEqual([12, 12, []]);
    expect(report.scope).toMatch(/non-Node clients .* out of scope/i);
    const text = renderText(report);
    expect(text).toMatch(/^v2-bridge verify: EQUIVALENT/);
    expect(text).toContain("12 of 12 exercised");
    expect(text).toContain("Result: equivalent (exit 0)");
  });

  it("a rewrite that drops the pod action's body: caught at stopPod", async () => {
    const dir = clientApp();
    const after = await rewritten(dir);
    inject(after, "pods.ts", '"POST", { action: "stop" }', '"POST"');
    const report = await runVerify({ command: RUN, root: dir, cwd: dir, after });
    expect(report.verdict).toBe("different");
    expect(report.divergence!.before).toMatchObject({ operation: "podAction(stop)", status: 200 });
    expect(report.divergence!.after).toMatchObject({ operation: "podAction(no action)", method: "POST" });
    expect(report.divergence!.after!.status).toBeGreaterThanOrEqual(400);
    expect(formatSite(report.divergence!.after!.site)).toMatch(/pods\.ts:\d+ \(stopPod\)/);
    expect(report.differences.find((d) => d.kind === "changed")?.details).toEqual(['body: {"action":"stop"} → (absent)', "after's answer: request body failed validation: request body is required"]);
  });

  it("a rewrite that sends the flat v1 body to v2: caught at createPod, with the sandbox's reasons", async () => {
    const dir = clientApp();
    const after = await rewritten(dir);
    inject(after, "pods.ts", /image: "runpod\/base:0\.6\.2",[\s\S]*?gpu: \{ id: gpu, count: 1 \},/, 'imageName: "runpod/base:0.6.2", gpuTypeIds: [gpu], gpuCount: 1, containerDiskInGb: 20, volumeInGb: 10, ports: ["8888/http"],');
    const report = await runVerify({ command: RUN, root: dir, cwd: dir, after });
    expect(report.verdict).toBe("different");
    const status = report.differences.find((d) => d.kind === "status")!;
    expect(status).toMatchObject({ before: { operation: "createPod", status: 201 }, after: { operation: "createPod", status: 422 } });
    expect(formatSite(status.after!.site)).toMatch(/pods\.ts:\d+ \(createPod\)/);
    expect(status.details!.join("\n")).toMatch(/imageName/);
    expect(report.divergence!.message).toContain("createPod was answered 201 before and 422 after");
  });

  it("a rewrite that no longer unwraps the pod list: the runs part ways right after listPods", async () => {
    const dir = clientApp();
    const after = await rewritten(dir);
    inject(after, "pods.ts", "const { pods } = await request(", "const pods = await request(");
    const report = await runVerify({ command: RUN, root: dir, cwd: dir, after });
    expect(report.verdict).toBe("different");
    // The after run crashes on the list it got: it makes no call after the third one.
    expect(report.divergence!.message).toMatch(/part ways after listPods \(#3, at .*pods\.ts:\d+ \(listPods\)/);
    expect(report.divergence!.after).toBeUndefined();
    const exit = report.differences.find((d) => d.kind === "exit-code")!;
    expect(exit.message).toBe("the command exited 0 before and exited 1 after");
    expect(exit.details!.join("\n")).toMatch(/TypeError/);
  });

  it("a rewrite that reads the wrong billing resource: caught at endpointSpend", async () => {
    const dir = project("verify/billing-client");
    const after = await rewritten(dir);
    inject(after, "billing.mjs", "/billing/serverless", "/billing/endpoints");
    const report = await runVerify({ command: ["node", "main.mjs"], root: dir, cwd: dir, after, compareOutput: true });
    expect(report.verdict).toBe("different");
    const changed = report.differences.find((d) => d.kind === "changed")!;
    expect(changed.before).toMatchObject({ operation: "listServerlessBilling", path: "/v2/billing/serverless?bucketSize=day" });
    expect(changed.after).toMatchObject({ path: "/v2/billing/endpoints?bucketSize=day" });
    expect(formatSite(changed.after!.site)).toMatch(/^billing\.mjs:5 \(endpointSpend\) ← main\.mjs:3/);
    expect(sites([report.divergence])).toEqual([expect.stringContaining("billing.mjs:5"), expect.stringContaining("billing.mjs:5")]);
  });

  it("and the correct billing rewrite verifies clean, stdout included", async () => {
    const dir = project("verify/billing-client");
    const report = await runVerify({ command: ["node", "main.mjs"], root: dir, cwd: dir, compareOutput: true });
    expect(report.differences).toEqual([]);
    expect(report.verdict).toBe("equivalent");
  });

  it("a command that makes no API calls says so instead of passing (exit 2)", async () => {
    const dir = clientApp();
    const run = await cli(["--", "node", "-e", "console.log('hello')"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^v2-bridge verify: NOTHING VERIFIED \(no API calls\)/);
    expect(run.stdout).toContain("the command made no API calls in either run, so nothing was verified: 2 Node processes ran with the preload and none called rest.runpod.io or api.runpod.io");
    expect(run.stdout).toContain("never exercised");
    expect(run.stdout).toMatch(/non-Node clients .* out of scope/i);
  });
});
