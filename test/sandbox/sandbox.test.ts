// Real HTTP over loopback against the sandbox; every response is checked against the v2 document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseList } from "structured-headers";
import { referenceMissingReason } from "../../openapi/reference.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { CPU_TYPES, DATA_CENTERS, GPU_TYPES, NO_CAPACITY_GPU_TYPE, BILLING_SEED } from "../../sandbox/catalog.ts";
import { expectV2Response } from "../helpers/v2-contract.ts";

const reason = referenceMissingReason();
const TOKEN = "sandbox_test";

describe.skipIf(reason)(`v2 sandbox over HTTP${reason ? ` (skipped: ${reason})` : ""}`, () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, warn: () => {}, bootMs: 0 });
  });
  afterAll(async () => {
    await sb?.close();
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const res = await fetch(sb.url + path, init);
    return expectV2Response(res, method);
  }

  // The document's UnprocessableEntityError: the request was syntactically valid but failed the
  // schema. Checks the problem shape and that `errors` names what failed.
  function expectSchemaFailure(r: { status: number; body: any }, detail: RegExp, error: RegExp) {
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body).toMatchObject({ title: "Unprocessable Entity", status: 422, detail: expect.stringMatching(detail) });
    expect(r.body.errors.join("\n")).toMatch(error);
  }
  const bodyFailure = (r: { status: number; body: any }, error: RegExp) => expectSchemaFailure(r, /^request body failed validation$/, error);
  const queryFailure = (r: { status: number; body: any }, error: RegExp) => expectSchemaFailure(r, /^invalid query parameters$/, error);

  const podBody = (extra: Record<string, unknown> = {}) => ({ name: "p1", image: "ubuntu:22.04", gpu: { id: "NVIDIA A40", count: 2 }, ...extra });

  describe("pods", () => {
    it("creates a pod that reflects the request, lists and gets it", async () => {
      const created = await call("POST", "/v2/pods", podBody({ disk: 30, env: { A: "1" }, ports: ["22/tcp", "8888/http"], args: "sleep infinity", dataCenterIds: ["US-TX-3"] }));
      expect(created.status).toBe(201);
      const pod = created.body;
      expect(pod).toMatchObject({ name: "p1", image: "ubuntu:22.04", gpu: { id: "NVIDIA A40", count: 2 }, disk: 30, env: { A: "1" }, ports: ["22/tcp", "8888/http"], args: "sleep infinity", dataCenterId: "US-TX-3", status: "RUNNING", cloud: "SECURE", template: null });
      expect(pod.actions).toEqual(["stop", "restart", "terminate"]);
      expect(pod.cpu).toBeUndefined();
      const list = await call("GET", "/v2/pods");
      expect(list.body.pods.map((p: any) => p.id)).toContain(pod.id);
      expect((await call("GET", `/v2/pods/${pod.id}`)).body.id).toBe(pod.id);
    });

    it("creates CPU pods and pods from a template", async () => {
      const cpu = await call("POST", "/v2/pods", { name: "c", image: "alpine", cpu: { id: "cpu3g", vcpuCount: 4 } });
      expect(cpu.body.cpu).toEqual({ id: "cpu3g", vcpuCount: 4, memory: 16 });
      expect(cpu.body.cudaVersion).toBeNull();
      const tpl = await call("POST", "/v2/templates", { name: "t", image: "img/from-template:1", disk: 77, ports: ["8000/http"], env: { T: "x" } });
      const fromTpl = await call("POST", "/v2/pods", { name: "ft", templateId: tpl.body.id, gpu: { id: "NVIDIA L4" } });
      expect(fromTpl.body).toMatchObject({ image: "img/from-template:1", disk: 77, ports: ["8000/http"], template: null });
      expect(fromTpl.body.env.T).toBe("x");
      const missing = await call("POST", "/v2/pods", { name: "x", templateId: "nope", gpu: { id: "NVIDIA L4" } });
      expect(missing.status).toBe(404);
    });

    it("rejects bad create bodies with the right problems", async () => {
      // Schema failures are the document's 422 ("syntactically valid but failed validation").
      const unknownProp = await call("POST", "/v2/pods", podBody({ gpuCount: 1 }));
      bodyFailure(unknownProp, /unevaluated property 'gpuCount'/);
      expect(unknownProp.body.errors).toContain("must NOT have unevaluated property 'gpuCount'");
      bodyFailure(await call("POST", "/v2/pods", podBody({ cloud: "PUBLIC" })), /\/cloud must be one of/);
      // Valid JSON that is not an object fails the schema too: 422, not the malformed-JSON 400.
      for (const notAnObject of ["[1,2]", "5", "null", '"pod"', "true"]) {
        bodyFailure(await call("POST", "/v2/pods", notAnObject), /^must be object$/);
      }
      // Cross-field rules the handler enforces are the document's 400s ("conflicts with request rules").
      const both = await call("POST", "/v2/pods", podBody({ cpu: { id: "cpu3c", vcpuCount: 2 } }));
      expect([both.status, both.body.title, both.body.detail]).toEqual([400, "Bad Request", expect.stringMatching(/exactly one of gpu or cpu/)]);
      const neither = await call("POST", "/v2/pods", { name: "n", image: "i" });
      expect([neither.status, neither.body.detail]).toEqual([400, expect.stringMatching(/exactly one of gpu or cpu/)]);
      const noCapacity = await call("POST", "/v2/pods", podBody({ gpu: { id: NO_CAPACITY_GPU_TYPE } }));
      expect(noCapacity.status).toBe(400);
      expect(noCapacity.body.detail).toBe(`no instances available for gpu type ${NO_CAPACITY_GPU_TYPE}`);
      const noVolume = await call("POST", "/v2/pods", podBody({ mounts: { network: [{ volumeId: "nope", path: "/data" }] } }));
      expect(noVolume.status).toBe(404);
      // Malformed JSON is the document's BadRequestError ("malformed"): 400.
      const malformed = await call("POST", "/v2/pods", "{not json");
      expect([malformed.status, malformed.body.title, malformed.body.detail]).toEqual([400, "Bad Request", expect.stringMatching(/^malformed JSON body/)]);
      for (const truncated of ['{"name": "p1"', "[1,", "{'name': 'p1'}"]) expect((await call("POST", "/v2/pods", truncated)).status).toBe(400);
      // v2 takes only application/json bodies.
      const wrongType = await call("POST", "/v2/pods", "name=x", { "content-type": "text/plain" });
      expect([wrongType.status, wrongType.body.title]).toEqual([415, "Unsupported Media Type"]);
      // The document marks the body required: a missing one fails validation.
      bodyFailure(await call("POST", "/v2/pods"), /^request body is required$/);
    });

    it("runs lifecycle actions with 409 for impossible transitions, then terminates", async () => {
      const pod = (await call("POST", "/v2/pods", podBody())).body;
      const stopped = await call("POST", `/v2/pods/${pod.id}/action`, { action: "stop" });
      expect(stopped.status).toBe(200);
      expect(stopped.body).toMatchObject({ status: "EXITED", actions: ["start", "terminate"], cost: 0, runtime: null });
      expect((await call("POST", `/v2/pods/${pod.id}/action`, { action: "stop" })).status).toBe(409);
      expect((await call("POST", `/v2/pods/${pod.id}/action`, { action: "restart" })).status).toBe(409);
      const started = await call("POST", `/v2/pods/${pod.id}/action`, { action: "start" });
      expect(started.body.status).toBe("RUNNING");
      expect((await call("POST", `/v2/pods/${pod.id}/action`, { action: "restart" })).body.status).toBe("RUNNING");
      bodyFailure(await call("POST", `/v2/pods/${pod.id}/action`, { action: "reset" }), /\/action must be one of/);
      const terminated = await call("POST", `/v2/pods/${pod.id}/action`, { action: "terminate" });
      expect(terminated.status).toBe(204);
      expect((await call("GET", `/v2/pods/${pod.id}`)).status).toBe(404);
      expect((await call("POST", `/v2/pods/${pod.id}/action`, { action: "start" })).status).toBe(404);
    });

    it("patches and deletes pods; locked pods refuse to stop", async () => {
      const pod = (await call("POST", "/v2/pods", podBody())).body;
      const patched = await call("PATCH", `/v2/pods/${pod.id}`, { name: "renamed", image: "ubuntu:24.04", locked: true });
      expect(patched.body).toMatchObject({ name: "renamed", image: "ubuntu:24.04", locked: true });
      expect((await call("POST", `/v2/pods/${pod.id}/action`, { action: "stop" })).status).toBe(409);
      // gpu is not among the document's mutable fields, and UpdatePodRequest is closed.
      bodyFailure(await call("PATCH", `/v2/pods/${pod.id}`, { gpu: { id: "NVIDIA L4" } }), /unevaluated property 'gpu'/);
      expect((await call("DELETE", `/v2/pods/${pod.id}`)).status).toBe(204);
      expect((await call("DELETE", `/v2/pods/${pod.id}`)).status).toBe(404);
    });

    it("streams logs as server-sent events and ends", async () => {
      const pod = (await call("POST", "/v2/pods", podBody())).body;
      const logs = await call("GET", `/v2/pods/${pod.id}/logs?tail=3`);
      expect(logs.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const events = logs.text.trim().split("\n\n");
      expect(events).toHaveLength(3);
      for (const e of events) {
        expect(e).toMatch(/^id: .+\ndata: /);
        expect(JSON.parse(e.split("data: ")[1])).toEqual({ source: expect.any(String), line: expect.any(String), ts: expect.any(String) });
      }
      const system = await call("GET", `/v2/pods/${pod.id}/logs?source=system`);
      expect(system.text).not.toContain('"source":"container"');
      queryFailure(await call("GET", `/v2/pods/${pod.id}/logs?source=kernel`), /query parameter 'source' must be one of/);
    });
  });

  describe("serverless", () => {
    it("creates, reads, updates and deletes endpoints with workers and releases", async () => {
      const vol = (await call("POST", "/v2/network-volumes", { name: "v", size: 50, dataCenter: "EU-RO-1" })).body;
      const created = await call("POST", "/v2/serverless", {
        name: "ep",
        image: "me/worker:1",
        type: "QUEUE",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        gpu: { pools: ["ADA_24", "AMPERE_48"], count: 1 },
        workers: { min: 2, max: 5 },
        networkVolumes: [vol.id],
        dataCenterIds: ["EU-RO-1"],
        flashboot: "FLASHBOOT",
      });
      expect(created.status).toBe(201);
      const ep = created.body;
      expect(ep).toMatchObject({ workers: { min: 2, max: 5 }, networkVolumes: [vol.id], flashboot: "FLASHBOOT", gpu: { pools: ["ADA_24", "AMPERE_48"] } });
      expect((await call("GET", "/v2/serverless")).body.endpoints.map((e: any) => e.id)).toContain(ep.id);
      const workers = await call("GET", `/v2/serverless/${ep.id}/workers`);
      expect(workers.body.summary.total).toBe(2);
      const logs = await call("GET", `/v2/serverless/${ep.id}/workers/${workers.body.workers[0].id}/logs`);
      expect(logs.text).toContain("data: ");
      const patched = await call("PATCH", `/v2/serverless/${ep.id}`, { workers: { max: 8 }, name: "ep2" });
      expect(patched.body).toMatchObject({ name: "ep2", workers: { min: 2, max: 8 } });
      const releases = await call("GET", `/v2/serverless/${ep.id}/releases`);
      expect(releases.body.releases).toHaveLength(2);
      expect(releases.body.endpointVersion).toBe(2);
      expect((await call("DELETE", `/v2/serverless/${ep.id}`)).status).toBe(204);
      expect((await call("GET", `/v2/serverless/${ep.id}`)).status).toBe(404);
    });

    it("validates pools, volumes and scaling", async () => {
      const base = { name: "e", image: "i", type: "QUEUE", scaling: { type: "QUEUE_DELAY", queueDelay: 4 } };
      // pools is a free string array in the schema; an unknown pool is a catalog rule (400), like
      // the document's "Rejected with 400 if a value is not a GPU type in one of `pools`".
      const badPool = await call("POST", "/v2/serverless", { ...base, gpu: { pools: ["NOT_A_POOL"] } });
      expect([badPool.status, badPool.body.detail]).toEqual([400, "unknown gpu pool NOT_A_POOL"]);
      const badVol = await call("POST", "/v2/serverless", { ...base, gpu: { pools: ["ADA_24"] }, networkVolumes: ["nope"] });
      expect(badVol.status).toBe(404);
      // A load balancer with a QUEUE_DELAY scaler: the create schema ties the scaler to the type.
      const lb = await call("POST", "/v2/serverless", { ...base, type: "LOAD_BALANCER", gpu: { pools: ["ADA_24"] } });
      bodyFailure(lb, /\/scaling must have required property 'requestCount'/);
      const old = await call("POST", "/v2/serverless", { ...base, gpu: { pools: ["ADA_24"] }, workersMax: 3 });
      bodyFailure(old, /unevaluated property 'workersMax'/);
      expect(old.body.errors).toContain("must NOT have unevaluated property 'workersMax'");
    });
  });

  describe("templates, network volumes, registries, delegations, ssh keys", () => {
    it("templates CRUD", async () => {
      const t = (await call("POST", "/v2/templates", { name: "tpl", image: "x:1", public: true, registry: null })).body;
      expect(t).toMatchObject({ name: "tpl", image: "x:1", public: true, serverless: false, category: "NVIDIA" });
      expect((await call("GET", "/v2/templates")).body.templates.map((x: any) => x.id)).toContain(t.id);
      expect((await call("PATCH", `/v2/templates/${t.id}`, { image: "x:2" })).body.image).toBe("x:2");
      bodyFailure(await call("PATCH", `/v2/templates/${t.id}`, { imageName: "x:2" }), /unevaluated property 'imageName'/);
      expect((await call("DELETE", `/v2/templates/${t.id}`)).status).toBe(204);
      expect((await call("GET", `/v2/templates/${t.id}`)).status).toBe(404);
    });

    it("network volumes CRUD with type and data center checks", async () => {
      const v = (await call("POST", "/v2/network-volumes", { name: "nv", size: 100, dataCenter: "US-TX-3", type: "HIGH_PERFORMANCE" })).body;
      expect(v).toMatchObject({ name: "nv", size: 100, dataCenter: "US-TX-3", type: "HIGH_PERFORMANCE" });
      // A data center without that volume type is a catalog rule (400); the wrong field name and an
      // unknown type are schema failures (422).
      const noType = await call("POST", "/v2/network-volumes", { name: "nv", size: 100, dataCenter: "CA-MTL-1", type: "HIGH_PERFORMANCE" });
      expect([noType.status, noType.body.detail]).toEqual([400, expect.stringMatching(/does not offer HIGH_PERFORMANCE/)]);
      bodyFailure(await call("POST", "/v2/network-volumes", { name: "nv", size: 100, dataCenterId: "US-TX-3" }), /required property 'dataCenter'/);
      bodyFailure(await call("POST", "/v2/network-volumes", { name: "nv", size: 100, dataCenter: "US-TX-3", type: "FAST" }), /\/type must be one of/);
      expect((await call("PATCH", `/v2/network-volumes/${v.id}`, { size: 200 })).body.size).toBe(200);
      expect((await call("GET", "/v2/network-volumes")).body.networkVolumes.map((x: any) => x.id)).toContain(v.id);
      expect((await call("DELETE", `/v2/network-volumes/${v.id}`)).status).toBe(204);
      expect((await call("GET", `/v2/network-volumes/${v.id}`)).status).toBe(404);
    });

    it("registries CRUD never echo the password", async () => {
      const r = await call("POST", "/v2/registries", { name: "reg", username: "u", password: "secret" });
      expect(r.status).toBe(201);
      expect(r.text).not.toContain("secret");
      expect((await call("GET", "/v2/registries")).body.registries).toContainEqual({ id: r.body.id, name: "reg" });
      expect((await call("GET", `/v2/registries/${r.body.id}`)).body.name).toBe("reg");
      const pod = await call("POST", "/v2/pods", podBody({ registry: "nope" }));
      expect(pod.status).toBe(404);
      expect((await call("DELETE", `/v2/registries/${r.body.id}`)).status).toBe(204);
      expect((await call("GET", `/v2/registries/${r.body.id}`)).status).toBe(404);
    });

    it("delegations list/create/delete (literal path beats /registries/{id})", async () => {
      const d = await call("POST", "/v2/registries/delegations", { resource: "arn:aws:ecr:us-east-1:123456789012:repository/team/app", name: "d" });
      expect(d.status).toBe(201);
      expect(d.body).toMatchObject({ repository: "team/app", tag: "latest", awsRegion: "us-east-1", name: "d" });
      expect((await call("GET", "/v2/registries/delegations")).body.delegations).toHaveLength(1);
      // The schema only says `resource` is a string; the ARN format is the handler's rule (400).
      const notArn = await call("POST", "/v2/registries/delegations", { resource: "nope" });
      expect([notArn.status, notArn.body.detail]).toEqual([400, expect.stringMatching(/repository ARN/)]);
      bodyFailure(await call("POST", "/v2/registries/delegations", { name: "no resource" }), /required property 'resource'/);
      expect((await call("DELETE", `/v2/registries/delegations/${d.body.id}`)).status).toBe(204);
      expect((await call("DELETE", `/v2/registries/delegations/${d.body.id}`)).status).toBe(404);
    });

    it("ssh keys replace and feed startSsh", async () => {
      const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI me@host";
      expect((await call("PUT", "/v2/account/ssh-keys", { keys: [key] })).body).toEqual({ keys: [key] });
      expect((await call("GET", "/v2/account/ssh-keys")).body).toEqual({ keys: [key] });
      bodyFailure(await call("PUT", "/v2/account/ssh-keys", { keys: ["not a key"] }), /\/keys\/0 must match pattern/);
      const pod = await call("POST", "/v2/pods", podBody({ startSsh: true }));
      expect(pod.body.env.PUBLIC_KEY).toBe(key);
    });

    it("clusters exist as routes", async () => {
      expect((await call("GET", "/v2/clusters")).body).toEqual({ clusters: [] });
      expect((await call("GET", "/v2/clusters/c1")).status).toBe(404);
      expect((await call("GET", "/v2/clusters/c1/pods")).status).toBe(404);
    });
  });

  describe("catalog", () => {
    it("lists GPU types with v1 names and shared pools", async () => {
      const gpus = (await call("GET", "/v2/catalog/gpus")).body.gpus;
      const ids = gpus.map((g: any) => g.id);
      for (const name of ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A5000", "NVIDIA A40", "NVIDIA L40S", "NVIDIA H100 80GB HBM3", "NVIDIA A100 80GB PCIe", "NVIDIA RTX A6000", "NVIDIA GeForce RTX 3090", "NVIDIA L4"]) {
        expect(ids).toContain(name);
      }
      expect(gpus.filter((g: any) => g.pool === "ADA_24").length).toBeGreaterThan(1);
      expect(ids).toEqual(GPU_TYPES.map((g) => g.id));
      const one = await call("GET", `/v2/catalog/gpus/${encodeURIComponent("NVIDIA L40S")}?include=AVAILABILITY&product=POD`);
      expect(one.body).toMatchObject({ id: "NVIDIA L40S", pool: "ADA_48_PRO", availability: "HIGH" });
      expect((await call("GET", `/v2/catalog/gpus/${encodeURIComponent(NO_CAPACITY_GPU_TYPE)}?include=AVAILABILITY&product=POD`)).body.availability).toBe("NONE");
      // product is "Required with include=AVAILABILITY ... (400 either way)"; an unknown include value is a schema 422.
      const noProduct = await call("GET", "/v2/catalog/gpus?include=AVAILABILITY");
      expect([noProduct.status, noProduct.body.detail]).toEqual([400, expect.stringMatching(/product is required/)]);
      queryFailure(await call("GET", "/v2/catalog/gpus?include=EVERYTHING"), /query parameter 'include'\/0 must be one of/);
      expect((await call("GET", "/v2/catalog/gpus/nope")).status).toBe(404);
    });

    it("lists CPU flavours, data centers (with filters) and public templates", async () => {
      expect((await call("GET", "/v2/catalog/cpus")).body.cpus.map((c: any) => c.id)).toEqual(CPU_TYPES.map((c) => c.id));
      expect((await call("GET", "/v2/catalog/cpus/cpu5m")).body.ramGbPerVcpu).toBe(8);
      const dcs = (await call("GET", "/v2/catalog/datacenters")).body.dataCenters;
      expect(dcs.map((d: any) => d.id)).toEqual(DATA_CENTERS.map((d) => d.id));
      const eu = (await call("GET", "/v2/catalog/datacenters?regions=EUROPE&include=GPU_AVAILABILITY")).body.dataCenters;
      expect(eu.every((d: any) => d.region === "EUROPE" && Array.isArray(d.gpuAvailability))).toBe(true);
      queryFailure(await call("GET", "/v2/catalog/datacenters?regions=MARS"), /query parameter 'regions'\/0 must be one of/);
      expect((await call("GET", "/v2/catalog/datacenters/EU-RO-1")).body.id).toBe("EU-RO-1");
      expect((await call("GET", "/v2/catalog/datacenters/XX-1")).status).toBe(404);
      expect((await call("GET", "/v2/catalog/templates")).body.templates.length).toBeGreaterThan(0);
      queryFailure(await call("GET", "/v2/catalog/templates?source=unknown"), /query parameter 'source' must be one of/);
    });
  });

  describe("billing", () => {
    it("honours bucketSize/lastN and resource filters", async () => {
      const all = await call("GET", "/v2/billing/pods?bucketSize=day&lastN=30");
      expect(all.body.metadata.query.bucketSize).toBe("day");
      expect(all.body.metadata.uniquePodCount).toBeGreaterThanOrEqual(2);
      const one = await call("GET", `/v2/billing/pods?bucketSize=day&lastN=30&podId=${BILLING_SEED.podIds[0]}`);
      expect(one.body.records.length).toBeGreaterThan(0);
      expect(one.body.records.every((r: any) => r.podId === BILLING_SEED.podIds[0])).toBe(true);
      expect(one.body.metadata).toMatchObject({ uniquePodCount: 1, query: { podId: BILLING_SEED.podIds[0] } });
      const weekly = await call("GET", "/v2/billing?bucketSize=week&lastN=4");
      expect(weekly.body.records).toHaveLength(4);
      const windowed = await call("GET", "/v2/billing/serverless?startTime=2026-01-01T00:00:00Z&endTime=2026-01-03T00:00:00Z&bucketSize=hour");
      expect(windowed.body.metadata.query).toMatchObject({ startTime: "2026-01-01T00:00:00Z", endTime: "2026-01-03T00:00:00Z", serverlessId: null });
      const vol = await call("GET", `/v2/billing/network-volumes?networkVolumeId=${BILLING_SEED.networkVolumeIds[0]}&bucketSize=month&lastN=3`);
      expect(vol.body.records.every((r: any) => r.networkVolumeId === BILLING_SEED.networkVolumeIds[0])).toBe(true);
      expect((await call("GET", "/v2/billing/endpoints?lastN=2")).body.records.length).toBeLessThanOrEqual(2);
      expect((await call("GET", "/v2/billing/clusters")).body.records).toEqual([]);
      queryFailure(await call("GET", "/v2/billing?bucketSize=minute"), /query parameter 'bucketSize' must be one of/);
      // "Mutually exclusive with startTime/endTime": a prose rule, 400.
      const both = await call("GET", "/v2/billing?lastN=2&startTime=2026-01-01T00:00:00Z");
      expect([both.status, both.body.detail]).toEqual([400, expect.stringMatching(/mutually exclusive/)]);
    });
  });

  describe("auth, errors and schema", () => {
    it("401 for missing, malformed and unknown tokens", async () => {
      for (const authorization of [undefined, "Basic abc", "Bearer", "Bearer nope_123"]) {
        const res = await fetch(`${sb.url}/v2/pods`, { headers: authorization ? { authorization } : {} });
        const checked = await expectV2Response(res, "GET");
        expect(checked.status).toBe(401);
        expect(checked.body).toMatchObject({ title: "Unauthorized", status: 401 });
        expect(res.headers.get("ratelimit")).toBeNull();
      }
    });

    it("403 for read-only keys on writes, with rate-limit headers", async () => {
      const headers = { authorization: "Bearer sandbox_ro_viewer", "content-type": "application/json" };
      const read = await expectV2Response(await fetch(`${sb.url}/v2/pods`, { headers }), "GET");
      expect(read.status).toBe(200);
      const res = await fetch(`${sb.url}/v2/pods`, { method: "POST", headers, body: JSON.stringify(podBody()) });
      const write = await expectV2Response(res, "POST");
      expect(write.status).toBe(403);
      expect(res.headers.get("ratelimit")).toBeTruthy();
      expect(res.headers.get("ratelimit-policy")).toBeTruthy();
    });

    it("unknown routes are 404 problems; RateLimit headers are structured lists", async () => {
      const res = await fetch(`${sb.url}/v2/nothing-here`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ title: "Not Found", status: 404 });
      const list = parseList(res.headers.get("ratelimit")!);
      expect(list.map(([name]) => name)).toEqual(["minute", "hour", "day"]);
      for (const [, params] of list) expect([...params.keys()]).toEqual(["r", "t"]);
      const policy = parseList(res.headers.get("ratelimit-policy")!);
      expect(policy.map(([, p]) => p.get("w"))).toEqual([60, 3600, 86400]);
    });

    it("serves the v2 document at /v2/openapi.json", async () => {
      const res = await fetch(`${sb.url}/v2/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toMatch(/^3\.1/);
      expect(doc.paths["/v2/pods"]).toBeDefined();
    });
  });
});
