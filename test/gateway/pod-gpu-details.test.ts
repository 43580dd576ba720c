// v1 pod records' `gpu` through the gateway: v2's is only {id, count}; the GPU type's display name
// and per-GPU list prices come from the catalog (gpuDetailsFromCatalog), and v1's term and spot
// prices, which v2 has no source for, are named in the warning and counted as usage drops.
// Real HTTP: v1 client → gateway → strict sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lensNamed } from "../../mappings/index.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { KEY, lostFieldsNamed, startRig, v1Client, type Rig } from "./helpers.ts";

/** Polls a v1 pod until `ready` holds; bounded. */
async function waitForPod(v1: ReturnType<typeof v1Client>, id: string, ready: (pod: any) => boolean): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const pod = (await v1("GET", `/pods/${id}`)).json;
    if (ready(pod)) return pod;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pod ${id} never became ready`);
}

const TERM_AND_SPOT = ["gpu.oneWeekPrice", "gpu.oneMonthPrice", "gpu.threeMonthPrice", "gpu.sixMonthPrice", "gpu.secureSpotPrice", "gpu.communitySpotPrice"];

describe.skipIf(missingReference)(refSuite("gateway: v1 pod gpu details from the catalog"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  let catalogRow: any;
  const usage = async () => (await (await fetch(rig.gateway.adminUrl + "/_bridge/usage")).json()) as any;

  beforeAll(async () => {
    rig = await startRig();
    const res = await fetch(rig.sandbox.url + "/v2/catalog/gpus", { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.json()) as any;
    catalogRow = (body.gpuTypes ?? body.gpus).find((g: any) => g.id === "NVIDIA RTX A5000");
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("GetPod and ListPods: gpu.displayName, securePrice, communityPrice and machine.gpuDisplayName from the catalog row of gpu.id", async () => {
    const created = await v1("POST", "/pods", { body: { name: "g", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], gpuCount: 2 } });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const pod = await waitForPod(v1, id, (p) => p.desiredStatus === "RUNNING");
    const expected = { id: "NVIDIA RTX A5000", count: 2, displayName: catalogRow.name, securePrice: catalogRow.price.secure, communityPrice: catalogRow.price.community };
    expect(pod.gpu).toEqual(expected);
    expect(pod.machine.gpuDisplayName).toBe(catalogRow.name);
    const listed = (await v1("GET", "/pods")).json.find((p: any) => p.id === id);
    expect(listed.gpu).toEqual(expected);
    expect(created.json.gpu).toEqual(expected);
  });

  it("the term and spot prices are named in the warning and counted; the filled ones are not", async () => {
    const id = (await v1("POST", "/pods", { body: { name: "g2", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] } })).json.id;
    for (const [key, read] of [["GetPod", () => v1("GET", `/pods/${id}`)], ["ListPods", () => v1("GET", "/pods")]] as const) {
      const r = await read();
      expect(r.status).toBe(200);
      const named = lostFieldsNamed(r.headers);
      for (const f of TERM_AND_SPOT) expect(named, `${key} names ${f}`).toContain(f);
      for (const f of ["gpu.displayName", "gpu.securePrice", "gpu.communityPrice", "machine.gpuDisplayName"]) expect(named, `${key} does not name ${f}`).not.toContain(f);
      const drops = (await usage()).drops.filter((d: any) => d.key === key).map((d: any) => d.field);
      for (const f of TERM_AND_SPOT) expect(drops, `${key} counts answer.${f}`).toContain(`answer.${f}`);
    }
  });

  it("a CPU pod has no gpu: no gpu field is declared lost on its answer, but its host details are", async () => {
    const id = (await v1("POST", "/pods", { body: { name: "c", imageName: "busybox", computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 2 } })).json.id;
    const r = await v1("GET", `/pods/${id}`);
    expect(r.status).toBe(200);
    expect(r.json.gpu).toBeUndefined();
    const named = lostFieldsNamed(r.headers);
    expect(named.filter((f) => f.startsWith("gpu."))).toEqual([]);
    expect(named).toContain("machine.location");
  });

  it("every lost field of the pod record is named on a GPU pod's answer", async () => {
    const id = (await v1("POST", "/pods", { body: { name: "g3", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] } })).json.id;
    const named = lostFieldsNamed((await v1("GET", `/pods/${id}`)).headers);
    expect([...named].sort()).toEqual(lensNamed("pod-record").v1Lost!.map((l) => l.v1).sort());
  });
});
