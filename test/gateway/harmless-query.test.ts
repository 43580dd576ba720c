// Harmless query values (the table's `harmless`): a v1 parameter sent with a value that asks for
// what v2 does anyway is left out without a warning, a usage drop, or a --strict refusal. Each one
// of the table, through the gateway to the strict v2 sandbox: the answer and the v2 requests equal
// those of the same request without the parameter. A value that is not harmless keeps its warning.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../mappings/index.ts";
import { loadV1 } from "../../openapi/reference.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectValidV2Requests, startRig, v1Client, warningsBesidesLostFields, type Rig } from "./helpers.ts";

/** A v1 query parameter's documented default, as sent on the wire. */
function v1Default(method: string, path: string, name: string): string | undefined {
  const params: any[] = (loadV1() as any).paths[path][method.toLowerCase()].parameters ?? [];
  const p = params.find((x) => x.name === name && x.in === "query");
  return p?.schema?.default === undefined ? undefined : String(p.schema.default);
}

/** A pod, an endpoint and a template to read. */
async function seed(v1: ReturnType<typeof v1Client>): Promise<Record<string, string>> {
  const tpl = (await v1("POST", "/templates", { body: { name: "sls", imageName: "worker:1", isServerless: true } })).json;
  return {
    templateId: (await v1("POST", "/templates", { body: { name: "mine", imageName: "busybox" } })).json.id,
    endpointId: (await v1("POST", "/endpoints", { body: { name: "ep", templateId: tpl.id, gpuTypeIds: ["NVIDIA RTX A5000"], workersMin: 1 } })).json.id,
    podId: (await v1("POST", "/pods", { body: { name: "p", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] } })).json.id,
  };
}

const steady = (json: unknown) => JSON.parse(JSON.stringify(json, (k, v) => (k === "amount" ? undefined : v)));

const harmless = operations.flatMap((op) => (op.query ?? []).flatMap((q) => (q.harmless?.values ?? []).map((value) => ({ op, name: q.v1, value }))));

describe.skipIf(missingReference)(refSuite("gateway: harmless query values"), () => {
  let rig: Rig;
  let strict: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const v1Strict = v1Client(() => strict.gateway.url);
  const ids: Record<string, string> = {};
  const strictIds: Record<string, string> = {};
  const fill = (path: string, with_: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, p: string) => with_[p]!);

  beforeAll(async () => {
    rig = await startRig();
    strict = await startRig({ gateway: { strict: true } });
    Object.assign(ids, await seed(v1));
    Object.assign(strictIds, await seed(v1Strict));
  });
  afterAll(async () => {
    expectValidV2Requests(rig.upstreamCalls);
    await rig?.close();
    await strict?.close();
  });

  it("the table has harmless values for includes, template lists and billing grouping", () => {
    expect(harmless.map((h) => `${h.op.key} ${h.name}=${h.value}`)).toEqual(expect.arrayContaining(["ListPods includeMachine=false", "ListTemplates includePublicTemplates=false", "PodBilling grouping=podId", "EndpointBilling grouping=endpointId"]));
  });

  it("each one reaches v2 as no parameter at all, without a warning, a usage drop or a --strict refusal", async () => {
    for (const { op, name, value } of harmless) {
      const path = fill(op.v1.path, ids);
      const v2Path = op.v2!.path.replace("{id}", Object.values(op.pathParams ?? {}).length ? ids[Object.keys(op.pathParams!)[0]!]! : "");
      const label = `${op.key} ${name}=${value}`;
      const plain = await v1(op.v1.method, path);
      const mid = rig.upstreamCalls.length;
      const withIt = await v1(op.v1.method, `${path}?${name}=${value}`);
      expect(withIt.status, label).toBe(200);
      // (Another parameter left out may have its own warning: tested below.)
      expect(warningsBesidesLostFields(withIt.headers).filter((w) => !/^\w+ not given: /.test(w)), label).toEqual([]);
      // Only the operation's own v2 call, with nothing in its query: v2's behaviour is what the value asks for.
      expect(rig.upstreamCalls.slice(mid).map((c) => `${c.method} ${c.path}`), label).toEqual([`${op.v2!.method} ${v2Path}`]);
      // Where the value is v1's default, the request is the request without it.
      // (Billing amounts of the running bucket grow between the two requests: its grouping is what is compared.)
      if (v1Default(op.v1.method, op.v1.path, name) === value) expect(steady(withIt.json), label).toEqual(steady(plain.json));
      expect((await v1Strict(op.v1.method, `${fill(op.v1.path, strictIds)}?${name}=${value}`)).status, `${label} under --strict`).toBe(200);
    }
    const usage: any = await (await fetch(rig.gateway.adminUrl + "/_bridge/usage")).json();
    expect(usage.drops.filter((d: any) => !d.field.startsWith("answer."))).toEqual([]);
  });

  it("a value that is not harmless is still warned about and refused under --strict", async () => {
    const r = await v1("GET", `/templates/${ids.templateId}?includePublicTemplates=false`);
    expect(warningsBesidesLostFields(r.headers).join()).toMatch(/includePublicTemplates ignored/);
    expect((await v1("GET", "/pods?includeMachine=true")).headers.get("v2-bridge-warning")).toMatch(/includeMachine ignored/);
    expect((await v1("GET", "/billing/endpoints?grouping=gpuTypeId")).headers.get("v2-bridge-warning")).toMatch(/grouping ignored/);
    expect((await v1Strict("GET", "/pods?includeMachine=true")).status).toBe(400);
  });

  it("a left-out parameter whose v1 default v2 does not follow is warned about, not refused", async () => {
    const r = await v1("GET", "/templates");
    expect(r.status).toBe(200);
    expect(warningsBesidesLostFields(r.headers).join()).toMatch(/includeEndpointBoundTemplates not given: v1 left endpoint-bound templates out by default/);
    expect(warningsBesidesLostFields((await v1("GET", "/templates?includeEndpointBoundTemplates=true")).headers)).toEqual([]);
    expect((await v1Strict("GET", "/templates")).status).toBe(200);
    // Pod billing's default grouping is emulated: nothing to say.
    expect(warningsBesidesLostFields((await v1("GET", "/billing/pods")).headers).join()).not.toMatch(/not given/);
  });
});
