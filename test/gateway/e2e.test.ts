// End to end: a v1 client (fetch) → gateway → strict v2 sandbox, for every v1 operation in the
// mapping table, with every answer checked against v1-openapi.json and every upstream request
// against v2-openapi.json.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../mappings/index.ts";
import { NO_CAPACITY_GPU_TYPE } from "../../sandbox/catalog.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectV1Answer, expectValidV2Requests, rawRequest, startRig, v1Client, warningsBesidesLostFields, type Rig } from "./helpers.ts";

describe.skipIf(missingReference)(refSuite("gateway end to end against the v2 sandbox"), () => {
  let rig: Rig;
  const exercised = new Set<string>();
  const v1 = v1Client(() => rig.gateway.url, exercised);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("serves the published v1 document and docs page", async () => {
    const doc = await v1("GET", "/openapi.json", { key: null });
    expect(doc.json.openapi).toBe("3.0.3");
    const page = await v1("GET", "/docs", { key: null });
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("registry credentials: create, list, get", async () => {
    const created = await v1("POST", "/containerregistryauth", { body: { name: "ghcr", username: "u", password: "p" } });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: "ghcr" });
    expect(created.json.password).toBeUndefined();
    ids.registry = created.json.id;
    expect((await v1("GET", "/containerregistryauth")).json.map((r: any) => r.id)).toContain(ids.registry);
    expect((await v1("GET", `/containerregistryauth/${ids.registry}`)).json.id).toBe(ids.registry);
  });

  it("templates: create (flat v1 fields), list, get, PATCH and POST …/update", async () => {
    const created = await v1("POST", "/templates", {
      body: { name: "tpl", imageName: "runpod/pytorch:2", containerDiskInGb: 30, env: { A: "1" }, ports: ["8888/http"], containerRegistryAuthId: ids.registry, dockerStartCmd: ["python", "-m", "http.server"] },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: "tpl", imageName: "runpod/pytorch:2", containerDiskInGb: 30, env: { A: "1" }, containerRegistryAuthId: ids.registry, dockerStartCmd: ["python", "-m", "http.server"] });
    ids.template = created.json.id;
    const body = rig.upstreamCalls.find((c) => c.method === "POST" && c.path === "/v2/templates")!.body!;
    expect(JSON.parse(body)).toMatchObject({ image: "runpod/pytorch:2", disk: 30, registry: ids.registry, args: "python -m http.server" });
    expect((await v1("GET", "/templates")).json.map((t: any) => t.id)).toContain(ids.template);
    expect((await v1("GET", `/templates/${ids.template}?includePublicTemplates=false`)).headers.get("v2-bridge-warning")).toMatch(/includePublicTemplates ignored/);
    expect((await v1("PATCH", `/templates/${ids.template}`, { body: { name: "tpl2" } })).json.name).toBe("tpl2");
    expect((await v1("POST", `/templates/${ids.template}/update`, { body: { containerDiskInGb: 40 } })).json.containerDiskInGb).toBe(40);
  });

  it("network volumes: create, list, get, PATCH, POST …/update, empty update reads back", async () => {
    const created = await v1("POST", "/networkvolumes", { body: { name: "vol", size: 20, dataCenterId: "EU-RO-1" } });
    expect(created.json).toMatchObject({ name: "vol", size: 20, dataCenterId: "EU-RO-1" });
    ids.volume = created.json.id;
    expect((await v1("GET", "/networkvolumes")).json.map((v: any) => v.id)).toContain(ids.volume);
    expect((await v1("GET", `/networkvolumes/${ids.volume}`)).json.dataCenterId).toBe("EU-RO-1");
    expect((await v1("PATCH", `/networkvolumes/${ids.volume}`, { body: { size: 30 } })).json.size).toBe(30);
    expect((await v1("POST", `/networkvolumes/${ids.volume}/update`, { body: { name: "vol2" } })).json.name).toBe("vol2");
    const empty = await v1("PATCH", `/networkvolumes/${ids.volume}`, { body: {} });
    expect(empty.json).toMatchObject({ id: ids.volume, name: "vol2", size: 30 });
  });

  it("pods: create from a template with a GPU priority list and locked, list with filters, lifecycle, updates", async () => {
    const created = await v1("POST", "/pods", {
      body: { name: "pod1", templateId: ids.template, imageName: "runpod/pytorch:2", gpuTypeIds: [NO_CAPACITY_GPU_TYPE, "NVIDIA RTX A5000"], gpuCount: 1, locked: true, countryCodes: ["RO"] },
    });
    expect(created.status).toBe(201);
    expect(created.json.gpu.id).toBe("NVIDIA RTX A5000");
    expect(created.json.locked).toBe(true);
    expect(created.headers.get("v2-bridge-warning")).toMatch(/countryCodes ignored/);
    ids.pod = created.json.id;
    // Unlock so lifecycle actions are allowed.
    expect((await v1("PATCH", `/pods/${ids.pod}`, { body: { locked: false } })).json.locked).toBe(false);

    const cpu = await v1("POST", "/pods", { body: { name: "cpu-pod", imageName: "busybox", computeType: "CPU", vcpuCount: 2 } });
    expect(cpu.json.cpuFlavorId).toBeDefined();
    ids.cpuPod = cpu.json.id;

    const all = await v1("GET", "/pods");
    expect(all.json.map((p: any) => p.id)).toEqual(expect.arrayContaining([ids.pod, ids.cpuPod]));
    const gpuOnly = await v1("GET", "/pods?computeType=GPU&gpuTypeId=NVIDIA%20RTX%20A5000&includeMachine=true");
    expect(gpuOnly.json.map((p: any) => p.id)).toEqual([ids.pod]);
    expect(gpuOnly.headers.get("v2-bridge-warning")).toMatch(/includeMachine ignored/);
    expect((await v1("GET", "/pods?name=cpu-pod")).json.map((p: any) => p.id)).toEqual([ids.cpuPod]);
    expect((await v1("GET", `/pods/${ids.pod}`)).json.id).toBe(ids.pod);

    const stop = await v1("POST", `/pods/${ids.pod}/stop`);
    expect([stop.status, stop.text]).toEqual([200, ""]);
    expect(stop.headers.get("link")).toBe(`<https://api.runpod.io/v2/pods/${ids.pod}/action>; rel="successor-version"`);
    expect((await v1("GET", `/pods/${ids.pod}`)).json.desiredStatus).toBe("EXITED");
    expect((await v1("POST", `/pods/${ids.pod}/start`)).status).toBe(200);
    expect((await v1("POST", `/pods/${ids.pod}/restart`)).status).toBe(200);
    const actions = rig.upstreamCalls.filter((c) => c.path === `/v2/pods/${ids.pod}/action`).map((c) => JSON.parse(c.body!).action);
    expect(actions).toEqual(["stop", "start", "restart"]);

    expect((await v1("PATCH", `/pods/${ids.pod}`, { body: { name: "pod-renamed" } })).json.name).toBe("pod-renamed");
    expect((await v1("POST", `/pods/${ids.pod}/update`, { body: { env: { B: "2" } } })).json.env).toEqual({ B: "2" });
    expect(rig.upstreamCalls.filter((c) => c.method === "PATCH" && c.path === `/v2/pods/${ids.pod}`).length).toBeGreaterThanOrEqual(3);
  });

  it("reset answers the table's v1 400 by default", async () => {
    const r = await v1("POST", `/pods/${ids.pod}/reset`);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/no v2 equivalent.*restart/);
  });

  it("endpoints: create with workers, scaling and gpuTypeIds; read back the same gpuTypeIds; update both ways", async () => {
    const gpuTypeIds = ["NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090"];
    // Endpoints are built from serverless templates (v2 answers 422 for a pod template).
    const serverlessTemplate = await v1("POST", "/templates", { body: { name: "worker-tpl", imageName: "runpod/worker:1", isServerless: true } });
    expect(serverlessTemplate.status).toBe(200);
    const created = await v1("POST", "/endpoints", {
      body: { name: "ep", templateId: serverlessTemplate.json.id, gpuTypeIds, workersMin: 1, workersMax: 4, idleTimeout: 10, scalerType: "REQUEST_COUNT", scalerValue: 3, flashboot: true },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ gpuTypeIds, workersMin: 1, workersMax: 4, scalerType: "REQUEST_COUNT", scalerValue: 3, flashboot: true });
    // v2 rejects an idle timeout with REQUEST_COUNT scaling: the gateway leaves it out and says so.
    expect(created.headers.get("v2-bridge-warning")).toMatch(/idleTimeout ignored/);
    ids.endpoint = created.json.id;
    const sent = JSON.parse(rig.upstreamCalls.find((c) => c.method === "POST" && c.path === "/v2/serverless")!.body!);
    expect(sent).toMatchObject({ workers: { min: 1, max: 4 }, scaling: { type: "REQUEST_COUNT", requestCount: 3 }, flashboot: "FLASHBOOT" });
    expect(sent.workers.idleTimeout).toBeUndefined();
    expect(sent.gpu.pools).toEqual(["AMPERE_24", "ADA_24"]);
    expect((await v1("GET", `/endpoints/${ids.endpoint}`)).json.gpuTypeIds).toEqual(gpuTypeIds);
    expect((await v1("GET", "/endpoints?includeWorkers=true")).json.find((e: any) => e.id === ids.endpoint).gpuTypeIds).toEqual(gpuTypeIds);

    // Only scalerValue: the current scaler type is kept (read-modify-write).
    const patched = await v1("PATCH", `/endpoints/${ids.endpoint}`, { body: { scalerValue: 9 } });
    expect(patched.json).toMatchObject({ scalerType: "REQUEST_COUNT", scalerValue: 9 });
    const posted = await v1("POST", `/endpoints/${ids.endpoint}/update`, { body: { workersMax: 6 } });
    expect(posted.json).toMatchObject({ workersMax: 6, scalerType: "REQUEST_COUNT", scalerValue: 9, gpuTypeIds });
  });

  it("billing: pods, endpoints (→ /v2/billing/serverless) and network volumes", async () => {
    const pods = await v1("GET", "/billing/pods?bucketSize=day&grouping=podId");
    expect(Array.isArray(pods.json)).toBe(true);
    // grouping=podId is v2's own shape: nothing to warn about besides the fields v2 billing lacks.
    expect(warningsBesidesLostFields(pods.headers)).toEqual([]);
    const endpoints = await v1("GET", "/billing/endpoints?endpointId=hist01ep000001");
    expect(endpoints.json.every((r: any) => r.endpointId === "hist01ep000001")).toBe(true);
    expect(rig.upstreamCalls.some((c) => c.path === "/v2/billing/serverless?serverlessId=hist01ep000001")).toBe(true);
    expect(rig.upstreamCalls.some((c) => c.path.startsWith("/v2/billing/endpoints"))).toBe(false);
    await v1("GET", "/billing/networkvolumes");
    const rejected = await v1("GET", "/billing/endpoints?gpuTypeId=NVIDIA%20A40");
    expect(rejected.status).toBe(400);
    expect(rejected.json.message).toMatch(/gpuTypeId/);
  });

  it("deletes answer 204 and the records are gone", async () => {
    for (const [path, id] of [["/pods", ids.pod], ["/pods", ids.cpuPod], ["/endpoints", ids.endpoint], ["/templates", ids.template], ["/networkvolumes", ids.volume], ["/containerregistryauth", ids.registry]] as const) {
      const r = await v1("DELETE", `${path}/${id}`);
      expect([path, r.status, r.text]).toEqual([path, 204, ""]);
    }
    expect((await v1("GET", `/pods/${ids.pod}`)).status).toBe(404);
  });

  it("every upstream request was a documented v2 request with a valid body and query", () => {
    expect(rig.upstreamCalls.length).toBeGreaterThan(30);
    expectValidV2Requests(rig.upstreamCalls);
    for (const c of rig.upstreamCalls) expect(c.headers.authorization).toBe("Bearer sandbox_gateway_test");
  });

  it("every v1 operation of the table (and of v1-openapi.json) was exercised successfully, except reset (rejected by policy)", () => {
    const missing = operations.map((o) => o.key).filter((k) => !exercised.has(k) && k !== "ResetPod");
    expect(missing).toEqual([]);
  });
});

describe.skipIf(missingReference)(refSuite("gateway error paths"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);

  beforeAll(async () => {
    rig = await startRig({ gateway: { resetPolicy: "restart" } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("401 without or with a bad key, as a v1 message", async () => {
    expect((await v1("GET", "/pods", { key: null })).status).toBe(401);
    const bad = await v1("GET", "/pods", { key: "not-a-sandbox-key" });
    expect(bad.status).toBe(401);
    expect(bad.json.message).toMatch(/invalid API key/);
  });

  it("403 with a read-only key keeps the rate-limit headers", async () => {
    const r = await v1("POST", "/networkvolumes", { key: "sandbox_ro_x", body: { name: "v", size: 10, dataCenterId: "EU-RO-1" } });
    expect(r.status).toBe(403);
    expect(r.headers.get("ratelimit")).toMatch(/minute/);
    expect(r.headers.get("ratelimit-policy")).toMatch(/minute/);
  });

  it("404 for unknown records and unknown v1 paths; 405 for a wrong method", async () => {
    expect((await v1("GET", "/pods/doesnotexist")).status).toBe(404);
    expect((await v1("GET", "/nothing/here")).status).toBe(404);
    const wrong = await v1("PUT", "/pods");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toMatch(/GET/);
  });

  it("400 for v1 validation failures, malformed JSON, bodies on GET, and for v2 validation failures (v2 422 → v1 400)", async () => {
    expect((await v1("POST", "/networkvolumes", { body: { name: "v", size: "big", dataCenterId: "EU-RO-1" } })).status).toBe(400);
    const malformed = await v1("POST", "/pods", { rawBody: "{not json" });
    expect([malformed.status, malformed.json.message]).toEqual([400, expect.stringMatching(/malformed JSON/)]);
    expect((await v1("POST", "/pods", { rawBody: "[1,2]" })).status).toBe(400);
    const getWithBody = await rawRequest(rig.gateway.url, "GET", "/v1/pods", { body: "{}", headers: { authorization: "Bearer sandbox_gateway_test", "content-type": "application/json" } });
    expectV1Answer("GET", "/pods", getWithBody);
    expect(getWithBody.status).toBe(400);
    expect((await v1("POST", "/pods", { body: { imageName: "x", dockerEntrypoint: ["sh"] } })).json.message).toMatch(/dockerEntrypoint/);
    const unknownGpu = await v1("POST", "/endpoints", { body: { name: "e", templateId: "nope", gpuTypeIds: ["NVIDIA Imaginary"] } });
    expect(unknownGpu.status).toBe(400);
    expect((await v1("GET", "/pods?endpointId=abc")).status).toBe(400);
  });

  it("oversized bodies are a v1 413", async () => {
    const r = await v1("POST", "/templates", { body: { name: "x".repeat(2_000_000), imageName: "i" } });
    expect(r.status).toBe(413);
  });

  it("reset with --reset-policy restart sends the restart action and warns", async () => {
    const pod = await v1("POST", "/pods", { body: { name: "r", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] } });
    const r = await v1("POST", `/pods/${pod.json.id}/reset`);
    expect(r.status).toBe(200);
    expect(r.headers.get("v2-bridge-warning")).toMatch(/restart/);
    expect(rig.upstreamCalls.some((c) => c.path === `/v2/pods/${pod.json.id}/action` && JSON.parse(c.body!).action === "restart")).toBe(true);
  });

  it("request ids: accepted from the client, sent upstream and back; generated otherwise", async () => {
    const r = await v1("GET", "/networkvolumes", { headers: { "x-request-id": "req-abc.123" } });
    expect(r.headers.get("x-request-id")).toBe("req-abc.123");
    expect(rig.upstreamCalls.at(-1)!.headers["x-request-id"]).toBe("req-abc.123");
    expect((await v1("GET", "/networkvolumes")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("/v2/* passes through unchanged", async () => {
    const res = await fetch(rig.gateway.url + "/v2/network-volumes", {
      method: "POST",
      headers: { authorization: "Bearer sandbox_gateway_test", "content-type": "application/json" },
      body: JSON.stringify({ name: "pt", size: 10, dataCenter: "EU-RO-1" }),
    });
    expect(res.status).toBe(201);
    const created: any = await res.json();
    expect(created).toMatchObject({ name: "pt", dataCenter: "EU-RO-1" });
    const bad = await fetch(rig.gateway.url + "/v2/network-volumes", { method: "POST", headers: { authorization: "Bearer sandbox_gateway_test", "content-type": "application/json" }, body: JSON.stringify({ name: "pt", size: 10, dataCenter: "EU-RO-1", extra: 1 }) });
    // The sandbox's schema failure (422, UnprocessableEntityError) reaches a v2 client untranslated.
    expect(bad.status).toBe(422);
    expect(bad.headers.get("content-type")).toMatch(/problem\+json/);
    const problem: any = await bad.json();
    expect(problem).toMatchObject({ title: "Unprocessable Entity", status: 422, detail: "request body failed validation" });
    expect(problem.errors.join(" ")).toMatch(/extra/);
    const list = await fetch(rig.gateway.url + "/v2/network-volumes", { headers: { authorization: "Bearer sandbox_gateway_test" } });
    expect(((await list.json()) as any).networkVolumes.map((v: any) => v.id)).toContain(created.id);
    expect(list.headers.get("deprecation")).toBeNull();
    for (const path of ["/v2/%2e%2e/admin", "/v2/pods/..%2f..%2fadmin", "/v2/..\\admin", "/v2//evil.example/x"]) {
      const traversal = await rawRequest(rig.gateway.url, "GET", path);
      expect([path, traversal.status]).toEqual([path, 400]);
    }
  });

  it("usage audit, metrics and health", async () => {
    const usage: any = await (await fetch(rig.gateway.adminUrl + "/_bridge/usage")).json();
    expect(Object.keys(usage)).toEqual(["generatedAt", "since", "totals", "operations", "clients", "drops"]);
    expect(usage.totals.clients).toBeGreaterThan(1);
    const anon = usage.clients.find((c: any) => c.fingerprint === "anonymous");
    expect(anon.operations.ListPods.count).toBeGreaterThan(0);
    const keyed = usage.clients.find((c: any) => c.fingerprint !== "anonymous");
    expect(keyed.fingerprint).toMatch(/^k_[0-9a-f]{12}$/);
    expect(JSON.stringify(usage)).not.toContain("sandbox_gateway_test");
    const createPod = usage.operations.find((o: any) => o.key === "CreatePod");
    expect(createPod).toMatchObject({ v1: { method: "POST", path: "/pods" }, statuses: { "201": 1 } });
    const metrics = await (await fetch(rig.gateway.adminUrl + "/_bridge/metrics")).text();
    expect(metrics).toMatch(/v2bridge_v1_requests_total\{operation="ListPods",status="401"\} \d+/);
    expect(metrics).toMatch(/v2bridge_upstream_request_duration_seconds_bucket/);
    expect(metrics).not.toContain("sandbox_");
    expect(((await (await fetch(rig.gateway.url + "/_bridge/health")).json()) as any).status).toBe("ok");
  });
});

describe.skipIf(missingReference)(refSuite("gateway under a tiny v2 rate limit"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  beforeAll(async () => {
    rig = await startRig({ sandbox: { rateLimit: { minute: 2 } } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("429 reaches the v1 client with Retry-After and RateLimit headers; successes carry RateLimit too", async () => {
    const first = await v1("GET", "/templates");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit")).toMatch(/"minute";r=1/);
    await v1("GET", "/templates");
    const limited = await v1("GET", "/templates");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit")).toMatch(/"minute";r=0/);
    expect(limited.headers.get("ratelimit-policy")).toMatch(/q=2/);
    expect(limited.json.message).toMatch(/rate limit/);
  });
});
