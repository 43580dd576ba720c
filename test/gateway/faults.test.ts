// Fault injection: the gateway in front of a misbehaving upstream answers v1-format 502/504 within
// its timeout, never 500, never hangs.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { rawRequest } from "./helpers.ts";

type Mode = "slow" | "delay" | "reset" | "html" | "garbage-json" | "500" | "503" | "ok";

describe("gateway against a misbehaving upstream", () => {
  let mode: Mode = "ok";
  let upstream: http.Server;
  let gateway: Gateway;
  let down: Gateway;
  const sockets = new Set<import("node:net").Socket>();
  let arrived: () => void = () => {};

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      arrived();
      switch (mode) {
        case "delay":
          setTimeout(() => !res.destroyed && res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ pods: [] })), 200).unref();
          return;
        case "slow":
          setTimeout(() => !res.destroyed && res.end("{}"), 2_000).unref();
          return;
        case "reset":
          req.socket.destroy();
          return;
        case "html":
          res.writeHead(200, { "content-type": "text/html" }).end("<html>oops</html>");
          return;
        case "garbage-json":
          res.writeHead(200, { "content-type": "application/json" }).end("{\"pods\": [");
          return;
        case "500":
          res.writeHead(500, { "content-type": "application/problem+json" }).end(JSON.stringify({ title: "Internal Server Error", status: 500, detail: "boom" }));
          return;
        case "503":
          res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "7" }).end(JSON.stringify({ title: "Service Unavailable", status: 503, detail: "maintenance" }));
          return;
        default:
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ pods: [] }));
      }
    });
    upstream.on("connection", (s) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const port = (upstream.address() as AddressInfo).port;
    gateway = await startGateway({ upstream: `http://127.0.0.1:${port}`, port: 0, timeoutMs: 300 });
    // A port nobody listens on: bind and close a server to find one.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    down = await startGateway({ upstream: `http://127.0.0.1:${deadPort}`, port: 0, timeoutMs: 300 });
  });

  afterAll(async () => {
    await gateway?.close();
    await down?.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  const auth = { authorization: "Bearer sandbox_x" };

  async function expectV1(g: Gateway, status: number, pattern: RegExp) {
    const started = Date.now();
    const r = await rawRequest(g.url, "GET", "/v1/pods", { headers: auth, timeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(r.status).toBe(status);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.json.message).toMatch(pattern);
    expect(r.headers.get("deprecation")).toBe("@1794700800");
    return r;
  }

  it("upstream down → 502", async () => {
    await expectV1(down, 502, /unreachable/);
  });

  it("upstream slower than the timeout → 504", async () => {
    mode = "slow";
    await expectV1(gateway, 504, /did not answer within 300 ms/);
  });

  it("connection reset → 502", async () => {
    mode = "reset";
    await expectV1(gateway, 502, /unreachable or closed/);
  });

  it("non-JSON 200 and truncated JSON → 502", async () => {
    mode = "html";
    await expectV1(gateway, 502, /not JSON/);
    mode = "garbage-json";
    await expectV1(gateway, 502, /not JSON/);
  });

  it("500 and 503 problems → 502 naming the upstream status and detail; Retry-After kept", async () => {
    mode = "500";
    await expectV1(gateway, 502, /\(500\): boom/);
    mode = "503";
    const r = await expectV1(gateway, 502, /\(503\): maintenance/);
    expect(r.headers.get("retry-after")).toBe("7");
  });

  it("the gateway recovers when the upstream does", async () => {
    mode = "ok";
    const r = await rawRequest(gateway.url, "GET", "/v1/pods", { headers: auth });
    expect([r.status, r.json]).toEqual([200, []]);
  });

  it("/v2 pass-through: down → 502 problem, slow → 504 problem", async () => {
    const d = await rawRequest(down.url, "GET", "/v2/pods", { headers: auth, timeoutMs: 5_000 });
    expect(d.status).toBe(502);
    expect(d.headers.get("content-type")).toMatch(/problem\+json/);
    mode = "slow";
    const s = await rawRequest(gateway.url, "GET", "/v2/pods", { headers: auth, timeoutMs: 5_000 });
    expect(s.status).toBe(504);
    mode = "ok";
  });

  it("graceful close lets an in-flight request finish", async () => {
    const g = await startGateway({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0, timeoutMs: 2_000 });
    mode = "delay";
    const reached = new Promise<void>((r) => (arrived = r));
    const inflight = rawRequest(g.url, "GET", "/v1/pods", { headers: auth });
    await reached;
    await g.close();
    const r = await inflight;
    expect([r.status, r.json]).toEqual([200, []]);
    mode = "ok";
  });
});
