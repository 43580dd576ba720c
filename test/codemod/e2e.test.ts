// End to end: a realistic multi-file v1 client (a module helper, a class client with a base
// option, a factory-made helper over a fetch wrapper), run as written against the gateway (v1 →
// v2 sandbox), then rewritten by the codemod and run directly against the sandbox. Both runs
// must observe the same things.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";

const gatewayReady = existsSync(path.resolve("gateway/server.ts")) && existsSync(path.resolve("sandbox/server.ts"));

describe.skipIf(!gatewayReady)("client-app: original via the gateway vs rewritten against v2", () => {
  let tmp: string;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "codemod-client-app-"));
    cpSync(path.join(FIXTURES, "client-app"), path.join(tmp, "original"), { recursive: true });
    cpSync(path.join(FIXTURES, "client-app"), path.join(tmp, "rewritten"), { recursive: true });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("observes the same pods, lifecycle, volumes and error handling", async () => {
    const result = await runCodemod({ paths: [path.join(tmp, "rewritten")], write: true });
    // Left for review: the mark saying a caller-supplied base must be the v2 base, and the template
    // list's note that v2 lists endpoint-bound templates too (migrated; v1 left them out by default).
    expect(result.findings.filter((f) => f.category !== "auto").map((f) => f.reason)).toEqual([expect.stringContaining("the v2 base applies only when"), expect.stringContaining("includeEndpointBoundTemplates not given")]);
    expect(result.summary.filesChanged).toBe(6);
    const rewrittenPods = readFileSync(path.join(tmp, "rewritten", "pods.ts"), "utf8");
    expect(rewrittenPods).toContain('"/pods/${id}/action"'.replace(/"/g, "`"));
    expect(rewrittenPods).not.toContain("imageName");

    const { startSandbox } = await import("../../sandbox/server.ts");
    const { startGateway } = await import("../../gateway/server.ts");
    // Two independent v2 accounts, so the runs do not see each other's pods.
    const sandboxA = await startSandbox({ port: 0, warn: () => {} } as any);
    closers.push(() => sandboxA.close());
    const gateway = await startGateway({ upstream: sandboxA.url, port: 0, timeoutMs: 5_000 } as any);
    closers.push(() => gateway.close());
    const sandboxB = await startSandbox({ port: 0, warn: () => {} } as any);
    closers.push(() => sandboxB.close());

    const original = await import(pathToFileURL(path.join(tmp, "original", "main.ts")).href);
    const rewritten = await import(pathToFileURL(path.join(tmp, "rewritten", "main.ts")).href);
    const viaGateway = await original.run(`${gateway.url}/v1`, "sandbox_codemod");
    const direct = await rewritten.run(`${sandboxB.url}/v2`, "sandbox_codemod");

    expect(viaGateway).toEqual({
      created: "codemod-e2e",
      countDelta: 1,
      names: ["codemod-e2e"],
      lifecycle: ["stopped", "started"],
      renamed: ["codemod-e2e-renamed"],
      volumes: ["codemod-vol"],
      error: { status: 404, hasMessage: true },
      afterDelete: 0,
      templates: ["codemod-tpl"],
      templateRenamed: "codemod-tpl-2",
      templatesLeft: 0,
    });
    expect(direct).toEqual(viaGateway);
  });
});
