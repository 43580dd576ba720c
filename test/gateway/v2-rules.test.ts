// The gateway keeps v1 requests inside the rules the v2 document states in prose, over the strict
// sandbox: v1 request in (answer checked against the v1 document by v1Client), v2 request out
// (checked against the v2 document), and where v1 meant something v2 cannot do, a clear v1 400
// that never reaches the upstream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectValidV2Requests, startRig, v1Client, type Rig } from "./helpers.ts";

describe.skipIf(missingReference)(refSuite("gateway over the v2 document's prose rules"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  let serverlessTemplate: string;

  /** The JSON bodies of upstream requests made since `from`, for a method and path. */
  const sent = (from: number, method: string, path: string) =>
    rig.upstreamCalls.slice(from).filter((c) => c.method === method && c.path === path).map((c) => JSON.parse(c.body ?? "null"));

  beforeAll(async () => {
    rig = await startRig({ sandbox: { rateLimit: false } });
    serverlessTemplate = (await v1("POST", "/templates", { body: { name: "worker", imageName: "runpod/worker:1", isServerless: true } })).json.id;
  });
  afterAll(async () => {
    await rig?.close();
  });

  describe("CPU pods: `mounts.persistent` is invalid when `cpu` is set", () => {
    it("v1's default pod volume is not sent for a CPU pod", async () => {
      const from = rig.upstreamCalls.length;
      const r = await v1("POST", "/pods", { body: { name: "cpu", imageName: "busybox", computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 2 } });
      expect(r.status).toBe(201);
      const [body] = sent(from, "POST", "/v2/pods");
      expect(body.cpu).toEqual({ id: "cpu3c", vcpuCount: 2 });
      expect(body.mounts?.persistent).toBeUndefined();
      expect(r.json.volumeInGb ?? 0).toBe(0);
    });

    it("an explicit v1 pod volume on a CPU pod is a v1 400 that names the network-volume way, and nothing is sent", async () => {
      const from = rig.upstreamCalls.length;
      const r = await v1("POST", "/pods", { body: { name: "cpu", imageName: "busybox", computeType: "CPU", volumeInGb: 20 } });
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/CPU pods cannot have a pod volume.*networkVolumeId/);
      expect(sent(from, "POST", "/v2/pods")).toEqual([]);
    });

    it("a CPU pod keeps a network volume, and a GPU pod still gets v1's default volume", async () => {
      const vol = await v1("POST", "/networkvolumes", { body: { name: "data", size: 10, dataCenterId: "EU-RO-1" } });
      const from = rig.upstreamCalls.length;
      const cpu = await v1("POST", "/pods", { body: { name: "cpu-net", imageName: "busybox", computeType: "CPU", networkVolumeId: vol.json.id, volumeMountPath: "/data" } });
      expect(cpu.status).toBe(201);
      expect(cpu.json.networkVolume?.id ?? sent(from, "POST", "/v2/pods")[0].mounts.network[0].volumeId).toBe(vol.json.id);
      const gpu = await v1("POST", "/pods", { body: { name: "gpu", imageName: "img", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] } });
      expect(gpu.status).toBe(201);
      expect(sent(from, "POST", "/v2/pods").at(-1).mounts).toEqual({ persistent: { size: 20, path: "/workspace" } });
    });
  });

  it("a v1 create in US-KS-2 (a data center both documents name) is placed there", async () => {
    const r = await v1("POST", "/pods", { body: { name: "ks", imageName: "img", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], dataCenterIds: ["US-KS-2"] } });
    expect(r.status).toBe(201);
    expect(r.json.machine?.dataCenterId).toBe("US-KS-2");
  });

  it("size minimums: a v1 pod volume below v2's 10 GB floor is a v1 400 before anything is sent", async () => {
    const from = rig.upstreamCalls.length;
    const r = await v1("POST", "/pods", { body: { name: "small", imageName: "img", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], volumeInGb: 5 } });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/at least 10 GB \(volumeInGb 5\)/);
    const tpl = await v1("POST", "/templates", { body: { name: "small", imageName: "img", volumeInGb: 5 } });
    expect(tpl.status).toBe(400);
    expect(rig.upstreamCalls.slice(from)).toEqual([]);
  });

  describe("pod updates: clearing mounts is not supported; mount kind is fixed at create", () => {
    it("volumeInGb 0 on update is a v1 400 and no PATCH is sent", async () => {
      const pod = await v1("POST", "/pods", { body: { name: "vol", imageName: "img", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] } });
      const from = rig.upstreamCalls.length;
      const r = await v1("PATCH", `/pods/${pod.json.id}`, { body: { volumeInGb: 0 } });
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/cannot remove a pod's volume/);
      expect(sent(from, "PATCH", `/v2/pods/${pod.json.id}`)).toEqual([]);
      const grown = await v1("POST", `/pods/${pod.json.id}/update`, { body: { volumeInGb: 40 } });
      expect(grown.status).toBe(200);
      expect(grown.json.volumeInGb).toBe(40);
    });

    it("templates too: a v2 template PATCH keeps the mount it does not mention, so volumeInGb 0 is a v1 400", async () => {
      const tpl = await v1("POST", "/templates", { body: { name: "tpl-vol", imageName: "img", volumeInGb: 20 } });
      expect(tpl.status).toBe(200);
      const from = rig.upstreamCalls.length;
      const r = await v1("PATCH", `/templates/${tpl.json.id}`, { body: { volumeInGb: 0 } });
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/cannot remove a template's volume/);
      expect(sent(from, "PATCH", `/v2/templates/${tpl.json.id}`)).toEqual([]);
      const kept = await v1("GET", `/templates/${tpl.json.id}`);
      expect(kept.json.volumeInGb).toBe(20);
    });

    it("adding a pod volume to a pod created without one is refused by v2 and answered as a v1 400", async () => {
      const pod = await v1("POST", "/pods", { body: { name: "bare", imageName: "img", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], volumeInGb: 0 } });
      const r = await v1("PATCH", `/pods/${pod.json.id}`, { body: { volumeInGb: 20 } });
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/mount kind is fixed at create/);
    });
  });

  describe("endpoints: `idleTimeout` is rejected with REQUEST_COUNT scaling", () => {
    it("v1's default idle timeout is not sent with REQUEST_COUNT, and an explicit one is left out with a warning", async () => {
      const from = rig.upstreamCalls.length;
      const quiet = await v1("POST", "/endpoints", { body: { name: "rc", templateId: serverlessTemplate, gpuTypeIds: ["NVIDIA GeForce RTX 4090"], scalerType: "REQUEST_COUNT", scalerValue: 2 } });
      expect(quiet.status).toBe(200);
      expect(quiet.headers.get("v2-bridge-warning") ?? "").not.toMatch(/idleTimeout/);
      const explicit = await v1("POST", "/endpoints", { body: { name: "rc2", templateId: serverlessTemplate, gpuTypeIds: ["NVIDIA GeForce RTX 4090"], scalerType: "REQUEST_COUNT", scalerValue: 2, idleTimeout: 30 } });
      expect(explicit.status).toBe(200);
      expect(explicit.headers.get("v2-bridge-warning")).toMatch(/idleTimeout ignored/);
      for (const body of sent(from, "POST", "/v2/serverless")) expect(body.workers?.idleTimeout).toBeUndefined();
      const queue = await v1("POST", "/endpoints", { body: { name: "qd", templateId: serverlessTemplate, gpuTypeIds: ["NVIDIA GeForce RTX 4090"] } });
      expect(queue.json.idleTimeout).toBe(5);

      const upd = await v1("PATCH", `/endpoints/${queue.json.id}`, { body: { scalerType: "REQUEST_COUNT", scalerValue: 3, idleTimeout: 9 } });
      expect(upd.status).toBe(200);
      expect(upd.headers.get("v2-bridge-warning")).toMatch(/idleTimeout ignored/);
      expect(sent(from, "PATCH", `/v2/serverless/${queue.json.id}`).at(-1).workers?.idleTimeout).toBeUndefined();

      // idleTimeout alone on an endpoint that now scales by REQUEST_COUNT: read, left out, warned.
      const alone = await v1("PATCH", `/endpoints/${queue.json.id}`, { body: { idleTimeout: 12 } });
      expect(alone.status).toBe(200);
      expect(alone.headers.get("v2-bridge-warning")).toMatch(/idleTimeout ignored/);
      expect(sent(from, "PATCH", `/v2/serverless/${queue.json.id}`).at(-1)?.workers?.idleTimeout).toBeUndefined();
    });
  });

  describe("endpoints: a non-empty allowedCudaVersions and minCudaVersion are mutually exclusive", () => {
    it("create: both become the allowed versions at or above the minimum, sent alone", async () => {
      const from = rig.upstreamCalls.length;
      const r = await v1("POST", "/endpoints", {
        body: { name: "cuda", templateId: serverlessTemplate, gpuTypeIds: ["NVIDIA GeForce RTX 4090"], allowedCudaVersions: ["12.4", "12.6", "12.8"], minCudaVersion: "12.6" },
      });
      expect(r.status).toBe(200);
      const [body] = sent(from, "POST", "/v2/serverless");
      expect(body.gpu.allowedCudaVersions).toEqual(["12.6", "12.8"]);
      expect(body.gpu.minCudaVersion).toBeUndefined();
      expect(r.json.allowedCudaVersions).toEqual(["12.6", "12.8"]);
    });

    it("create: a set entirely below the minimum is a v1 400 before anything is sent", async () => {
      const from = rig.upstreamCalls.length;
      const r = await v1("POST", "/endpoints", { body: { name: "none", templateId: serverlessTemplate, allowedCudaVersions: ["12.4"], minCudaVersion: "12.8" } });
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/at or above minCudaVersion 12\.8/);
      expect(sent(from, "POST", "/v2/serverless")).toEqual([]);
    });

    it("update: setting one clears the other in the same PATCH (v2 keeps a constraint a PATCH does not mention)", async () => {
      const ep = await v1("POST", "/endpoints", { body: { name: "floor", templateId: serverlessTemplate, gpuTypeIds: ["NVIDIA GeForce RTX 4090"], minCudaVersion: "12.4" } });
      expect(ep.json.minCudaVersion).toBe("12.4");
      const from = rig.upstreamCalls.length;
      const toSet = await v1("PATCH", `/endpoints/${ep.json.id}`, { body: { allowedCudaVersions: ["12.8"] } });
      expect(toSet.status).toBe(200);
      expect(sent(from, "PATCH", `/v2/serverless/${ep.json.id}`).at(-1).gpu).toEqual({ allowedCudaVersions: ["12.8"], minCudaVersion: "" });
      expect(toSet.json.allowedCudaVersions).toEqual(["12.8"]);
      expect(toSet.json.minCudaVersion).toBeUndefined();
      const toFloor = await v1("POST", `/endpoints/${ep.json.id}/update`, { body: { minCudaVersion: "12.6" } });
      expect(toFloor.status).toBe(200);
      expect(sent(from, "PATCH", `/v2/serverless/${ep.json.id}`).at(-1).gpu).toEqual({ minCudaVersion: "12.6", allowedCudaVersions: [] });
      expect(toFloor.json).toMatchObject({ minCudaVersion: "12.6", allowedCudaVersions: [] });
    });
  });

  it("every upstream request was a documented v2 request with a valid body", () => {
    expectValidV2Requests(rig.upstreamCalls);
  });
});
