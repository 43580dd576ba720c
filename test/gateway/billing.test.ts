// v1 billing through the gateway: pod billing grouped by GPU type (v1's default) or by pod (v2's
// shape, no warning), the gpuTypeId filter, and network-volume billing summed per bucket (v1 had
// no per-volume records). Expected figures are computed from the sandbox's own v2 answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectV2Response } from "../helpers/v2-contract.ts";
import { expectValidV2Requests, KEY, startRig, v1Client, warningsBesidesLostFields, type Rig } from "./helpers.ts";

const sumBy = (records: any[], key: (r: any) => string, amount: (r: any) => number) => {
  const out = new Map<string, number>();
  for (const r of records) out.set(key(r), (out.get(key(r)) ?? 0) + amount(r));
  return out;
};

describe.skipIf(missingReference)(refSuite("gateway: v1 billing"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const v2 = async (path: string) => (await expectV2Response(await fetch(rig.sandbox.url + path, { headers: { authorization: `Bearer ${KEY}` } }), "GET")).body;
  const gpuOf = new Map<string, string>();

  beforeAll(async () => {
    rig = await startRig();
    for (const [type, n] of [["NVIDIA RTX A5000", 2], ["NVIDIA GeForce RTX 4090", 1]] as const) {
      for (let i = 0; i < n; i++) {
        const pod = (await v1("POST", "/pods", { body: { name: `b${i}`, imageName: "busybox", gpuTypeIds: [type] } })).json;
        gpuOf.set(pod.id, type);
      }
    }
    const cpu = (await v1("POST", "/pods", { body: { name: "c", imageName: "busybox", computeType: "CPU", cpuFlavorIds: ["cpu3c"] } })).json;
    gpuOf.set(cpu.id, "cpu3c");
  });
  afterAll(async () => {
    expectValidV2Requests(rig.upstreamCalls);
    await rig?.close();
  });

  it("default grouping (gpuTypeId): one record per bucket and GPU type, amounts summed over its pods", async () => {
    const r = await v1("GET", "/billing/pods?bucketSize=day");
    const v2Records = (await v2("/v2/billing/pods?bucketSize=day")).records;
    const typeOf = (rec: any) => gpuOf.get(rec.podId) ?? "";
    const expected = sumBy(v2Records, (rec) => `${rec.startTime}|${typeOf(rec)}`, (rec) => rec.totalAmount);
    const got = sumBy(r.json, (rec) => `${rec.time}|${rec.gpuTypeId ?? ""}`, (rec) => rec.amount);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, amount] of expected) expect(got.get(key), key).toBeCloseTo(amount, 2);
    expect(r.json.every((rec: any) => rec.podId === undefined)).toBe(true);
    expect(new Set(r.json.map((rec: any) => rec.gpuTypeId))).toEqual(new Set(["NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090", "cpu3c", undefined]));
    // The sandbox's seeded history bills pods v2 no longer lists: said in the warning header.
    expect(r.headers.get("v2-bridge-warning")).toMatch(/could not be attributed/);
  });

  it("grouping=podId is v2's own shape: one record per pod and bucket, no warning", async () => {
    const r = await v1("GET", "/billing/pods?bucketSize=day&grouping=podId");
    expect(warningsBesidesLostFields(r.headers)).toEqual([]);
    const v2Records = (await v2("/v2/billing/pods?bucketSize=day")).records;
    expect(r.json.map((rec: any) => `${rec.time}|${rec.podId}`).sort()).toEqual(v2Records.map((rec: any) => `${rec.startTime}|${rec.podId}`).sort());
  });

  it("the gpuTypeId filter keeps the records of that GPU type's pods", async () => {
    const r = await v1("GET", "/billing/pods?bucketSize=day&grouping=podId&gpuTypeId=NVIDIA%20RTX%20A5000");
    expect(r.json.length).toBeGreaterThan(0);
    expect(r.json.every((rec: any) => gpuOf.get(rec.podId) === "NVIDIA RTX A5000")).toBe(true);
  });

  it("network volumes: one record per bucket, the volumes summed", async () => {
    for (const size of [10, 40]) await v1("POST", "/networkvolumes", { body: { name: `v${size}`, size, dataCenterId: "EU-RO-1" } });
    const r = await v1("GET", "/billing/networkvolumes?bucketSize=day");
    const v2Records = (await v2("/v2/billing/network-volumes?bucketSize=day")).records;
    const expected = sumBy(v2Records, (rec) => rec.startTime, (rec) => rec.totalAmount);
    expect(r.json.map((rec: any) => rec.time)).toEqual([...expected.keys()]);
    expect(new Set(v2Records.map((rec: any) => rec.networkVolumeId)).size).toBeGreaterThan(1);
    for (const rec of r.json) expect(rec.amount, rec.time).toBeCloseTo(expected.get(rec.time)!, 2);
  });
});
