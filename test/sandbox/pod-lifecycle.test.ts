// Pods pass through PROVISIONING and STARTING before RUNNING, as the v2 document says:
// "Provisioning is asynchronous: the pod starts in `PROVISIONING`, transitions through `STARTING`,
// and reaches `RUNNING` once its container is healthy." Exact phases with an injected clock; over
// HTTP, what a polling client sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PodLifecycle, statusAfterBoot } from "../../sandbox/pod-lifecycle.ts";
import { ACCOUNTING } from "../../sandbox/rules/accounting.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";

const BOOT_SENTENCE =
  "Provisioning is asynchronous: the pod starts in `PROVISIONING`, transitions through `STARTING`, and reaches `RUNNING` once its container is healthy.";

describe("pod boot timing", () => {
  it("is the accounting table's rule for the sentence it quotes", () => {
    const line = ACCOUNTING.find((e) => e.sentence === BOOT_SENTENCE);
    expect(line?.account).toEqual({ kind: "rule", rules: ["pods.statusAfterBoot"] });
  });

  it("create: PROVISIONING for the first half, STARTING for the second, then RUNNING", () => {
    expect([0, 499, 500, 999, 1000, 5000].map((t) => statusAfterBoot("PROVISIONING", t, 1000))).toEqual([
      "PROVISIONING", "PROVISIONING", "STARTING", "STARTING", "RUNNING", "RUNNING",
    ]);
    expect([0, 499, 500].map((t) => statusAfterBoot("STARTING", t, 1000))).toEqual(["STARTING", "STARTING", "RUNNING"]);
  });

  it("derives a pod's status from the clock when it is read; stop works mid-boot; start and restart go through STARTING", () => {
    let now = 1_000_000;
    const life = new PodLifecycle(1000, () => now);
    const pod: Record<string, any> = { id: "p1", status: "PROVISIONING", startedAt: null };
    life.create(pod);
    expect(pod.status).toBe("PROVISIONING");
    now += 600;
    life.advance(pod);
    expect([pod.status, pod.startedAt]).toEqual(["STARTING", null]);
    now += 400;
    life.advance(pod);
    expect(pod.status).toBe("RUNNING");
    expect(pod.startedAt).toBe(new Date(1_001_000).toISOString());
    life.start(pod); // restart
    expect(pod.status).toBe("STARTING");
    life.stop(pod);
    now += 10_000;
    life.advance(pod);
    expect(pod.status).toBe("EXITED");
  });

  it("is instant with bootMs 0", () => {
    const pod: Record<string, any> = { id: "p2" };
    new PodLifecycle(0).create(pod);
    expect(pod.status).toBe("RUNNING");
    expect(typeof pod.startedAt).toBe("string");
  });
});

describe.skipIf(missingReference)(refSuite("pod boot timing over HTTP"), () => {
  let sb: Sandbox;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(sb.url + path, {
      method,
      headers: { authorization: "Bearer sandbox_boot", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const newPod = () => call("POST", "/v2/pods", { name: "boot", image: "img:1", gpu: { id: "NVIDIA L4" } });

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, warn: () => {}, bootMs: 1200, rateLimit: false });
  });
  afterAll(async () => {
    await sb?.close();
  });

  it("answers a create with PROVISIONING (stop and terminate only, no runtime), and a polling client sees the phases in order until RUNNING", async () => {
    const created = await newPod();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "PROVISIONING", actions: ["stop", "terminate"], runtime: null, startedAt: null });
    const seen: string[] = [created.body.status];
    // Bounded poll: at most 200 reads over at most 10 s.
    const deadline = Date.now() + 10_000;
    for (let i = 0; i < 200 && seen.at(-1) !== "RUNNING" && Date.now() < deadline; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const s = (await call("GET", `/v2/pods/${created.body.id}`)).body.status;
      if (s !== seen.at(-1)) seen.push(s);
    }
    expect(seen.at(-1)).toBe("RUNNING");
    const order = ["PROVISIONING", "STARTING", "RUNNING"];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort());
    const running = (await call("GET", `/v2/pods/${created.body.id}`)).body;
    expect(running.actions).toEqual(["stop", "restart", "terminate"]);
    expect(typeof running.startedAt).toBe("string");

    const restarted = await call("POST", `/v2/pods/${created.body.id}/action`, { action: "restart" });
    expect(restarted.body).toMatchObject({ status: "STARTING", actions: ["stop", "terminate"] });
  });

  it("lets a provisioning pod stop (EXITED, cost 0) and start again through STARTING", async () => {
    const created = await newPod();
    const stopped = await call("POST", `/v2/pods/${created.body.id}/action`, { action: "stop" });
    expect(stopped.body).toMatchObject({ status: "EXITED", cost: 0 });
    const started = await call("POST", `/v2/pods/${created.body.id}/action`, { action: "start" });
    expect(started.body.status).toBe("STARTING");
    const again = await call("POST", `/v2/pods/${created.body.id}/action`, { action: "start" });
    expect(again.status).toBe(409);
  });
});
