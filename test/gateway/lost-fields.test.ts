// Every v1 record field the table declares v2 cannot supply (`v1Lost`) is declared on the wire: the
// answer that lacks it carries a V2-Bridge-Warning naming it, and the usage drops count it as
// `answer.<field>`. The walk is over the table itself, so a lens that gains a lost field (or a new
// lens with lost fields) is covered or fails here. Real HTTP: v1 client → gateway → strict sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lenses, operations } from "../../mappings/index.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { lostFieldsNamed, startRig, v1Client, type Rig, type V1Result } from "./helpers.ts";

const declaredLost = (r: V1Result) => lostFieldsNamed(r.headers);

const recordsOf = (json: unknown): Record<string, unknown>[] => (Array.isArray(json) ? json : [json]) as Record<string, unknown>[];

describe.skipIf(missingReference)(refSuite("gateway: v1 record fields v2 cannot supply are declared on the wire"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const ids: Record<string, string> = {};
  const usage = async () => (await (await fetch(rig.gateway.adminUrl + "/_bridge/usage")).json()) as any;

  /** One v1 read per record lens that declares lost fields, with the operation it is. */
  const reads: Record<string, { key: string; read: () => Promise<V1Result> }> = {
    "pod-record": { key: "GetPod", read: () => v1("GET", `/pods/${ids.pod}`) },
    "endpoint-record": { key: "GetEndpoint", read: () => v1("GET", `/endpoints/${ids.endpoint}`) },
    "template-record": { key: "GetTemplate", read: () => v1("GET", `/templates/${ids.template}`) },
    "pod-billing-record": { key: "PodBilling", read: () => v1("GET", "/billing/pods?bucketSize=day&grouping=podId") },
    "serverless-billing-record": { key: "EndpointBilling", read: () => v1("GET", "/billing/endpoints?bucketSize=day") },
    "network-volume-billing-record": { key: "NetworkVolumeBilling", read: () => v1("GET", "/billing/networkvolumes?bucketSize=day") },
  };

  /** The create bodies (v1) of the records read below. */
  const sent: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    rig = await startRig();
    sent.template = { name: "pod-tpl", imageName: "busybox", readme: "# notes", containerDiskInGb: 30, env: { A: "1" } };
    ids.template = (await v1("POST", "/templates", { body: sent.template })).json.id;
    const sls = (await v1("POST", "/templates", { body: { name: "sls-tpl", imageName: "worker:1", isServerless: true } })).json.id;
    sent.pod = { name: "p", templateId: ids.template, gpuTypeIds: ["NVIDIA RTX A5000"], locked: true };
    ids.pod = (await v1("POST", "/pods", { body: sent.pod })).json.id;
    sent.endpoint = { name: "e", templateId: sls, gpuTypeIds: ["NVIDIA RTX A5000"], workersMax: 3 };
    ids.endpoint = (await v1("POST", "/endpoints", { body: sent.endpoint })).json.id;
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("every lens with lost fields has a read here, and it is the lens that read answers with", () => {
    const withLost = Object.values(lenses).filter((l) => l.v1Lost?.length).map((l) => l.name);
    expect(Object.keys(reads).sort()).toEqual([...withLost].sort());
    for (const [lens, { key }] of Object.entries(reads)) {
      const response = operations.find((o) => o.key === key)!.response;
      expect("lens" in response && response.lens, key).toBe(lens);
    }
  });

  it.each(Object.values(lenses).filter((l) => l.v1Lost?.length).map((l) => [l.name, l] as const))("%s: each lost field is absent, named in the warning and counted", async (name, lens) => {
    const { key, read } = reads[name]!;
    const r = await read();
    expect(r.status).toBe(200);
    const records = recordsOf(r.json);
    expect(records.length, `${key} answered no records to check`).toBeGreaterThan(0);
    const named = declaredLost(r);
    const drops = (await usage()).drops.filter((d: any) => d.key === key).map((d: any) => d.field);
    for (const { v1: field } of lens.v1Lost!) {
      expect(records.some((rec) => rec[field] === undefined), `${key} answers ${field}, declared lost`).toBe(true);
      expect(named, `${key}: V2-Bridge-Warning names ${field}`).toContain(field);
      expect(drops, `${key}: usage drops count answer.${field}`).toContain(`answer.${field}`);
    }
  });

  it("a field lost for some records only (lostFor): declared on a GPU pod, which lacks it, not on a CPU pod, which has it", async () => {
    // From the template, so the create answer carries its templateId (the templateId test counts creates that lack it).
    const cpuPod = (await v1("POST", "/pods", { body: { name: "c", templateId: ids.template, computeType: "CPU", vcpuCount: 4 } })).json.id;
    const onCpu = await v1("GET", `/pods/${cpuPod}`);
    expect(onCpu.json.vcpuCount).toBe(4);
    expect(declaredLost(onCpu)).not.toContain("vcpuCount");
    const onGpu = await v1("GET", `/pods/${ids.pod}`);
    expect(onGpu.json.vcpuCount).toBeUndefined();
    expect(declaredLost(onGpu)).toEqual(expect.arrayContaining(["vcpuCount", "memoryInGb"]));
  });

  // The mapping table (and docs/mapping.md, generated from it) calls these copies: a copy comes back.
  it.each([["pod-record", "pod", "GetPod"], ["endpoint-record", "endpoint", "GetEndpoint"], ["template-record", "template", "GetTemplate"]] as const)(
    "%s: every field the table copies comes back on a read when the create sent it",
    async (lens, kind, key) => {
      const r = await reads[lens]!.read();
      const copies = lenses[lens]!.fields.filter((f) => !f.converter && f.only !== "toV2" && f.v1.length === 1 && !f.v1[0]!.includes("."));
      const checked = copies.filter((f) => sent[kind]![f.v1[0]!] !== undefined);
      expect(checked.length, `${key}: copies sent at create`).toBeGreaterThan(1);
      for (const f of checked) expect(r.json[f.v1[0]!], `${key} ${f.v1[0]} ⇄ ${f.v2[0]} is a copy`).toEqual(sent[kind]![f.v1[0]!]);
    },
  );

  it("templateId: named on pod and endpoint reads and on the endpoint update answer, not on a create answer that carries it", async () => {
    const pod = await v1("GET", `/pods/${ids.pod}`);
    expect(pod.json.templateId).toBeUndefined();
    expect(declaredLost(pod)).toContain("templateId");
    const listed = await v1("GET", "/pods");
    expect(declaredLost(listed)).toContain("templateId");
    const endpoint = await v1("GET", `/endpoints/${ids.endpoint}`);
    expect(declaredLost(endpoint)).toContain("templateId");
    const updated = await v1("PATCH", `/endpoints/${ids.endpoint}`, { body: { workersMax: 4 } });
    expect(updated.json.templateId).toBeUndefined();
    expect(declaredLost(updated)).toContain("templateId");

    const created = await v1("POST", "/pods", { body: { name: "p2", templateId: ids.template, gpuTypeIds: ["NVIDIA RTX A5000"] } });
    expect(created.json.templateId).toBe(ids.template);
    expect(declaredLost(created)).not.toContain("templateId");
    expect(declaredLost(created)).toContain("machineId");

    const counted = (await usage()).drops.filter((d: any) => d.field === "answer.templateId").map((d: any) => d.key);
    expect(counted).toEqual(expect.arrayContaining(["GetPod", "ListPods", "GetEndpoint", "UpdateEndpoint"]));
    expect(counted).not.toContain("CreatePod");
  });

  it("readme: named on the template read, and the input drop stays counted apart from the answer's", async () => {
    const t = await v1("GET", `/templates/${ids.template}`);
    expect(t.json.readme).toBeUndefined();
    expect(declaredLost(t)).toContain("readme");
    const drops = (await usage()).drops;
    expect(drops.find((d: any) => d.key === "CreateTemplate" && d.field === "readme")).toMatchObject({ count: 1 });
    expect(drops.find((d: any) => d.key === "CreateTemplate" && d.field === "answer.readme")).toMatchObject({ count: 2 });
  });

  it("an empty list lacks nothing, and says nothing", async () => {
    const r = await v1("GET", "/networkvolumes");
    expect(r.json).toEqual([]);
    expect(declaredLost(r)).toEqual([]);
  });
});

describe.skipIf(missingReference)(refSuite("gateway --strict: a read that lacks lost fields is answered"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  beforeAll(async () => {
    rig = await startRig({ gateway: { strict: true } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("declares them without refusing (the client sent nothing v2 drops)", async () => {
    const pod = (await v1("POST", "/pods", { body: { name: "p", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] } })).json;
    const r = await v1("GET", `/pods/${pod.id}`);
    expect(r.status).toBe(200);
    expect(declaredLost(r)).toContain("savingsPlans");
  });
});
