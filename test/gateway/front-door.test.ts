// The listener serves plain /v1 and /v2 requests ahead of Fastify (gateway/upstream/front-door.ts): those
// never reach a Fastify route handler, the rest still do, and both doors give the same answer,
// header for header, and the same log line and usage counts.
import diagnostics from "node:diagnostics_channel";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frontRouteOf, serveAheadOfFastify } from "../../gateway/upstream/front-door.ts";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { createV1Fast } from "../../gateway/translation/v1-fast.ts";
import type { V1Routes } from "../../gateway/translation/v1-route.ts";
import { failureAnswer } from "../../gateway/translation/v1-exchange.ts";
import { sendJson, startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

const POD = { id: "pod_a", name: "a", status: "RUNNING", image: "img", disk: 10, env: {}, ports: ["8888/http"], gpu: { id: "NVIDIA RTX A5000", count: 1 }, cloud: "SECURE", dataCenterId: "EU-RO-1", cost: 0.44, locked: false };
const RATE = { RateLimit: '"minute";r=599;t=60', "RateLimit-Policy": '"minute";q=600;w=60' };

interface Answer {
  status: number;
  /** Raw header lines in wire order, Date's value blanked. */
  headers: string[];
  text: string;
}

function send(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = http.request({ host: hostname, port, method, path, agent: false, headers: { ...headers, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${/^date$/i.test(res.rawHeaders[i]!) ? "…" : res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers: lines, text: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("requests served ahead of Fastify", () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  /** The same gateway through Fastify only: its routing function behind a second listener. */
  let fastifyDoor: http.Server;
  let fastifyUrl: string;
  let log = "";
  const handled: string[] = [];
  const onHandler = (message: any) => handled.push(`${message.request.method} ${message.request.url}`);

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    upstream.handle = (req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const path = req.url!.split("?")[0];
        if (path === "/v2/pods" && req.method === "GET") return sendJson(res, 200, { pods: [POD, { ...POD, id: "pod_b" }] }, RATE);
        if (path === "/v2/pods" && req.method === "POST") {
          const sent = JSON.parse(body || "{}");
          if (!sent.image) return sendJson(res, 422, { title: "Unprocessable Entity", status: 422, detail: "image is required" }, RATE);
          return sendJson(res, 201, { ...POD, name: sent.name }, RATE);
        }
        if (path === "/v2/pods/pod_a" && req.method === "DELETE") return res.writeHead(204, RATE).end();
        if (path === "/v2/pods/pod_a") return sendJson(res, 200, POD, RATE);
        if (path === "/v2/pods/pod_a/action") return sendJson(res, 200, POD, RATE);
        return sendJson(res, 404, { title: "Not Found", status: 404, detail: `no ${path}` });
      });
    };
    const stream = new Writable({
      write(chunk, _enc, done) {
        log += chunk.toString();
        done();
      },
    });
    gateway = await startGateway({ upstream: upstream.url, port: 0, timeoutMs: 3_000, logger: { level: "info", stream } });
    fastifyDoor = http.createServer((req, res) => gateway.app.routing(req, res));
    fastifyDoor.keepAliveTimeout = gateway.app.server.keepAliveTimeout;
    await new Promise<void>((r) => fastifyDoor.listen(0, "127.0.0.1", r));
    fastifyUrl = `http://127.0.0.1:${(fastifyDoor.address() as AddressInfo).port}`;
    diagnostics.subscribe("tracing:fastify.request.handler:start", onHandler);
  });
  afterAll(async () => {
    diagnostics.unsubscribe("tracing:fastify.request.handler:start", onHandler);
    await new Promise((r) => fastifyDoor?.close(r));
    await gateway?.close();
    await upstream?.close();
  });

  it("plain /v1 and /v2 requests never reach a Fastify route handler; the others still do", async () => {
    handled.length = 0;
    const auth = { authorization: "Bearer sandbox_front", "content-type": "application/json" };
    expect((await send(gateway.url, "GET", "/v1/pods", auth)).status).toBe(200);
    expect((await send(gateway.url, "POST", "/v1/pods", auth, JSON.stringify({ name: "x", imageName: "img", gpuTypeIds: ["NVIDIA RTX A5000"] }))).status).toBe(201);
    expect((await send(gateway.url, "POST", "/v1/pods/pod_a/start", { authorization: "Bearer sandbox_front" })).status).toBe(200);
    expect((await send(gateway.url, "GET", "/v2/pods?x=1", auth)).status).toBe(200);
    expect(handled).toEqual([]);
    // Not plain: an escape in the path, HEAD, an unusual content type.
    await send(gateway.url, "GET", "/v1/pods/pod%5Fa", auth);
    await send(gateway.url, "HEAD", "/v2/pods", auth);
    await send(gateway.url, "POST", "/v1/pods", { ...auth, "content-type": "application/json; charset=utf-8; x=1" }, "{}");
    expect(handled).toEqual(["GET /v1/pods/pod%5Fa", "HEAD /v2/pods", "POST /v1/pods"]);
  });

  const key = "sandbox_FrontDoorKey123";
  const json = { "content-type": "application/json" };
  const cases: [string, string, Record<string, string>, string?][] = [
    ["GET", "/v1/pods", { authorization: `Bearer ${key}` }],
    ["GET", "/v1/pods?desiredStatus=RUNNING&unknownParam=1", {}],
    ["GET", "/v1/pods/pod_a", { "user-agent": "parity/1" }],
    ["GET", "/v1/pods/missing", {}],
    ["GET", `/v1/pods/${key}`, { authorization: `Bearer ${key}` }],
    ["GET", "/v1/nothing-here", {}],
    ["GET", "/v1", {}],
    ["PATCH", "/v1/pods", json, "{}"],
    ["POST", "/v1/pods", json, JSON.stringify({ name: "p", imageName: "img", gpuTypeIds: ["NVIDIA RTX A5000"], countryCodes: ["RO"] })],
    ["POST", "/v1/pods", json, JSON.stringify({ name: "p", gpuTypeIds: ["NVIDIA RTX A5000"] })],
    ["POST", "/v1/pods", json, `{"name": "${key}" broken`],
    ["POST", "/v1/pods", json, "[]"],
    ["POST", "/v1/pods", json, ""],
    ["POST", "/v1/pods/pod_a/start", {}],
    ["POST", "/v1/pods/pod_a/stop", json, "{}"],
    ["DELETE", "/v1/pods/pod_a", {}],
    ["GET", "/v1/pods/", {}],
    ["PUT", "/v1/pods/pod_a/start", json, "{}"],
    ["GET", "/v1/pods?desiredStatus=%52UNNING&x=%zz", {}],
    ["POST", "/v1/pods", { "content-type": "text/plain" }, JSON.stringify({ name: "t", imageName: "img", gpuTypeIds: ["NVIDIA RTX A5000"] })],
    ["DELETE", "/v1/pods/pod_a", json, "{}"],
    ["GET", "/v2/pods", { authorization: `Bearer ${key}` }],
    ["POST", "/v2/pods", json, JSON.stringify({ name: "n" })],
    ["GET", "/v2/nowhere", {}],
  ];

  let countsBefore: Record<string, number> = {};
  const counts = () => Object.fromEntries(gateway.usage.snapshot().operations.map((o) => [o.key, o.count]));
  /** v2bridge_v2_passthrough_requests_total by status. */
  const passthroughCounts = async () => Object.fromEntries((await gateway.metrics.passthrough.get()).values.map((v) => [String(v.labels.status), v.value]));
  let passthroughBefore: Record<string, number> = {};

  it("both doors give the same answer: status, headers in wire order, body", async () => {
    countsBefore = counts();
    passthroughBefore = await passthroughCounts();
    for (const [i, [method, path, headers, body]] of cases.entries()) {
      const id = `parity-${i}`;
      const front = await send(gateway.url, method, path, { ...headers, "x-request-id": id }, body);
      const viaFastify = await send(fastifyUrl, method, path, { ...headers, "x-request-id": id }, body);
      expect(front, `${method} ${path}`).toEqual(viaFastify);
      expect(front.text).not.toContain(key);
    }
  });

  it("both doors log the same line and count the same usage and pass-through metrics", async () => {
    const lines = log.trim().split("\n").map((l) => JSON.parse(l));
    for (const i of cases.keys()) {
      const mine = lines.filter((l) => l.reqId === `parity-${i}` && l.msg === "request completed");
      expect(mine, cases[i]!.slice(0, 2).join(" ")).toHaveLength(2);
      const [a, b] = mine.map(({ time, responseTime, pid, hostname, ...rest }) => ({ ...rest, req: { ...rest.req, host: undefined, remotePort: undefined } }));
      expect(a).toEqual(b);
    }
    expect(log).not.toContain(key);
    const after = counts();
    expect(Object.keys(after).length).toBeGreaterThan(3);
    for (const [op, count] of Object.entries(after)) expect((count - (countsBefore[op] ?? 0)) % 2, op).toBe(0);
    // /v2 cases: GET /v2/pods 200, POST /v2/pods 422 (no image), GET /v2/nowhere 404, each once through each door.
    const passthroughAfter = await passthroughCounts();
    for (const status of ["200", "422", "404"]) expect(passthroughAfter[status]! - (passthroughBefore[status] ?? 0), status).toBe(2);
  });

  it("the listener has one 'request' listener, which still feeds the drain's socket tracker", () => {
    // Several would cost Node a copy of the listener array per request (gateway/upstream/front-door.ts).
    expect(gateway.app.server.listenerCount("request")).toBe(1);
  });
});

describe("which requests the listener serves itself", () => {
  const req = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers }) as unknown as http.IncomingMessage;
  const LIMIT = 1_000;

  it("plain paths of /v1 and /v2 with GET, POST, PUT, PATCH, DELETE", () => {
    for (const url of ["/v1", "/v1/", "/v1/pods", "/v1/pods?x=%2F..", "/v1/pods/pod_a-1.x~y/start"]) expect(frontRouteOf(req("GET", url), LIMIT), url).toBe("v1");
    for (const url of ["/v2", "/v2/pods", "/v2/pods/", "/v2/catalog/gpus?gpu=NVIDIA%20A40"]) expect(frontRouteOf(req("GET", url), LIMIT), url).toBe("v2");
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect(frontRouteOf(req(method, "/v1/pods"), LIMIT)).toBe("v1");
  });

  it("leaves to Fastify: escapes, dot-segments, empty segments, other prefixes and methods", () => {
    for (const url of ["/v1/pods/a%2Fb", "/v1/./pods", "/v1/pods/..", "/v1//pods", "/v2/..%2f", "/v2/pods#x", "/v3/pods", "/v1x", "/v12", "/V1/pods", "//v1/pods", "http://host/v1/pods", "/v1/pods/a:b", "/_bridge/health"]) {
      expect(frontRouteOf(req("GET", url), LIMIT), url).toBeNull();
    }
    for (const method of ["HEAD", "OPTIONS", "TRACE", "PROPFIND"]) expect(frontRouteOf(req(method, "/v1/pods"), LIMIT), method).toBeNull();
  });

  it("leaves to Fastify what its body handling decides: odd content types, chunked or oversize v1 bodies, v1 GET bodies", () => {
    const post = (headers: Record<string, string>) => frontRouteOf(req("POST", "/v1/pods", headers), LIMIT);
    expect(post({ "content-type": "application/json", "content-length": "10" })).toBe("v1");
    expect(post({ "content-type": "Application/JSON; charset=UTF-8", "content-length": String(LIMIT) })).toBe("v1");
    expect(post({})).toBe("v1");
    expect(post({ "content-type": "application/json", "content-length": String(LIMIT + 1) })).toBeNull();
    expect(post({ "content-type": "application/json", "transfer-encoding": "chunked" })).toBeNull();
    expect(post({ "content-length": "2" })).toBeNull();
    expect(post({ "content-type": "application/x-www-form-urlencoded", "content-length": "2" })).toBeNull();
    expect(post({ "content-type": "bogus", "content-length": "2" })).toBeNull();
    expect(frontRouteOf(req("GET", "/v1/pods", { "content-length": "2" }), LIMIT)).toBeNull();
    // The pass-through streams bodies of any size, and GET bodies too.
    expect(frontRouteOf(req("POST", "/v2/pods", { "content-type": "application/json", "transfer-encoding": "chunked" }), LIMIT)).toBe("v2");
    expect(frontRouteOf(req("GET", "/v2/pods", { "content-length": "2" }), LIMIT)).toBe("v2");
  });
});

describe("the listener in front of Fastify", () => {
  it("calls Fastify's handler for the rest, and turns a handler that throws into the failure answer instead of a crash", async () => {
    const fastify = (_req: http.IncomingMessage, res: http.ServerResponse) => void res.end("fastify");
    const server = http.createServer(fastify);
    // Another 'request' listener (as the drain's socket tracker) keeps seeing every request.
    const seen: string[] = [];
    server.on("request", (req: http.IncomingMessage) => seen.push(req.url!));
    serveAheadOfFastify(server, fastify, {
      v1: () => {
        throw new Error("bug");
      },
      v2: (_req, res) => res.end("front"),
      bodyLimit: 100,
      draining: () => false,
      failed: (_err, _req, res) => res.writeHead(500).end("failed"),
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await send(url, "GET", "/_bridge/health")).text).toBe("fastify");
      expect((await send(url, "GET", "/v2/pods")).text).toBe("front");
      expect(await send(url, "GET", "/v1/pods")).toMatchObject({ status: 500, text: "failed" });
      expect((await send(url, "GET", "/v2/pods")).text).toBe("front");
      expect(seen).toEqual(["/_bridge/health", "/v2/pods", "/v1/pods", "/v2/pods"]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("the v1 handler ahead of Fastify when its own code throws", () => {
  it("an answer that cannot be sent becomes a v1 500, and a throwing count is logged: no unhandled rejection, no crash", async () => {
    const logged: string[] = [];
    const log = { info() {}, warn() {}, error: (fields: { err?: Error }, message: string) => logged.push(`${message}: ${fields.err?.message}`) } as any;
    let calls = 0;
    const routes: V1Routes = {
      fixedHeaders: { deprecation: "true" },
      // The first answer holds a BigInt (JSON.stringify throws while sending it); the second is fine.
      handle: async () => (calls++ === 0 ? { status: 200, json: { n: 1n } } : { status: 200, json: { ok: true } }),
      answered() {
        throw new Error("count failed");
      },
      failure: (error, ex) => failureAnswer(error, ex, 1_000, () => {}),
    };
    const server = http.createServer(createV1Fast(routes, log, { active: false }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const broken = await send(url, "GET", "/v1/pods", { "x-request-id": "throws-1" });
      expect(broken.status).toBe(500);
      expect(JSON.parse(broken.text)).toEqual({ message: "internal gateway error (request id throws-1)" });
      expect((await send(url, "GET", "/v1/pods")).text).toBe('{"ok":true}');
      expect(logged).toContain("v1 translation failed: Do not know how to serialize a BigInt");
      expect(logged.filter((l) => l === "gateway error: count failed")).toHaveLength(2);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
