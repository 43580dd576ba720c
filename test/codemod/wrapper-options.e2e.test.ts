// A method-first request helper (`call(method, path, { body, query })`) after `rewrite --write`,
// run for real: migrated calls go to the strict v2 sandbox with the action body and converted
// bodies under the option key the helper sends, and query names v2 spells otherwise renamed
// (the sandbox refuses undocumented query parameters with 422); marked calls go whole through the
// gateway. Before, the action body landed in the options slot (v2 answered 4xx) and `endpointId`
// went to /v2/billing/serverless as it was (422).
import { cpSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { e2eScope } from "./e2e-servers.ts";

describe("a method-first helper's options carry the body and the query after the rewrite", () => {
  const scope = e2eScope("codemod-wrapper-opts-");
  const tmp = scope.tmp;

  it("runs every call: v2 directly, marked ones through the gateway", async () => {
    cpSync(path.join(FIXTURES, "helpers/method-first-options/input.ts"), path.join(tmp, "ops.ts"));
    const result = await runCodemod({ paths: [tmp], write: true, adapter: false });
    const marked = result.findings.filter((f) => f.operation && f.category !== "auto").map((f) => f.operation).sort();
    expect(marked).toEqual(["CreateNetworkVolume", "ListPods", "ListPods"]);

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_REST_V2 = `${sandbox.url}/v2`;
    process.env.RUNPOD_API_KEY = "sandbox_wrapper_opts";
    const auth = { Authorization: "Bearer sandbox_wrapper_opts", "Content-Type": "application/json" };

    // A pod to act on, made through the gateway as a v1 client would.
    const made = await fetch(`${gateway.url}/v1/pods`, { method: "POST", headers: auth, body: JSON.stringify({ name: "opts-e2e", imageName: "nginx:latest", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], gpuCount: 1 }) });
    expect(made.ok).toBe(true);
    const podId = ((await made.json()) as { id: string }).id;
    const realFetch = globalThis.fetch;
    const status = async () => ((await (await realFetch(`${sandbox.url}/v2/pods/${podId}`, { headers: auth })).json()) as { status: string }).status;

    const seen = scope.recordFetch(gateway.url, { query: true });

    const ops = await import(pathToFileURL(path.join(tmp, "ops.ts")).href);
    await ops.stopPod(podId);
    expect(await status()).toBe("EXITED");
    await ops.startPod(podId, new AbortController().signal);
    expect(await status()).toBe("RUNNING");
    const volumeId: string = await ops.createVolume("opts-vol");
    await ops.growVolume(volumeId, 200);
    const scratchId: string = await ops.createScratchVolume("opts-scratch");
    expect(await ops.volumeIds({})).toEqual(expect.arrayContaining([volumeId, scratchId]));
    expect(typeof (await ops.endpointSpend("hist01ep000001"))).toBe("number");
    expect(await ops.cpuPodIds()).toEqual([]);
    expect(await ops.podIds({})).toContain(podId);
    await ops.deletePod(podId);

    expect(seen).toEqual([
      `POST v2 /v2/pods/${podId}/action`,
      `POST v2 /v2/pods/${podId}/action`,
      "POST v2 /v2/network-volumes",
      `PATCH v2 /v2/network-volumes/${volumeId}`,
      "POST v2 /v2/network-volumes",
      "GET v2 /v2/network-volumes",
      "GET v2 /v2/billing/serverless?serverlessId=hist01ep000001&bucketSize=day",
      "GET gateway /v1/pods?computeType=CPU",
      "GET gateway /v1/pods",
      `DELETE v2 /v2/pods/${podId}`,
    ]);
  });
});
