// A v1 restart (or stop) of a pod that is still booting: v1 showed the pod RUNNING at once, v2
// refuses the action with 409 until the boot is over. The gateway waits within the request's
// deadline and performs it (actionWaitsForBoot); past the deadline the client gets a v1 409 that
// names no v2-only status. Real HTTP: v1 client → gateway → strict sandbox booting over --boot-ms
// (its programmatic bootMs), and a scripted v2 for a stop refused mid-boot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { KEY, startRig, v1Client, type Rig } from "./helpers.ts";
import { sendJson, startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

const BOOT_MS = 3_000;
const podBody = { name: "boot", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] };

describe.skipIf(missingReference)(refSuite("gateway: actions on a booting pod wait for the boot"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const v2Status = async (id: string) => ((await (await fetch(`${rig.sandbox.url}/v2/pods/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as any).status;
  const callsFor = (id: string, from: number) => rig.upstreamCalls.slice(from).filter((c) => c.path.startsWith(`/v2/pods/${id}`)).map((c) => `${c.method} ${c.path.slice(`/v2/pods/${id}`.length) || "/"}`);

  beforeAll(async () => {
    rig = await startRig({ sandbox: { bootMs: BOOT_MS } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("restart right after create: waits until v2 accepts it, then answers 200 as v1 did", async () => {
    const pod = (await v1("POST", "/pods", { body: podBody })).json;
    expect(pod.desiredStatus).toBe("RUNNING"); // what a v1 client sees, while v2 says PROVISIONING
    expect(["PROVISIONING", "STARTING"]).toContain(await v2Status(pod.id));
    const from = rig.upstreamCalls.length;
    const t0 = performance.now();
    const r = await v1("POST", `/pods/${pod.id}/restart`);
    const waited = performance.now() - t0;
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    console.log(`restart of a booting pod answered after ${Math.round(waited)} ms (boot ${BOOT_MS} ms)`);
    expect(waited).toBeLessThan(BOOT_MS + 4_000);
    const calls = callsFor(pod.id, from);
    expect(calls[0]).toBe("POST /action");
    expect(calls.at(-1)).toBe("POST /action");
    expect(calls.filter((c) => c === "GET /").length).toBeGreaterThan(0);
    // The restart happened: the pod boots again (STARTING) rather than staying RUNNING from create.
    expect(await v2Status(pod.id)).toBe("STARTING");
  });

  it("stop on a booting pod is allowed by v2: answered at once, one call", async () => {
    const pod = (await v1("POST", "/pods", { body: podBody })).json;
    const from = rig.upstreamCalls.length;
    const r = await v1("POST", `/pods/${pod.id}/stop`);
    expect(r.status).toBe(200);
    expect(callsFor(pod.id, from)).toEqual(["POST /action"]);
    expect(await v2Status(pod.id)).toBe("EXITED");
  });

  it("a 409 for another reason (restart of a stopped pod) is answered at once, without waiting", async () => {
    const pod = (await v1("POST", "/pods", { body: podBody })).json;
    await v1("POST", `/pods/${pod.id}/stop`);
    const from = rig.upstreamCalls.length;
    const r = await v1("POST", `/pods/${pod.id}/restart`);
    expect(r.status).toBe(409);
    expect(callsFor(pod.id, from)).toEqual(["POST /action", "GET /"]);
  });
});

describe.skipIf(missingReference)(refSuite("gateway: a boot longer than the request's deadline"), () => {
  let rig: Rig;
  const v1 = v1Client(() => rig.gateway.url);
  const DEADLINE_MS = 1_600;

  beforeAll(async () => {
    rig = await startRig({ sandbox: { bootMs: 600_000 }, gateway: { upstreamDeadlineMs: DEADLINE_MS } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("answers a v1 409 saying the pod is still starting and to retry, before the deadline, naming no v2 status", async () => {
    const pod = (await v1("POST", "/pods", { body: podBody })).json;
    const from = rig.upstreamCalls.length;
    const t0 = performance.now();
    const r = await v1("POST", `/pods/${pod.id}/restart`);
    const took = performance.now() - t0;
    expect(r.status).toBe(409);
    expect(Object.keys(r.json)).toEqual(["message"]);
    expect(r.json.message).toMatch(/still starting/);
    expect(r.json.message).toMatch(/retry the restart/);
    expect(r.json.message).not.toMatch(/PROVISIONING|STARTING|EXITED|TERMINATED/);
    expect(took).toBeLessThan(DEADLINE_MS);
    expect(took).toBeGreaterThan(DEADLINE_MS / 2);
    // It did wait: more than one look at the pod, and the action tried once (v2 never allowed it).
    const calls = rig.upstreamCalls.slice(from).map((c) => c.method);
    expect(calls.filter((m) => m === "GET").length).toBeGreaterThan(1);
    expect(calls.filter((m) => m === "POST")).toHaveLength(1);
  });
});

describe.skipIf(missingReference)(refSuite("gateway: a stop v2 refuses while the pod boots"), () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  const v1 = v1Client(() => gateway.url);
  const BOOT = 700;
  let bootedAt = 0;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    // A v2 that (unlike the sandbox) refuses stop until the boot is over, as its `actions` say.
    upstream.handle = (req, res) => {
      req.resume();
      const booting = performance.now() < bootedAt;
      const pod = { id: "pod1", status: booting ? "STARTING" : "RUNNING", actions: booting ? ["terminate"] : ["stop", "restart", "terminate"] };
      if (req.method === "GET") return sendJson(res, 200, pod);
      if (booting) return sendJson(res, 409, { title: "Conflict", status: 409, detail: "action stop is not valid for a pod in status STARTING" });
      sendJson(res, 200, { ...pod, status: "EXITED", actions: ["start", "terminate"] });
    };
    gateway = await startGateway({ upstream: upstream.url, port: 0, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("waits for the boot, then stops", async () => {
    bootedAt = performance.now() + BOOT;
    const t0 = performance.now();
    const r = await v1("POST", "/pods/pod1/stop");
    expect(r.status, r.text).toBe(200);
    expect(performance.now() - t0).toBeGreaterThan(BOOT - 50);
    const actions = upstream.seen.filter((s) => s === "POST /v2/pods/pod1/action");
    expect(actions.length).toBe(2);
  });
});
