// v1 pod records through the gateway keep what v1 clients read: the public address and port
// mappings (from v2 runtime.ports, not the private global-networking address), the hourly rate of
// stopped pods (from the catalog, not v2's current spend of 0), and the fields v2 implies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { KEY, startRig, v1Client, type Rig } from "./helpers.ts";

/** Reads the sandbox directly (as v2) to compare the gateway's answer with the v2 facts. */
async function v2Get(rig: Rig, path: string): Promise<any> {
  const res = await fetch(rig.sandbox.url + path, { headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** Polls a v1 pod until `ready` holds (a pod may pass through boot states first); bounded. */
export async function waitForPod(v1: ReturnType<typeof v1Client>, id: string, ready: (pod: any) => boolean): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const pod = (await v1("GET", `/pods/${id}`)).json;
    if (ready(pod)) return pod;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pod ${id} never became ready`);
}

describe.skipIf(missingReference)(refSuite("gateway: v1 pod records"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("publicIp and portMappings come from runtime.ports, not the private globalNetworking ip", async () => {
    const created = await v1("POST", "/pods", {
      body: { name: "net", imageName: "runpod/pytorch:2", gpuTypeIds: ["NVIDIA RTX A5000"], globalNetworking: true, ports: ["8888/http", "22/tcp"] },
    });
    const pod = await waitForPod(v1, created.json.id, (p) => p.desiredStatus === "RUNNING" && p.publicIp);
    const v2 = await v2Get(rig, `/v2/pods/${pod.id}`);
    const ssh = v2.runtime.ports.find((p: any) => p.private === 22);
    expect(pod.publicIp).toBe(ssh.ip);
    expect(pod.publicIp).not.toBe(v2.globalNetworking.ip);
    expect(pod.portMappings).toEqual({ "22": ssh.public });
    expect(pod).toMatchObject({ interruptible: false, dockerEntrypoint: [], machine: { secureCloud: true, gpuTypeId: "NVIDIA RTX A5000" } });
  });

  it("costPerHr stays the hourly rate when a GPU pod is stopped (catalog price × count by cloud)", async () => {
    const created = await v1("POST", "/pods", { body: { name: "gpu2", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], gpuCount: 2, cloudType: "COMMUNITY", volumeInGb: 0 } });
    const id = created.json.id;
    const running = await waitForPod(v1, id, (p) => p.desiredStatus === "RUNNING");
    const v2Running = await v2Get(rig, `/v2/pods/${id}`);
    if (v2Running.status === "RUNNING") expect(running.costPerHr).toBe(v2Running.cost);
    expect(running.machine.secureCloud).toBe(false);

    expect((await v1("POST", `/pods/${id}/stop`)).status).toBe(200);
    const v2Stopped = await v2Get(rig, `/v2/pods/${id}`);
    expect(v2Stopped.cost).toBe(0);
    const { gpuTypes, gpus } = await v2Get(rig, "/v2/catalog/gpus");
    const price = (gpuTypes ?? gpus).find((g: any) => g.id === "NVIDIA RTX A5000").price.community;
    const stopped = (await v1("GET", `/pods/${id}`)).json;
    expect(stopped.desiredStatus).toBe("EXITED");
    expect(stopped.costPerHr).toBeCloseTo(price * 2, 4);
    expect(stopped.adjustedCostPerHr).toBeCloseTo(price * 2, 4);
    expect(stopped.portMappings).toEqual({});
    expect(stopped.publicIp).toBeUndefined();
    const listed = (await v1("GET", "/pods")).json.find((p: any) => p.id === id);
    expect(listed.costPerHr).toBeCloseTo(price * 2, 4);
  });

  it("costPerHr of a stopped CPU pod is the flavour's per-vCPU price × vCPUs", async () => {
    const created = await v1("POST", "/pods", { body: { name: "cpu", imageName: "busybox", computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4 } });
    const id = created.json.id;
    await waitForPod(v1, id, (p) => p.desiredStatus === "RUNNING");
    expect((await v1("POST", `/pods/${id}/stop`)).status).toBe(200);
    const { cpus } = await v2Get(rig, "/v2/catalog/cpus");
    const perVcpu = cpus.find((c: any) => c.id === "cpu3c").price.securePerVcpu;
    const stopped = (await v1("GET", `/pods/${id}`)).json;
    expect(stopped.costPerHr).toBeCloseTo(perVcpu * 4, 4);
    expect(stopped.machine).toMatchObject({ secureCloud: true, cpuTypeId: "cpu3c" });
    expect(stopped.interruptible).toBe(false);
  });
});
