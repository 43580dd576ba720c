// What v2 drops is visible: counted per client, operation and field on /_bridge/usage, listed in
// the report's "what your clients send that v2 drops" section (report fetched from the live
// gateway over HTTP), and refused with a v1 400 naming the field under --strict.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateReport } from "../../report/index.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { inputDrops, startRig, v1Client, type Rig } from "./helpers.ts";

const podBody = { name: "p", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] };

describe.skipIf(missingReference)(refSuite("gateway: dropped inputs are counted and reported"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("counts each dropped field and query parameter per client and operation", async () => {
    const a = { "user-agent": "client-a/1" };
    const b = { "user-agent": "client-b/1" };
    for (let i = 0; i < 2; i++) {
      const r = await v1("POST", "/pods", { body: { ...podBody, countryCodes: ["RO"], notAField: 1 }, headers: a });
      expect(r.status).toBe(201);
    }
    await v1("POST", "/pods", { body: { ...podBody, countryCodes: ["RO"] }, headers: b });
    await v1("GET", "/pods?includeSavingsPlans=true", { headers: b });
    await v1("GET", "/pods", { headers: b });

    const usage: any = await (await fetch(rig.gateway.adminUrl + "/_bridge/usage")).json();
    const drop = (key: string, field: string) => usage.drops.find((d: any) => d.key === key && d.field === field);
    expect(drop("CreatePod", "countryCodes")).toEqual({ key: "CreatePod", field: "countryCodes", count: 3, clients: 2 });
    expect(drop("CreatePod", "notAField")).toEqual({ key: "CreatePod", field: "notAField", count: 2, clients: 1 });
    expect(drop("ListPods", "includeSavingsPlans")).toMatchObject({ count: 1, clients: 1 });
    const clientA = usage.clients.find((c: any) => c.userAgent === "client-a/1");
    expect(inputDrops(clientA.drops)).toEqual({ CreatePod: { countryCodes: 2, notAField: 2 } });
    const clientB = usage.clients.find((c: any) => c.userAgent === "client-b/1");
    expect(inputDrops(clientB.drops)).toEqual({ CreatePod: { countryCodes: 1 }, ListPods: { includeSavingsPlans: 1 } });
  });

  it("counts an input a converter leaves out to keep the request inside v2's rules (idleTimeout with REQUEST_COUNT)", async () => {
    const ua = { "user-agent": "client-rc/1" };
    const tpl = (await v1("POST", "/templates", { body: { name: "sls-drops", imageName: "busybox", isServerless: true } })).json;
    const endpoint = { name: "rc", templateId: tpl.id, gpuTypeIds: ["NVIDIA RTX A5000"], scalerType: "REQUEST_COUNT", scalerValue: 2 };
    expect((await v1("POST", "/endpoints", { body: { ...endpoint, idleTimeout: 30 }, headers: ua })).status).toBe(200);
    // v1's default idleTimeout is not applied with REQUEST_COUNT, so nothing the client sent is dropped.
    expect((await v1("POST", "/endpoints", { body: endpoint, headers: ua })).status).toBe(200);
    const usage: any = await (await fetch(rig.gateway.adminUrl + "/_bridge/usage")).json();
    expect(usage.drops.find((d: any) => d.key === "CreateEndpoint" && d.field === "idleTimeout")).toEqual({ key: "CreateEndpoint", field: "idleTimeout", count: 1, clients: 1 });
    expect(inputDrops(usage.clients.find((c: any) => c.userAgent === "client-rc/1").drops)).toEqual({ CreateEndpoint: { idleTimeout: 1 } });
  });

  it("the report lists them in its drops section", async () => {
    const { model, html } = await generateReport({ traffic: rig.gateway.adminUrl });
    const row = model.drops.find((d) => d.key === "CreatePod" && d.field === "countryCodes")!;
    expect(row).toMatchObject({ count: 3, clients: 2, v1: { method: "POST", path: "/pods" } });
    expect(row.clientFingerprints.length).toBeGreaterThan(0);
    const section = html.slice(html.indexOf('<section id="drops"'), html.indexOf("</section>", html.indexOf('<section id="drops"')));
    expect(section).toContain("What your clients send that v2 drops");
    expect(section).toContain("<code>countryCodes</code>");
    expect(section).toContain("<code>includeSavingsPlans</code>");
  });
});

describe.skipIf(missingReference)(refSuite("gateway --strict"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);

  beforeAll(async () => {
    rig = await startRig({ gateway: { strict: true } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("refuses a body field v2 would drop with a v1 400 naming it, before any v2 call", async () => {
    const r = await v1("POST", "/pods", { body: { ...podBody, countryCodes: ["RO"] } });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/countryCodes/);
    expect(r.json.message).toMatch(/--strict/);
    expect(rig.upstreamCalls.some((c) => c.method === "POST" && c.path === "/v2/pods")).toBe(false);
  });

  it("refuses dropped query parameters and unknown fields too, and passes what v2 keeps", async () => {
    const q = await v1("GET", "/pods?includeSavingsPlans=true");
    expect([q.status, q.json.message]).toEqual([400, expect.stringMatching(/includeSavingsPlans/)]);
    const unknown = await v1("POST", "/pods", { body: { ...podBody, notAField: 1 } });
    expect([unknown.status, unknown.json.message]).toEqual([400, expect.stringMatching(/notAField/)]);
    expect((await v1("POST", "/pods", { body: podBody })).status).toBe(201);
    // Emulated parameters are kept, not dropped.
    expect((await v1("GET", "/pods?includeNetworkVolume=true&name=p")).status).toBe(200);
  });

  it("refuses an input a converter has to leave out (idleTimeout with REQUEST_COUNT), and passes the request without it", async () => {
    const tpl = (await v1("POST", "/templates", { body: { name: "sls-strict", imageName: "busybox", isServerless: true } })).json;
    const endpoint = { name: "rc", templateId: tpl.id, gpuTypeIds: ["NVIDIA RTX A5000"], scalerType: "REQUEST_COUNT", scalerValue: 2 };
    const refused = await v1("POST", "/endpoints", { body: { ...endpoint, idleTimeout: 30 } });
    expect([refused.status, refused.json.message]).toEqual([400, expect.stringMatching(/idleTimeout.*--strict/)]);
    expect((await v1("POST", "/endpoints", { body: endpoint })).status).toBe(200);
  });

  it("refuses an input an emulation has to leave out", async () => {
    const volume = (await v1("POST", "/networkvolumes", { body: { name: "nv", size: 10, dataCenterId: "EU-RO-1" } })).json;
    const pod = (await v1("POST", "/pods", { body: { ...podBody, networkVolumeId: volume.id } })).json;
    const r = await v1("PATCH", `/pods/${pod.id}`, { body: { volumeInGb: 50 } });
    expect([r.status, r.json.message]).toEqual([400, expect.stringMatching(/volumeInGb/)]);
  });
});
