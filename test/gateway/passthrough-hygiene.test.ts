// Request hygiene: the /v2 pass-through drops hop-by-hop headers both ways (RFC 9110 §7.6.1) and
// keeps end-to-end ones (Authorization); v1 bodies nested too deep are a v1 400, not a stack overflow.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { exceedsJsonDepth } from "../../gateway/translation/json-depth.ts";
import { rawRequest, startRig, type Rig } from "./helpers.ts";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

const HOP_BY_HOP_SENT = {
  connection: "keep-alive, X-Client-Hop",
  "x-client-hop": "1",
  "keep-alive": "timeout=5",
  "proxy-connection": "keep-alive",
  te: "trailers",
  upgrade: "h2c",
  "proxy-authorization": "Basic cHJveHk6c2VjcmV0",
};

describe("/v2 pass-through: hop-by-hop headers", () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  let received: http.IncomingHttpHeaders = {};

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    upstream.handle = (req, res) => {
      req.resume();
      received = req.headers;
      const body = JSON.stringify([]);
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(body.length),
        connection: "keep-alive, X-Upstream-Hop",
        "x-upstream-hop": "1",
        "keep-alive": "timeout=99",
        "proxy-authenticate": 'Basic realm="upstream-proxy"',
        upgrade: "h2c",
        "x-upstream-end-to-end": "kept",
      });
      res.end(body);
    };
    gateway = await startGateway({ upstream: upstream.url, port: 0, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("removes them from the request and the answer; Authorization and end-to-end headers pass", async () => {
    const r = await rawRequest(gateway.url, "GET", "/v2/pods", { headers: { ...HOP_BY_HOP_SENT, authorization: "Bearer sandbox_hop", "x-client-end-to-end": "kept" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);

    expect(received.authorization).toBe("Bearer sandbox_hop");
    expect(received["x-client-end-to-end"]).toBe("kept");
    for (const name of ["x-client-hop", "keep-alive", "proxy-connection", "te", "upgrade", "proxy-authorization"]) {
      expect(received[name], `upstream got ${name}`).toBeUndefined();
    }
    expect(String(received.connection ?? "")).not.toMatch(/x-client-hop/i);

    expect(r.headers.get("x-upstream-end-to-end")).toBe("kept");
    for (const name of ["x-upstream-hop", "proxy-authenticate", "upgrade"]) {
      expect(r.headers.get(name), `client got ${name}`).toBeNull();
    }
    expect(r.headers.get("keep-alive") ?? "").not.toMatch(/timeout=99/);
    expect(r.headers.get("connection") ?? "").not.toMatch(/x-upstream-hop/i);
  });

  it("carries the request id upstream and back: the client's when it is a plain token, else a fresh one", async () => {
    for (const [sent, expected] of [
      ["pt-abc.1", "pt-abc.1"],
      ["not a token!", /^[0-9a-f-]{36}$/],
    ] as const) {
      const r = await rawRequest(gateway.url, "GET", "/v2/pods", { headers: { "x-request-id": sent } });
      expect(r.headers.get("x-request-id")).toMatch(expected);
      expect(received["x-request-id"]).toBe(r.headers.get("x-request-id"));
    }
  });
});

describe("JSON nesting depth of v1 bodies", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => rig?.close());

  const auth = { authorization: "Bearer sandbox_depth", "content-type": "application/json" };
  const pod = (env: string) => `{"name":"deep","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA RTX A5000"],"gpuCount":1,"env":${env}}`;

  it("a body nested 10,000 levels deep in env is a v1 400 naming the limit; nothing goes upstream", async () => {
    let env = '"x"';
    for (let i = 0; i < 10_000; i++) env = `{"a":${env}}`;
    const before = rig.upstreamCalls.length;
    const r = await rawRequest(rig.gateway.url, "POST", "/v1/pods", { headers: auth, body: pod(env) });
    expect(r.status, r.text).toBe(400);
    expect(r.json.message).toBe("request body is nested deeper than 64 levels (--max-json-depth)");
    expect(rig.upstreamCalls.length).toBe(before);
  });

  it("ordinary bodies are untouched by the limit", async () => {
    const r = await rawRequest(rig.gateway.url, "POST", "/v1/pods", { headers: auth, body: pod('{"BRACKETS":"[[[{{{"}') });
    expect(r.status, r.text).toBe(201);
    expect(r.json.env).toEqual({ BRACKETS: "[[[{{{" });
  });

  it("depth counting ignores brackets inside strings and escapes", () => {
    expect(exceedsJsonDepth('{"a":"[[[[\\"[[["}', 1)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":[1]}}', 2)).toBe(true);
  });
});
