// A helper whose base is an option with a v1 default (`const { baseUrl = "…/v1" } = options`),
// with one call marked and one migrated, runs after `rewrite --write`: the marked call gives the
// declared v1 base in the option and goes whole through the gateway, the migrated one reaches v2
// on the flipped default. Before, the helper got `runpodBase = baseUrl`, a parameter default
// naming a body const: the migrated call threw `ReferenceError: baseUrl is not defined`.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";

describe("a helper taking its base from an option runs after the rewrite", () => {
  const closers: (() => Promise<unknown>)[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), "codemod-option-base-"));
  const saved = { ...process.env };
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    process.env = saved;
    rmSync(tmp, { recursive: true, force: true });
  });

  it("sends the marked call through the gateway and the migrated one to v2", async () => {
    cpSync(path.join(FIXTURES, "helpers/base-from-option-default-cjs/input.cjs"), path.join(tmp, "client.cjs"));
    const result = await runCodemod({ paths: [tmp], write: true });
    expect(result.findings.filter((f) => f.category !== "auto").map((f) => f.operation)).toEqual(["StopPod", "ResetPod"]);
    expect(readFileSync(path.join(tmp, "client.cjs"), "utf8")).not.toContain("runpodBase");

    const { startSandbox } = await import("../../sandbox/server.ts");
    const { startGateway } = await import("../../gateway/server.ts");
    const sandbox = await startSandbox({ port: 0, bootMs: 0, warn: () => {} } as any);
    closers.push(() => sandbox.close());
    const gateway = await startGateway({ upstream: sandbox.url, port: 0, timeoutMs: 5_000 } as any);
    closers.push(() => gateway.close());
    process.env.RUNPOD_V1_BASE = `${gateway.url}/v1`;
    process.env.RUNPOD_API_KEY = "sandbox_option_base";
    const auth = { Authorization: "Bearer sandbox_option_base", "Content-Type": "application/json" };
    const realFetch = globalThis.fetch;
    const seen: string[] = [];
    // The flipped default names the real v2 host: it is served by the sandbox here.
    globalThis.fetch = (async (input: any, init?: any) => {
      const url = new URL(String(input));
      const to = url.origin === "https://api.runpod.io" ? `${sandbox.url}${url.pathname}${url.search}` : String(input);
      seen.push(`${init?.method ?? "GET"} ${url.origin === gateway.url ? "gateway" : url.origin === "https://api.runpod.io" ? "v2" : url.origin} ${url.pathname}`);
      return realFetch(to, init);
    }) as typeof fetch;
    closers.push(async () => void (globalThis.fetch = realFetch));

    const created = await realFetch(`${gateway.url}/v1/pods`, { method: "POST", headers: auth, body: JSON.stringify({ name: "option-base", imageName: "nginx:latest", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], gpuCount: 1 }) });
    expect(created.status).toBeLessThan(300);
    const id = ((await created.json()) as { id: string }).id;

    const client = createRequire(import.meta.url)(path.join(tmp, "client.cjs"));
    expect(await client.stopPod(id)).toBeLessThan(300);
    const pod = (await (await realFetch(`${sandbox.url}/v2/pods/${id}`, { headers: auth })).json()) as { status: string };
    expect(pod.status).toBe("EXITED");
    expect(await client.deletePod(id)).toBeLessThan(300);
    expect((await realFetch(`${sandbox.url}/v2/pods/${id}`, { headers: auth })).status).toBe(404);
    expect(seen).toEqual([`POST gateway /v1/pods/${id}/stop`, `DELETE v2 /v2/pods/${id}`]);
  });
});
