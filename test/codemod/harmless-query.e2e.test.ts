// Harmless query values and URL builders' default queries after `rewrite --write`, run for real
// against the strict v2 sandbox (it answers 422 to a query parameter v2 does not document): the
// migrated calls reach v2 without the dropped parameters, a builder's empty query leaves a bare
// `?` that v2 takes, and the marked calls still work whole through the gateway. Before, every one
// of these calls was marked and went to the gateway.
import { cpSync, symlinkSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { e2eScope } from "./e2e-servers.ts";

describe("harmless query values and builders' default queries, run after the rewrite", () => {
  const viaGateway: string[] = [];
  const scope = e2eScope("codemod-harmless-query-", { gateway: { onUpstreamRequest: (r) => viaGateway.push(`${r.method} ${r.path}`) } });
  const tmp = scope.tmp;

  it("migrated calls reach v2 as v2 requests; marked ones go whole through the gateway", async () => {
    cpSync(path.join(FIXTURES, "urls/query-harmless-values/input.ts"), path.join(tmp, "harmless.ts"));
    cpSync(path.join(FIXTURES, "urls/url-builder-default-query/input.ts"), path.join(tmp, "builder.ts"));
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(tmp, "node_modules"));
    const result = await runCodemod({ paths: [tmp], write: true, adapter: false });
    const marked = result.findings.filter((f) => f.operation && f.category !== "auto").map((f) => `${path.basename(f.file)} ${f.operation}`).sort();
    expect(marked).toEqual([
      ...["EndpointBilling", "EndpointBilling", "EndpointBilling", "ListTemplates", "ListTemplates", "ListTemplates", "ListTemplates", "PodBilling"].map((op) => `harmless.ts ${op}`),
      "builder.ts ListPods",
      "builder.ts ListPods",
      // Template lists that leave includeEndpointBoundTemplates out: migrated, and marked for v1's default (v2 lists them).
      "builder.ts ListTemplates",
      "builder.ts ListTemplates",
    ].sort());

    const { sandbox, gateway } = await scope.servers();
    // Every request the sandbox answers, with its status (the gateway's too: `viaGateway` lists those).
    const answered: string[] = [];
    sandbox.app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      res.on("finish", () => answered.push(`${res.statusCode} ${req.method} ${req.url}`));
    });
    process.env.RUNPOD_REST_V2 = `${sandbox.url}/v2`;
    process.env.RUNPOD_REPORT = `${gateway.url}/v1`;
    process.env.RUNPOD_API_KEY = "sandbox_harmless_query";
    const auth = { Authorization: "Bearer sandbox_harmless_query", "Content-Type": "application/json" };
    const v1 = async (p: string, body: unknown) => ((await (await fetch(`${gateway.url}/v1${p}`, { method: "POST", headers: auth, body: JSON.stringify(body) })).json()) as { id: string }).id;
    const templateId = await v1("/templates", { name: "mine", imageName: "busybox" });
    const slsTemplate = await v1("/templates", { name: "sls", imageName: "worker:1", isServerless: true });
    const endpointId = await v1("/endpoints", { name: "ep", templateId: slsTemplate, gpuTypeIds: ["NVIDIA RTX A5000"] });
    const podId = await v1("/pods", { name: "pod", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] });
    await v1("/networkvolumes", { name: "vol", size: 10, dataCenterId: "EU-RO-1" });
    answered.length = 0;
    viaGateway.length = 0;

    const h = await import(pathToFileURL(path.join(tmp, "harmless.ts")).href);
    expect(await h.myTemplateNames()).toEqual(["mine", "sls"]);
    expect(await h.podName(podId)).toBe("pod");
    expect(await h.endpointName(endpointId)).toBe("ep");
    expect(await h.templateName(templateId)).toBe("mine");
    expect(typeof (await h.endpointSpend("2026-11-01T00:00:00Z"))).toBe("number");
    expect(await h.podSpendRows()).toBeGreaterThan(0);
    expect(await h.podCount()).toBe(1);
    expect(await h.podImage(podId)).toBe("busybox");
    expect(await h.podSpendSince("2026-11-01T00:00:00Z")).toBeGreaterThan(0);
    const b = await import(pathToFileURL(path.join(tmp, "builder.ts")).href);
    // The URL a builder hands to fetch ends in a bare `?` (fetch sends the path without it).
    const handed = scope.recordFetch(gateway.url, { handed: true });
    expect(await b.volumeRegions()).toEqual(["EU-RO-1"]);
    expect(handed).toEqual([`${sandbox.url}/v2/network-volumes?`]);
    expect(await b.podSpendRows()).toBeGreaterThan(0);
    expect(typeof (await b.endpointSpend(endpointId))).toBe("number");
    expect(await b.templateNames()).toEqual(["mine", "sls"]);
    expect(await b.ownTemplateCount()).toBe(2);
    expect(viaGateway).toEqual([]);
    expect(answered).toEqual([
      "200 GET /v2/templates",
      `200 GET /v2/pods/${podId}`,
      `200 GET /v2/serverless/${endpointId}`,
      `200 GET /v2/templates/${templateId}`,
      "200 GET /v2/billing/serverless?startTime=2026-11-01T00:00:00Z",
      "200 GET /v2/billing/pods?bucketSize=day",
      "200 GET /v2/pods",
      `200 GET /v2/pods/${podId}`,
      "200 GET /v2/billing/pods?bucketSize=day&startTime=2026-11-01T00:00:00Z",
      "200 GET /v2/network-volumes",
      "200 GET /v2/billing/pods?bucketSize=day",
      `200 GET /v2/billing/serverless?serverlessId=${endpointId}&bucketSize=day`,
      "200 GET /v2/templates",
      "200 GET /v2/templates",
    ]);

    // Sent as it is written, a bare `?` is still the v2 operation.
    const bare = await new Promise<number>((resolve, reject) => {
      const url = new URL(sandbox.url);
      http.get({ host: url.hostname, port: url.port, path: "/v2/network-volumes?", headers: { authorization: auth.Authorization } }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on("error", reject);
    });
    expect([bare, answered.at(-1)]).toEqual([200, "200 GET /v2/network-volumes?"]);

    // The marked calls, unchanged, through the gateway's /v1.
    answered.length = 0;
    expect(await h.communityTemplates()).toBeGreaterThan(2);
    expect(await h.spendByGpu()).toBeGreaterThanOrEqual(0);
    expect(await b.gpuPodCount()).toBe(1);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.map((a) => a.replace(/^\d+ /, "")).sort()).toEqual([...viaGateway].sort());
    expect(answered.every((a) => a.startsWith("200 ")), answered.join("\n")).toBe(true);
  }, 120_000); // a codemod run, a sandbox and a gateway, on two shared cores
});
