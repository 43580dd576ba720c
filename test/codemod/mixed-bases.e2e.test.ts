// Every intermediate state runs: a client whose calls the codemod partly migrates and partly marks
// is run after `rewrite --write` with RUNPOD_V1_BASE pointed at the gateway and the v2 base at the
// sandbox the gateway fronts. Migrated calls reach v2 directly, marked calls go whole through the
// gateway, and every call succeeds on the same account.
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { e2eScope } from "./e2e-servers.ts";

describe("a partly migrated client runs: marked calls through the gateway, the rest on v2", () => {
  const scope = e2eScope("codemod-mixed-");
  const tmp = scope.tmp;

  it("runs every call after the rewrite", async () => {
    cpSync(path.join(FIXTURES, "client-mixed"), tmp, { recursive: true });
    const result = await runCodemod({ paths: [tmp], write: true });
    const text = readFileSync(path.join(tmp, "pods.ts"), "utf8");
    // Both halves exist: calls on the declared v1 base (marked) and calls on the v2 base.
    expect(text).toContain("const RUNPOD_V1_BASE = process.env.RUNPOD_V1_BASE");
    expect(text.match(/\$\{RUNPOD_V1_BASE\}/g)!.length).toBe(1);
    expect(text.match(/\$\{BASE\}/g)!.length).toBe(4);
    const marked = result.findings.filter((f) => f.operation && f.category !== "auto").map((f) => f.operation).sort();
    expect(marked).toEqual(["CreatePod"]);

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_API_V2 = `${sandbox.url}/v2`;
    process.env.RUNPOD_API_KEY = "sandbox_mixed";
    const seen = scope.recordFetch(gateway.url);

    const client = await import(pathToFileURL(path.join(tmp, "pods.ts")).href);
    const id: string = await client.createPod({ name: "mixed-e2e", imageName: "nginx:latest", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], gpuCount: 1 });
    expect(id).toBeTruthy();
    expect(typeof (await client.isRunning(id))).toBe("boolean");
    await client.stopPod(id);
    expect(await client.isRunning(id)).toBe(false);
    expect(await client.podNames()).toContain("mixed-e2e");
    await client.deletePod(id);
    expect(await client.podNames()).not.toContain("mixed-e2e");

    // Marked calls went through the gateway in v1 shape; migrated ones straight to v2 paths.
    expect(seen).toEqual([
      "POST gateway /v1/pods",
      `GET v2 /v2/pods/${id}`,
      `POST v2 /v2/pods/${id}/action`,
      `GET v2 /v2/pods/${id}`,
      "GET v2 /v2/pods",
      `DELETE v2 /v2/pods/${id}`,
      "GET v2 /v2/pods",
    ]);
  });
});
