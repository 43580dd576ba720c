// v1 creates through the gateway: the v1 document's own comma-separated `ports`, priority lists of
// CPU flavours and GPU types tried in order on any refusal of the type, v1-template behaviour
// (no SSH/Jupyter injection), and v2 refusals told in v1 field names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamError } from "../../gateway/translation/v1-errors.ts";
import { inV1Terms } from "../../gateway/translation/v2-errors-in-v1-terms.ts";
import { operationByKey } from "../../mappings/index.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { expectValidV2Requests, startRig, v1Client, type Rig } from "./helpers.ts";

describe.skipIf(missingReference)(refSuite("gateway: v1 creates"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const sent = (method: string, path: string) => rig.upstreamCalls.filter((c) => c.method === method && c.path === path).map((c) => JSON.parse(c.body!));

  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    // The deliberately invalid container disk is the one request v2 must refuse.
    expectValidV2Requests(rig.upstreamCalls.filter((c) => !c.body?.includes('"disk":0')));
    await rig?.close();
  });

  it("accepts ports as the comma-separated string the v1 document gives as the default", async () => {
    const created = await v1("POST", "/pods", { body: { name: "ports", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], ports: "8888/http,22/tcp" } });
    expect(created.status).toBe(201);
    expect(created.json.ports).toEqual(["8888/http", "22/tcp"]);
    expect(sent("POST", "/v2/pods").at(-1).ports).toEqual(["8888/http", "22/tcp"]);
    const tpl = await v1("POST", "/templates", { body: { name: "tpl-ports", imageName: "busybox", ports: "8080/http" } });
    expect(tpl.json.ports).toEqual(["8080/http"]);
  });

  it("tries cpuFlavorIds in priority order when v2 refuses a flavour", async () => {
    const created = await v1("POST", "/pods", {
      body: { name: "cpu-prio", imageName: "busybox", computeType: "CPU", cpuFlavorIds: ["cpu5c", "cpu3c"], vcpuCount: 2, dataCenterIds: ["CA-MTL-1"] },
    });
    expect(created.status).toBe(201);
    expect(created.json.cpuFlavorId).toBe("cpu3c");
    expect(created.headers.get("v2-bridge-warning")).toMatch(/cpuFlavorIds: cpu5c refused \(400/);
    expect(sent("POST", "/v2/pods").slice(-2).map((b) => b.cpu.id)).toEqual(["cpu5c", "cpu3c"]);
  });

  it("moves to the next GPU type on any 400 about the type, not only a no-capacity text", async () => {
    // The L4 is not offered on COMMUNITY cloud: a refusal about the type, worded as a rule.
    const created = await v1("POST", "/pods", {
      body: { name: "gpu-prio", imageName: "busybox", cloudType: "COMMUNITY", gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000"] },
    });
    expect(created.status).toBe(201);
    expect(created.json.gpu.id).toBe("NVIDIA RTX A5000");
    expect(sent("POST", "/v2/pods").slice(-2).map((b) => b.gpu.id)).toEqual(["NVIDIA L4", "NVIDIA RTX A5000"]);
  });

  it("stops at the last candidate and answers its refusal in v1 format", async () => {
    const r = await v1("POST", "/pods", { body: { name: "none", imageName: "busybox", cloudType: "COMMUNITY", gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"] } });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/A40/);
  });

  it("a GPU pod without gpuTypeIds (v1 picked a type itself) is a v1 400 naming gpuTypeIds, not a body v2 refuses", async () => {
    const tpl = (await v1("POST", "/templates", { body: { name: "no-gpu-tpl", imageName: "busybox" } })).json;
    const before = sent("POST", "/v2/pods").length;
    for (const body of [{ name: "any-gpu", imageName: "busybox" }, { name: "any-gpu-tpl", templateId: tpl.id }, { name: "empty", imageName: "busybox", gpuTypeIds: [] }]) {
      const r = await v1("POST", "/pods", { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.message).toMatch(/gpuTypeIds is left out \(or empty\) so v1 picked a GPU type itself where v2 needs one named \(gpu.id\)/);
    }
    expect(sent("POST", "/v2/pods").length).toBe(before);
    // Negatives: a CPU pod from the same template, and a named GPU type, are created.
    expect((await v1("POST", "/pods", { body: { name: "cpu-tpl", templateId: tpl.id, computeType: "CPU" } })).status).toBe(201);
    expect((await v1("POST", "/pods", { body: { name: "gpu-tpl", templateId: tpl.id, gpuTypeIds: ["NVIDIA RTX A5000"] } })).status).toBe(201);
  });

  it("template creates send startJupyter and startSsh false (v2 defaults them to true; v1 templates injected nothing)", async () => {
    await v1("POST", "/templates", { body: { name: "plain", imageName: "busybox" } });
    expect(sent("POST", "/v2/templates").at(-1)).toMatchObject({ startJupyter: false, startSsh: false });
  });

  it("a v2 validation failure (the sandbox's 422) is v1's 400 and names the v1 fields the client sent", async () => {
    const r = await v1("POST", "/pods", { body: { name: "disk", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"], containerDiskInGb: 0 } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: expect.stringMatching(/containerDiskInGb/) });
    expect(r.json.message).not.toMatch(/\/disk\b/);
    // What v2 itself answered for the body the gateway sent: the 422 the gateway turned into v1's 400.
    const direct = await fetch(`${rig.sandbox.url}/v2/pods`, {
      method: "POST",
      headers: { authorization: "Bearer sandbox_creates", "content-type": "application/json" },
      body: JSON.stringify(sent("POST", "/v2/pods").at(-1)),
    });
    expect(direct.status).toBe(422);
    expect(await direct.json()).toMatchObject({ status: 422, errors: ["/disk must be >= 1"] });
  });

  it("a v2 contract failure (422) ends the priority-list search: every candidate would fail the same way", async () => {
    const before = sent("POST", "/v2/pods").length;
    const r = await v1("POST", "/pods", { body: { name: "disk2", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000", "NVIDIA A40"], containerDiskInGb: 0 } });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/containerDiskInGb must be >= 1/);
    expect(sent("POST", "/v2/pods").slice(before).map((b) => b.gpu.id)).toEqual(["NVIDIA RTX A5000"]);
    expect(r.headers.get("v2-bridge-warning") ?? "").not.toMatch(/refused/);
  });
});

describe("v2 refusals in v1 terms", () => {
  const op = operationByKey("CreatePod");
  it("422 becomes 400 and pointers become v1 field names, from the request lens", () => {
    const res = inV1Terms(op, {
      status: 422,
      text: "",
      json: { title: "Unprocessable", status: 422, detail: "request body failed validation", errors: ["/gpu/id must be string", "/gpu must have required property 'id'", "/mounts/network/0/path must be string", "/env/A must be string", "/cpu/vcpuCount must be >= 2"] },
    });
    expect(res.status).toBe(400);
    expect((res.json as any).errors).toEqual(["gpuTypeIds must be string", "gpuTypeIds is required", "volumeMountPath must be string", "env.A must be string", "vcpuCount must be >= 2"]);
  });
  it("a 422 on an operation without a request lens is still v1's 400 (v1 documents no 422)", () => {
    const e = upstreamError({ status: 422, text: "", json: { title: "Unprocessable Entity", status: 422, detail: "invalid query parameters", errors: ["query parameter 'bucketSize' must be one of: \"day\""] } });
    expect([e.status, e.kind]).toEqual([400, "client"]);
    expect(e.message).toMatch(/invalid query parameters.*bucketSize/);
    expect(upstreamError({ status: 409, text: "", json: { title: "Conflict", status: 409, detail: "busy" } }).status).toBe(409);
  });
  it("leaves other statuses and unknown pointers alone", () => {
    const res = inV1Terms(op, { status: 409, text: "", json: { detail: "/nowhere is odd" } });
    expect(res).toMatchObject({ status: 409, json: { detail: "/nowhere is odd" } });
  });
});
