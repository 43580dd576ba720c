// v1 template updates that name one half of the volume (volumeMountPath or volumeInGb): the gateway
// reads the template and sends the complete v2 mount, so the other half is kept. Real HTTP: a v1
// client → the gateway → the strict v2 sandbox; the v2 PATCH the sandbox received is checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectValidV2Requests, KEY, startRig, v1Client, type Rig } from "./helpers.ts";

describe.skipIf(missingReference)(refSuite("gateway: v1 template mount updates"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const sentFor = (id: string) => rig.upstreamCalls.filter((c) => c.path === `/v2/templates/${id}`);
  const lastPatch = (id: string) => JSON.parse(sentFor(id).filter((c) => c.method === "PATCH").at(-1)!.body!);
  const v2Template = async (id: string) => (await (await fetch(`${rig.sandbox.url}/v2/templates/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as any;
  const template = async (body: Record<string, unknown>) => (await v1("POST", "/templates", { body: { name: "mounts", imageName: "busybox", ...body } })).json.id as string;

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    expectValidV2Requests(rig.upstreamCalls);
    await rig?.close();
  });

  it("volumeMountPath alone moves the volume and keeps its size", async () => {
    const id = await template({ volumeInGb: 30, volumeMountPath: "/models" });
    const r = await v1("PATCH", `/templates/${id}`, { body: { volumeMountPath: "/data" } });
    expect(r.status).toBe(200);
    expect(lastPatch(id).mounts).toEqual({ persistent: { size: 30, path: "/data" } });
    expect(r.json).toMatchObject({ volumeInGb: 30, volumeMountPath: "/data" });
    expect((await v2Template(id)).mounts).toEqual({ persistent: { size: 30, path: "/data" } });
  });

  it("volumeInGb alone resizes the volume and keeps the template's own path", async () => {
    const id = await template({ volumeInGb: 30, volumeMountPath: "/models" });
    const r = await v1("POST", `/templates/${id}/update`, { body: { volumeInGb: 80 } });
    expect(r.status).toBe(200);
    expect(lastPatch(id).mounts).toEqual({ persistent: { size: 80, path: "/models" } });
    expect(r.json).toMatchObject({ volumeInGb: 80, volumeMountPath: "/models" });
    expect((await v2Template(id)).mounts).toEqual({ persistent: { size: 80, path: "/models" } });
  });

  it("both together set both, without reading the template first", async () => {
    const id = await template({ volumeInGb: 30, volumeMountPath: "/models" });
    const before = sentFor(id).length;
    const r = await v1("PATCH", `/templates/${id}`, { body: { volumeInGb: 12, volumeMountPath: "/scratch", name: "both" } });
    expect(r.status).toBe(200);
    expect(sentFor(id).slice(before).map((c) => c.method)).toEqual(["PATCH"]);
    expect(lastPatch(id)).toEqual({ name: "both", mounts: { persistent: { size: 12, path: "/scratch" } } });
    expect(r.json).toMatchObject({ name: "both", volumeInGb: 12, volumeMountPath: "/scratch" });
  });

  it("volumeMountPath alone on a template without a volume is dropped with a warning", async () => {
    const id = await template({ volumeInGb: 0 });
    const r = await v1("PATCH", `/templates/${id}`, { body: { volumeMountPath: "/data", name: "novol" } });
    expect(r.status).toBe(200);
    expect(lastPatch(id)).toEqual({ name: "novol" });
    expect(r.headers.get("v2-bridge-warning")).toMatch(/volumeMountPath ignored: the template has no volume/);
    expect(r.json.volumeInGb ?? 0).toBe(0);
  });
});
