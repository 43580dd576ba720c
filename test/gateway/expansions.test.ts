// v1 include expansions v2 can serve with another documented call, through the gateway: official
// and public templates from the v2 catalog, endpoint workers, a pod's network volume; and a create
// answer that keeps the templateId the client sent. The sandbox's answers to those extra calls are
// checked against the v2 document too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectV2Response } from "../helpers/v2-contract.ts";
import { expectValidV2Requests, KEY, startRig, v1Client, warningsBesidesLostFields, type Rig } from "./helpers.ts";

describe.skipIf(missingReference)(refSuite("gateway: v1 include expansions"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const v2 = async (path: string) => (await expectV2Response(await fetch(rig.sandbox.url + path, { headers: { authorization: `Bearer ${KEY}` } }), "GET")).body;

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    expectValidV2Requests(rig.upstreamCalls);
    await rig?.close();
  });

  it("includeRunpodTemplates appends the v2 catalog's official templates (isRunpod), includePublicTemplates the community ones", async () => {
    const own = (await v1("POST", "/templates", { body: { name: "mine", imageName: "busybox" } })).json;
    const official = (await v2("/v2/catalog/templates?source=official")).templates;
    const community = [...(await v2("/v2/catalog/templates?source=verified")).templates, ...(await v2("/v2/catalog/templates?source=community")).templates];
    expect(official.length).toBeGreaterThan(0);

    const plain = await v1("GET", "/templates");
    expect(plain.json.map((t: any) => t.id)).toEqual([own.id]);
    const withRunpod = await v1("GET", "/templates?includeRunpodTemplates=true");
    // (Its only warning: includeEndpointBoundTemplates was left out, harmless-query.test.ts.)
    expect(warningsBesidesLostFields(withRunpod.headers).filter((w) => !w.startsWith("includeEndpointBoundTemplates not given"))).toEqual([]);
    expect(withRunpod.json.map((t: any) => t.id)).toEqual([own.id, ...official.map((t: any) => t.id)]);
    const first = withRunpod.json[1];
    expect(first).toMatchObject({ isRunpod: true, name: official[0].name, imageName: official[0].image });
    const withPublic = await v1("GET", "/templates?includePublicTemplates=true&includeRunpodTemplates=false");
    expect(withPublic.json.map((t: any) => t.id)).toEqual([own.id, ...community.map((t: any) => t.id)]);
  });

  it("includeWorkers lists each endpoint's v2 workers as v1 worker pods", async () => {
    const tpl = (await v1("POST", "/templates", { body: { name: "sls", imageName: "worker:1", isServerless: true } })).json;
    const ep = (await v1("POST", "/endpoints", { body: { name: "ep", templateId: tpl.id, gpuTypeIds: ["NVIDIA RTX A5000"], workersMin: 2, workersMax: 3 } })).json;
    const v2Workers = (await v2(`/v2/serverless/${ep.id}/workers`)).workers;
    expect(v2Workers).toHaveLength(2);
    const got = await v1("GET", `/endpoints/${ep.id}?includeWorkers=true`);
    expect(warningsBesidesLostFields(got.headers)).toEqual([]);
    expect(got.json.workers.map((w: any) => w.id)).toEqual(v2Workers.map((w: any) => w.id));
    expect(got.json.workers[0]).toMatchObject({ desiredStatus: "RUNNING", endpointId: ep.id, image: v2Workers[0].image, gpu: { count: 1 }, machine: { dataCenterId: v2Workers[0].dataCenterId } });
    const listed = await v1("GET", "/endpoints?includeWorkers=true");
    expect(listed.json.find((e: any) => e.id === ep.id).workers).toHaveLength(2);
    expect((await v1("GET", `/endpoints/${ep.id}`)).json.workers).toBeUndefined();
  });

  it("includeNetworkVolume fills the pod's networkVolume from the volume", async () => {
    const volume = (await v1("POST", "/networkvolumes", { body: { name: "data", size: 15, dataCenterId: "EU-RO-1" } })).json;
    const pod = (await v1("POST", "/pods", { body: { name: "nv", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], networkVolumeId: volume.id } })).json;
    expect((await v1("GET", `/pods/${pod.id}`)).json.networkVolume).toEqual({ id: volume.id });
    const expanded = await v1("GET", `/pods/${pod.id}?includeNetworkVolume=true`);
    expect(expanded.json.networkVolume).toEqual({ id: volume.id, name: "data", size: 15, dataCenterId: "EU-RO-1" });
    const listed = await v1("GET", "/pods?includeNetworkVolume=true");
    expect(listed.json.find((p: any) => p.id === pod.id).networkVolume).toEqual(expanded.json.networkVolume);
  });

  it("a create answer keeps the templateId the client sent (v2 keeps no link)", async () => {
    const tpl = (await v1("POST", "/templates", { body: { name: "pod-tpl", imageName: "busybox" } })).json;
    const created = await v1("POST", "/pods", { body: { name: "from-tpl", templateId: tpl.id, gpuTypeIds: ["NVIDIA RTX A5000"] } });
    expect(created.json.templateId).toBe(tpl.id);
    const sls = (await v1("POST", "/templates", { body: { name: "sls2", imageName: "w:1", isServerless: true } })).json;
    const ep = await v1("POST", "/endpoints", { body: { name: "ep2", templateId: sls.id, gpuTypeIds: ["NVIDIA RTX A5000"] } });
    expect(ep.json.templateId).toBe(sls.id);
  });
});
