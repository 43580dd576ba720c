// v1 updates through the gateway where v2 needs the whole object (mounts, CPU selection, scaling),
// and v1 values whose v2 meaning is wider (dockerStartCmd [], flashboot true, GPU pools).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { GPU_TYPES } from "../../sandbox/catalog.ts";
import { expectValidV2Requests, KEY, startRig, v1Client, v1Validator, type Rig } from "./helpers.ts";
import { v1GpuTypeIds } from "../../gateway/translation/v1-gpu-types.ts";

describe.skipIf(missingReference)(refSuite("gateway: v1 updates"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const lastSent = (method: string, path: string) => {
    const calls = rig.upstreamCalls.filter((c) => c.method === method && c.path === path);
    return calls.length ? JSON.parse(calls.at(-1)!.body!) : undefined;
  };
  const v2 = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(rig.sandbox.url + path, { method, headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    expectValidV2Requests(rig.upstreamCalls);
    await rig?.close();
  });

  it("pod volume: volumeMountPath alone keeps the size, volumeInGb alone keeps the path", async () => {
    const pod = (await v1("POST", "/pods", { body: { name: "vol", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], volumeInGb: 20 } })).json;
    const moved = await v1("PATCH", `/pods/${pod.id}`, { body: { volumeMountPath: "/data" } });
    expect(lastSent("PATCH", `/v2/pods/${pod.id}`).mounts).toEqual({ persistent: { size: 20, path: "/data" } });
    expect(moved.json).toMatchObject({ volumeInGb: 20, volumeMountPath: "/data" });
    const grown = await v1("POST", `/pods/${pod.id}/update`, { body: { volumeInGb: 40 } });
    expect(lastSent("PATCH", `/v2/pods/${pod.id}`).mounts).toEqual({ persistent: { size: 40, path: "/data" } });
    expect(grown.json).toMatchObject({ volumeInGb: 40, volumeMountPath: "/data" });
  });

  it("pod on a network volume: the new path goes into mounts.network", async () => {
    const volume = (await v1("POST", "/networkvolumes", { body: { name: "nv", size: 10, dataCenterId: "EU-RO-1" } })).json;
    const pod = (await v1("POST", "/pods", { body: { name: "netpod", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], networkVolumeId: volume.id } })).json;
    const r = await v1("PATCH", `/pods/${pod.id}`, { body: { volumeMountPath: "/vol" } });
    expect(lastSent("PATCH", `/v2/pods/${pod.id}`).mounts).toEqual({ network: [{ volumeId: volume.id, path: "/vol" }] });
    expect(r.json).toMatchObject({ volumeMountPath: "/vol", networkVolume: { id: volume.id } });
  });

  it("dockerStartCmd [] clears args (back to the image's own CMD)", async () => {
    const pod = (await v1("POST", "/pods", { body: { name: "cmd", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], dockerStartCmd: ["sleep", "60"] } })).json;
    expect(pod.dockerStartCmd).toEqual(["sleep", "60"]);
    const r = await v1("PATCH", `/pods/${pod.id}`, { body: { dockerStartCmd: [] } });
    expect(lastSent("PATCH", `/v2/pods/${pod.id}`).args).toBe("");
    expect(r.json.dockerStartCmd).toEqual([]);
  });

  it("CPU endpoint: vcpuCount alone keeps the flavours; cpuFlavorIds alone keeps the vCPU count", async () => {
    const ep = (await v1("POST", "/endpoints", { body: { name: "cpu-ep", templateId: await serverlessTemplate(), computeType: "CPU", cpuFlavorIds: ["cpu3c", "cpu3g"], vcpuCount: 4 } })).json;
    const more = await v1("PATCH", `/endpoints/${ep.id}`, { body: { vcpuCount: 8 } });
    expect(lastSent("PATCH", `/v2/serverless/${ep.id}`).cpu).toEqual([{ id: "cpu3c", vcpuCount: 8 }, { id: "cpu3g", vcpuCount: 8 }]);
    expect(more.json.computeType).toBe("CPU");
    // v1 endpoint records do not carry the CPU selection: check it in v2.
    expect((await v2("GET", `/v2/serverless/${ep.id}`)).json.cpu).toMatchObject([{ id: "cpu3c", vcpuCount: 8 }, { id: "cpu3g", vcpuCount: 8 }]);
    const other = await v1("PATCH", `/endpoints/${ep.id}`, { body: { cpuFlavorIds: ["cpu5g"] } });
    expect(other.status, other.text).toBe(200);
    expect(lastSent("PATCH", `/v2/serverless/${ep.id}`).cpu).toEqual([{ id: "cpu5g", vcpuCount: 8 }]);
    expect(other.status).toBe(200);
    expect((await v2("GET", `/v2/serverless/${ep.id}`)).json.cpu).toMatchObject([{ id: "cpu5g", vcpuCount: 8 }]);
  });

  it("scalerValue alone keeps the scaler type", async () => {
    const ep = (await v1("POST", "/endpoints", { body: { name: "sc", templateId: await serverlessTemplate(), gpuTypeIds: ["NVIDIA RTX A5000"], scalerType: "REQUEST_COUNT", scalerValue: 3 } })).json;
    const r = await v1("PATCH", `/endpoints/${ep.id}`, { body: { scalerValue: 7 } });
    expect(lastSent("PATCH", `/v2/serverless/${ep.id}`).scaling).toEqual({ type: "REQUEST_COUNT", requestCount: 7 });
    expect(r.json).toMatchObject({ scalerType: "REQUEST_COUNT", scalerValue: 7 });
  });

  it("flashboot: true leaves PRIORITY_FLASHBOOT alone", async () => {
    const created = await v2("POST", "/v2/serverless", { name: "prio", type: "QUEUE", image: "busybox", gpu: { pools: ["ADA_24"] }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, flashboot: "PRIORITY_FLASHBOOT" });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const renamed = await v1("PATCH", `/endpoints/${id}`, { body: { name: "prio2", flashboot: true } });
    expect(lastSent("PATCH", `/v2/serverless/${id}`)).toEqual({ name: "prio2" });
    expect(renamed.json).toMatchObject({ name: "prio2", flashboot: true });
    const patches = rig.upstreamCalls.filter((c) => c.method === "PATCH" && c.path === `/v2/serverless/${id}`).length;
    const same = await v1("PATCH", `/endpoints/${id}`, { body: { flashboot: true } });
    expect(same.json).toMatchObject({ id, flashboot: true });
    expect(rig.upstreamCalls.filter((c) => c.method === "PATCH" && c.path === `/v2/serverless/${id}`).length).toBe(patches);
    expect((await v2("GET", `/v2/serverless/${id}`)).json.flashboot).toBe("PRIORITY_FLASHBOOT");
    // false still turns it off
    await v1("PATCH", `/endpoints/${id}`, { body: { flashboot: false } });
    expect((await v2("GET", `/v2/serverless/${id}`)).json.flashboot).toBe("OFF");
  });

  it("a new GPU pool selection states excludedTypes: [] (a whole pool)", async () => {
    const ep = (await v1("POST", "/endpoints", { body: { name: "pools", templateId: await serverlessTemplate(), gpuTypeIds: ["NVIDIA RTX A5000"] } })).json;
    // Every type of the pool in the sandbox catalog (which also holds each id the documents name).
    const wholePool = GPU_TYPES.filter((g) => g.pool === "AMPERE_24").map((g) => g.id);
    expect(wholePool).toContain("NVIDIA GeForce RTX 3090");
    const r = await v1("PATCH", `/endpoints/${ep.id}`, { body: { gpuTypeIds: wholePool } });
    expect(lastSent("PATCH", `/v2/serverless/${ep.id}`).gpu).toEqual({ pools: ["AMPERE_24"], excludedTypes: [], count: 1 });
    expect([...r.json.gpuTypeIds].sort()).toEqual([...wholePool].sort());
    expect((await v2("GET", `/v2/serverless/${ep.id}`)).json.gpu.excludedTypes ?? []).toEqual([]);
  });

  it("a pool is told to v1 clients as the GPU types v1 can name", async () => {
    // The sandbox catalog holds every GPU type id the documents name, some only in the v2 document.
    const v1Names = v1GpuTypeIds(v1Validator().document)!;
    const pool = GPU_TYPES.find((g) => g.pool && !v1Names.has(g.id))?.pool;
    expect(pool, "a pool with a GPU type the v1 document does not list").toBeDefined();
    const created = await v2("POST", "/v2/serverless", { name: "mixed", type: "QUEUE", image: "busybox", gpu: { pools: [pool] }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 } });
    expect(created.status).toBe(201);
    const r = await v1("GET", `/endpoints/${created.json.id}`); // the helper checks the answer against the v1 document
    const inPool = GPU_TYPES.filter((g) => g.pool === pool).map((g) => g.id);
    expect([...r.json.gpuTypeIds].sort()).toEqual(inPool.filter((id) => v1Names.has(id)).sort());
  });

  let templateId: string | undefined;
  async function serverlessTemplate(): Promise<string> {
    templateId ??= (await v1("POST", "/templates", { body: { name: "sls", imageName: "busybox", isServerless: true } })).json.id;
    return templateId!;
  }
});
