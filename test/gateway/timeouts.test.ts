// Timeouts with Envoy-like meanings: the listener cuts clients that trickle their headers
// (--headers-timeout) or their body (--request-timeout); all upstream calls of one v1 request share
// one total deadline (--upstream-deadline) besides each call's idle timeout (--timeout).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { rawRequest } from "./helpers.ts";
import { trickle } from "./trickle.ts";
import { sendJson, startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

const HEADERS_TIMEOUT = 300;
const REQUEST_TIMEOUT = 400;
const DEADLINE = 1_200;

describe("listener and upstream timeouts", () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  const auth = { authorization: "Bearer sandbox_x" };

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    gateway = await startGateway({
      upstream: upstream.url,
      port: 0,
      timeoutMs: 2_000,
      headersTimeoutMs: HEADERS_TIMEOUT,
      requestTimeoutMs: REQUEST_TIMEOUT,
      upstreamDeadlineMs: DEADLINE,
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("a client trickling its headers is disconnected after --headers-timeout", async () => {
    const r = await trickle(gateway.url, "GET /v1/pods HTTP/1.1\r\nHost: gw\r\n", (i) => `X-Slow-${i}: 1\r\n`, 30);
    console.log(`slow-header client cut after ${r.ms} ms (headers timeout ${HEADERS_TIMEOUT} ms), ${r.linesSent} header lines sent`);
    expect(r.linesSent).toBeLessThan(30);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("a client trickling its body is disconnected after --request-timeout", async () => {
    const head = "POST /v1/pods HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{";
    const r = await trickle(gateway.url, head, () => " ", 30);
    console.log(`slow-body client cut after ${r.ms} ms (request timeout ${REQUEST_TIMEOUT} ms), ${r.linesSent} body bytes sent`);
    expect(r.linesSent).toBeLessThan(30);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(upstream.seen.filter((s) => s.startsWith("POST"))).toEqual([]);
  });

  it("a slow upstream answer is not cut by the client-side request timeout", async () => {
    upstream.handle = (req, res) => {
      req.resume();
      setTimeout(() => !res.destroyed && sendJson(res, 200, { pods: [] }), REQUEST_TIMEOUT + 150) // still inside the deadline.unref();
    };
    const r = await rawRequest(gateway.url, "GET", "/v1/pods", { headers: auth });
    expect(r.status).toBe(200);
  });

  it("several slow emulation calls (GPU-priority retries) share one deadline: v1 504", async () => {
    upstream.seen.length = 0;
    // Each create answers "no capacity" after 500 ms, well inside the 2 s idle timeout; three of them
    // take 1.5 s, past the 1.2 s deadline of the one v1 request.
    upstream.handle = (req, res) => {
      req.resume();
      setTimeout(() => !res.destroyed && sendJson(res, 400, { title: "Bad Request", status: 400, detail: "no instances available for gpu type X" }), 500).unref();
    };
    const body = JSON.stringify({ name: "p", imageName: "runpod/pytorch:2", gpuTypeIds: ["NVIDIA RTX A4000", "NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090"], gpuCount: 1 });
    const r = await rawRequest(gateway.url, "POST", "/v1/pods", { headers: { ...auth, "content-type": "application/json" }, body });
    expect(r.status, r.text).toBe(504);
    expect(r.json.message).toMatch(/deadline/);
    expect(upstream.seen.filter((s) => s === "POST /v2/pods").length).toBeGreaterThanOrEqual(2);
    expect(upstream.seen.filter((s) => s === "POST /v2/pods").length).toBeLessThanOrEqual(3);
  });
});
