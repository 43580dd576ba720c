// A class over its own axios instance, with calls that stay v1 for true reasons, runs after
// `rewrite --write`: the kept calls carry RUNPOD_V1_BASE through the private methods they go
// through (a per-request `baseURL`) and reach the gateway whole, while the instance's base flips
// and the other calls reach v2. Before, the kept calls pinned the instance to v1 and every call
// went there in v1 shape.
import { cpSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { e2eScope } from "./e2e-servers.ts";

const V2_ORIGIN = "https://api.runpod.io";

describe("calls kept on v1 through a class's private methods carry their own base", () => {
  const scope = e2eScope("codemod-kept-own-base-");
  const tmp = scope.tmp;

  it("sends kept calls whole to the gateway and the rest to v2", async () => {
    cpSync(path.join(FIXTURES, "classes/private-methods-over-instance/input.ts"), path.join(tmp, "fleet.ts"));
    // The rewritten module imports axios from the project.
    symlinkSync(path.resolve("node_modules"), path.join(tmp, "node_modules"), "dir");
    const result = await runCodemod({ paths: [tmp], write: true, adapter: false });
    const marked = result.findings.filter((f) => f.category !== "auto").map((f) => f.operation).sort();
    expect(marked).toEqual(["ListTemplates", "UpdatePod#post-update"]);
    const text = readFileSync(path.join(tmp, "fleet.ts"), "utf8");
    expect(text).toContain(`baseURL: "${V2_ORIGIN}/v2"`);
    expect(text).not.toContain("kept on v1");

    const { sandbox, gateway } = await scope.servers();
    const key = "sandbox_kept_own_base";
    const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const made = await fetch(`${gateway.url}/v1/pods`, { method: "POST", headers: auth, body: JSON.stringify({ name: "own-base-e2e", imageName: "nginx:latest", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], gpuCount: 1 }) });
    expect(made.ok).toBe(true);
    const podId = ((await made.json()) as { id: string }).id;

    const { GpuFleet } = await import(pathToFileURL(path.join(tmp, "fleet.ts")).href);
    const fleet = new GpuFleet(key);
    // Each request as axios sends it (its base merged per request); the public v2 host is served by the sandbox.
    const seen: string[] = [];
    fleet.http.interceptors.request.use((config: { method?: string; baseURL?: string; url?: string }) => {
      const base = config.baseURL ?? "";
      seen.push(`${config.method?.toUpperCase()} ${base.startsWith(gateway.url) ? "gateway" : base.startsWith(V2_ORIGIN) ? "v2" : base} ${config.url}`);
      if (base.startsWith(V2_ORIGIN)) config.baseURL = sandbox.url + base.slice(V2_ORIGIN.length);
      return config;
    });

    await fleet.pause(podId);
    const pod = (await (await fetch(`${sandbox.url}/v2/pods/${podId}`, { headers: auth })).json()) as { status: string };
    expect(pod.status).toBe("EXITED");
    await fleet.rename(podId, "renamed-e2e");
    expect(await fleet.podNames()).toContain("renamed-e2e");
    expect(Array.isArray(await fleet.templateNames("false"))).toBe(true);

    expect(seen).toEqual([
      `POST v2 /pods/${podId}/action`,
      `POST gateway /pods/${podId}/update`,
      "GET v2 /pods",
      "GET gateway /templates",
    ]);
  }, 120_000); // a codemod run, a sandbox and a gateway, on two shared cores
});
