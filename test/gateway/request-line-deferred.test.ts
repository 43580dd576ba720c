// The front door's "request completed" lines are built in a batch after the answer
// (gateway/observability/request-line.ts): the same bytes as the line written at once, from the
// values of the answer's moment, in answer order, before any line pino writes later, and all of
// them by the time the process exits.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { spawnSync } from "node:child_process";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeredLog, loggerOption } from "../../gateway/observability/logging.ts";
import { flushRequestLines, requestLineWriter } from "../../gateway/observability/request-line.ts";

function gatewayLogger(): { log: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  let clock = 1700000000000;
  const app = Fastify({ logger: loggerOption({ level: "info", stream: { write: (l: string) => lines.push(l) }, timestamp: () => `,"time":${clock++}` }) as any });
  return { log: app.log, lines };
}

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
    new Promise<void>((resolve, reject) => http.get({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => res.resume().on("end", resolve)).on("error", reject));
  await ask("/v2/pods", { authorization: "Bearer rpa_0123456789ABCDEFGHIJKLMNOP", "x-request-id": "abc" });
  await ask("/v1/pods?api_key=sekrit123&name=%22q%22\\x", { host: 'we"ird\u00e9' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("deferred request lines", () => {
  it("are the lines written at once, byte for byte, in answer order, after this turn of the event loop", async () => {
    const now = gatewayLogger();
    const later = gatewayLogger();
    const sync = requestLineWriter(now.log)!;
    const deferred = requestLineWriter(later.log, true)!;
    for (const [i, req] of received.entries()) {
      for (const responseTime of [1.2345678, 0, NaN]) {
        expect(sync(`id-${i}`, req, 201, responseTime)).toBe(true);
        expect(deferred(`id-${i}`, req, 201, responseTime)).toBe(true);
      }
    }
    expect(later.lines).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(later.lines).toEqual(now.lines);
    expect(later.lines.join("")).not.toMatch(/rpa_0123|sekrit123/);
  });

  it("keep the socket's address of the answer's moment when the socket closes before the batch", async () => {
    const { log, lines } = gatewayLogger();
    const line = requestLineWriter(log, true)!;
    const closing = http.createServer((req, res) => {
      line("x", req, 200, 1);
      res.socket!.destroy(); // before this turn's batch: the address must come from the answer's moment
    });
    await new Promise<void>((r) => closing.listen(0, "127.0.0.1", r));
    const { port } = closing.address() as AddressInfo;
    await new Promise<void>((resolve) => http.get({ host: "127.0.0.1", port, path: "/v2/pods", agent: false }).on("error", () => resolve()).on("response", () => resolve()));
    await new Promise<void>((r) => closing.close(() => r()));
    const req = JSON.parse(lines[0]!).req;
    expect(req.remoteAddress).toBe("127.0.0.1");
    expect(typeof req.remotePort).toBe("number");
  });

  it("come before a line pino writes later for the front door", () => {
    const { log, lines } = gatewayLogger();
    const logAnswered = answeredLog(log);
    logAnswered("first", received[0]!, 200, 1);
    logAnswered("second", received[0]!, 500, 1, new Error("boom"));
    expect(lines.map((l) => JSON.parse(l).reqId)).toEqual(["first", "second"]);
    flushRequestLines();
  });

  it("are all written when the process exits before the batch runs", () => {
    const script = `
      import Fastify from "fastify";
      import { loggerOption } from "./gateway/observability/logging.ts";
      import { requestLineWriter } from "./gateway/observability/request-line.ts";
      const app = Fastify({ logger: loggerOption(true) });
      const line = requestLineWriter(app.log, true);
      const req = { method: "GET", url: "/v2/pods", headers: {}, socket: {} };
      for (let i = 0; i < 3; i++) line("exit-" + i, req, 200, 1);
      process.exit(0);`;
    const out = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd(), encoding: "utf8" });
    expect(out.status).toBe(0);
    const ids = out.stdout.trim().split("\n").map((l) => JSON.parse(l).reqId);
    expect(ids).toEqual(["exit-0", "exit-1", "exit-2"]);
  });
});
