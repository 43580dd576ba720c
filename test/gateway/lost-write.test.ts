// A create/update/action whose request reached the upstream but whose answer was lost may have
// happened: the v1 error says so and how to check, since a blind retry can make a second pod.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { rawRequest } from "./helpers.ts";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

describe("lost creates and updates", () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  let down: Gateway;
  const headers = { authorization: "Bearer sandbox_lost", "content-type": "application/json" };
  const createBody = JSON.stringify({ name: "lost-pod-1", imageName: "runpod/pytorch:2", gpuTypeIds: ["NVIDIA RTX A5000"], gpuCount: 1 });

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    gateway = await startGateway({ upstream: upstream.url, port: 0, timeoutMs: 400 });
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    down = await startGateway({ upstream: `http://127.0.0.1:${deadPort}`, port: 0, timeoutMs: 400 });
  });
  afterAll(async () => {
    await gateway?.close();
    await down?.close();
    await upstream?.close();
  });

  /** The upstream reads the whole request, then drops the connection without answering. */
  const readThenDrop: http.RequestListener = (req) => {
    req.resume();
    req.on("end", () => req.socket.destroy());
  };

  it("create: connection dropped after the request was read → 502 saying the pod may exist and how to look for it", async () => {
    upstream.handle = readThenDrop;
    upstream.seen.length = 0;
    const r = await rawRequest(gateway.url, "POST", "/v1/pods", { headers, body: createBody });
    expect(r.status).toBe(502);
    expect(r.json.message).toMatch(/after the request was sent: the pod may have been created anyway \(v2 has no idempotency keys\)/);
    expect(r.json.message).toContain('list them (GET /v1/pods) and look for one named "lost-pod-1"');
    expect(upstream.seen).toEqual(["POST /v2/pods"]);
  });

  it("update and action: say what may have changed and where to read it", async () => {
    upstream.handle = readThenDrop;
    const update = await rawRequest(gateway.url, "PATCH", "/v1/pods/pod-abc", { headers, body: JSON.stringify({ imageName: "runpod/pytorch:3" }) });
    expect(update.status).toBe(502);
    expect(update.json.message).toMatch(/the pod may have been changed anyway .* read it \(GET \/v1\/pods\/pod-abc\)/);
    const stop = await rawRequest(gateway.url, "POST", "/v1/pods/pod-abc/stop", { headers });
    expect(stop.status).toBe(502);
    expect(stop.json.message).toMatch(/the pod may have been stopped anyway .* read it \(GET \/v1\/pods\/pod-abc\) and see whether it was stopped/);
  });

  it("a create that timed out after being sent → 504 with the same advice", async () => {
    upstream.handle = (req) => req.resume(); // reads, never answers
    upstream.seen.length = 0;
    const r = await rawRequest(gateway.url, "POST", "/v1/pods", { headers, body: createBody });
    expect(r.status).toBe(504);
    expect(r.json.message).toMatch(/did not answer within 400 ms, after the request was sent: the pod may have been created anyway/);
    expect(upstream.seen).toEqual(["POST /v2/pods"]); // and the gateway did not retry it
  });

  it("a create that never reached the upstream (connection refused) does not claim it may exist", async () => {
    const r = await rawRequest(down.url, "POST", "/v1/pods", { headers, body: createBody });
    expect(r.status).toBe(502);
    expect(r.json.message).toMatch(/unreachable/);
    expect(r.json.message).not.toMatch(/may have been/);
  });

  it("reads are not annotated", async () => {
    upstream.handle = readThenDrop;
    const r = await rawRequest(gateway.url, "GET", "/v1/pods", { headers: { authorization: headers.authorization } });
    expect(r.status).toBe(502);
    expect(r.json.message).not.toMatch(/may have been/);
  });
});
