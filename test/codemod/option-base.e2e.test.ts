// A helper whose base is an option with a v1 default (`const { baseUrl = "…/v1" } = options`),
// with one call marked and one migrated, runs after `rewrite --write`: the marked call gives the
// declared v1 base in the option and goes whole through the gateway, the migrated one reaches v2
// on the flipped default. Before, the helper got `runpodBase = baseUrl`, a parameter default
// naming a body const: the migrated call threw `ReferenceError: baseUrl is not defined`.
import { cpSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { e2eScope } from "./e2e-servers.ts";

describe("a helper taking its base from an option runs after the rewrite", () => {
  const scope = e2eScope("codemod-option-base-");
  const tmp = scope.tmp;

  it("sends the marked call through the gateway and the migrated one to v2", async () => {
    cpSync(path.join(FIXTURES, "helpers/base-from-option-default-cjs/input.cjs"), path.join(tmp, "client.cjs"));
    const result = await runCodemod({ paths: [tmp], write: true });
    expect(result.findings.filter((f) => f.category !== "auto").map((f) => f.operation)).toEqual(["StopPod", "ResetPod"]);
    expect(readFileSync(path.join(tmp, "client.cjs"), "utf8")).not.toContain("runpodBase");

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_API_KEY = "sandbox_option_base";
    const auth = { Authorization: "Bearer sandbox_option_base", "Content-Type": "application/json" };
    const realFetch = globalThis.fetch;
    // The flipped default names the real v2 host: it is served by the sandbox here.
    const seen = scope.recordFetch(gateway.url, { serve: { "https://api.runpod.io": sandbox.url } });

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
