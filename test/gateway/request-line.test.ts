// The hand-built "request completed" line (gateway/observability/request-line.ts) is byte for byte
// the line pino writes for the same request, and is used only where that holds.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeredLog, loggerOption } from "../../gateway/observability/logging.ts";
import { requestLineWriter } from "../../gateway/observability/request-line.ts";

/** A logger as the gateway builds it (Fastify's pino with the gateway's options), lines into `lines`, a fixed clock. */
function gatewayLogger(extra: Record<string, unknown> = {}): { log: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const app = Fastify({ logger: loggerOption({ level: "info", stream: { write: (l: string) => lines.push(l) }, timestamp: () => ',"time":1700000000000', ...extra }) as any });
  return { log: app.log, lines };
}

/** Real requests off a loopback server, kept open so their sockets still have addresses. */
let server: http.Server;
const received: http.IncomingMessage[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push(req);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const ask = (path: string, headers: Record<string, string>) =>
    new Promise<void>((resolve, reject) => http.get({ host: "127.0.0.1", port, path, headers }, (res) => res.resume().on("end", resolve)).on("error", reject));
  await ask("/v2/pods", { authorization: "Bearer rpa_0123456789ABCDEFGHIJKLMNOP", "x-request-id": "abc" });
  await ask("/v1/pods?api_key=sekrit123&name=%22q%22\\x", { host: 'we"ird\u00e9' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the front door's request line", () => {
  it("is pino's line, byte for byte, secrets cut as pino's serializer cuts them", () => {
    const { log, lines } = gatewayLogger();
    const fast = requestLineWriter(log);
    expect(fast).not.toBeNull();
    for (const [i, req] of received.entries()) {
      for (const responseTime of [1.2345678, 0, NaN]) {
        lines.length = 0;
        expect(fast!(`id-${i}`, req, 201, responseTime)).toBe(true);
        const request = { method: req.method, url: req.url, headers: req.headers, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket };
        log.info({ reqId: `id-${i}`, req: request, res: { statusCode: 201 }, responseTime }, "request completed");
        expect(lines).toHaveLength(2);
        expect(lines[0]).toBe(lines[1]);
      }
    }
    expect(lines.join("")).not.toMatch(/rpa_0123|sekrit123/);
  });

  it("is written through pino where the line could differ, and not at all below the level", () => {
    const req = received[0]!;
    expect(requestLineWriter(gatewayLogger({ serializers: { req: (r: any) => ({ url: r.url }) } }).log)).toBeNull();
    expect(requestLineWriter(gatewayLogger({ mixin: () => ({ extra: 1 }) }).log)).toBeNull();
    expect(requestLineWriter(gatewayLogger({ formatters: { log: (o: object) => o } }).log)).toBeNull();
    expect(requestLineWriter(gatewayLogger({ messageKey: "message" }).log)).toBeNull();
    // The caller's own serializer still applies.
    const custom = gatewayLogger({ serializers: { req: (r: any) => ({ only: r.method }) } });
    answeredLog(custom.log)("x", req, 200, 1);
    expect(JSON.parse(custom.lines[0]!).req).toEqual({ only: "GET" });
    const quiet = gatewayLogger({ level: "warn" });
    expect(requestLineWriter(quiet.log)!("x", req, 200, 1)).toBe(false);
    answeredLog(quiet.log)("x", req, 200, 1);
    expect(quiet.lines).toEqual([]);
    // An error line is pino's own.
    const { log, lines } = gatewayLogger();
    answeredLog(log)("x", req, 500, 1, new Error("boom"));
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, msg: "request errored", err: { message: "boom" } });
  });
});
