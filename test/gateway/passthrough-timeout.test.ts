// The /v2 pass-through's --timeout counts idle time on the upstream connection, not the whole
// answer (gateway/upstream/idle-timeout.ts): a slow but moving stream passes, a stalled one is cut,
// an upstream that never answers gets a 504 problem soon after the timeout, with or without Expect.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";

const TIMEOUT = 300;

interface Got {
  status: number;
  body: string;
  /** The answer stopped before its end (connection cut). */
  cut: boolean;
  ms: number;
}

function get(url: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url + path, { agent: false, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body, cut: false, ms: Date.now() - started }));
      res.on("error", () => resolve({ status: res.statusCode!, body, cut: true, ms: Date.now() - started }));
      res.on("aborted", () => resolve({ status: res.statusCode!, body, cut: true, ms: Date.now() - started }));
    });
    req.on("error", reject);
  });
}

describe("/v2 pass-through timeout", () => {
  let upstream: http.Server;
  let gateway: Gateway;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      if (req.url === "/v2/trickle") {
        // A byte every 100 ms for 800 ms: never idle for the timeout, longer than it in all.
        res.writeHead(200, { "content-type": "text/plain" });
        let n = 0;
        const t = setInterval(() => {
          res.write(String(n));
          if (++n === 8) {
            clearInterval(t);
            res.end();
          }
        }, 100);
      } else if (req.url === "/v2/stall") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first");
        held.push(res);
      } else {
        held.push(res); // never answers
      }
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    gateway = await startGateway({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0, timeoutMs: TIMEOUT });
  });

  afterAll(async () => {
    await gateway?.close();
    for (const res of held) res.destroy();
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  it("a slow answer that keeps moving passes whole", async () => {
    const r = await get(gateway.url, "/v2/trickle");
    expect(r).toMatchObject({ status: 200, body: "01234567", cut: false });
    expect(r.ms).toBeGreaterThan(2 * TIMEOUT);
  });

  it("an answer that stalls after its first bytes is cut once idle for the timeout", async () => {
    const r = await get(gateway.url, "/v2/stall");
    expect(r).toMatchObject({ status: 200, body: "first", cut: true });
    expect(r.ms).toBeGreaterThanOrEqual(TIMEOUT - 5);
    expect(r.ms).toBeLessThan(TIMEOUT + 400);
  });

  it("an upstream that never answers gets a 504 problem soon after the timeout, Expect or not", async () => {
    for (const headers of [{}, { expect: "100-continue" }] as Record<string, string>[]) {
      const r = await get(gateway.url, "/v2/pods", headers);
      expect(r.status, JSON.stringify(headers)).toBe(504);
      expect(JSON.parse(r.body)).toMatchObject({ status: 504, detail: `upstream did not answer within ${TIMEOUT} ms` });
      expect(r.ms).toBeGreaterThanOrEqual(TIMEOUT - 5);
      expect(r.ms).toBeLessThan(TIMEOUT + 400);
    }
  });
});
