// The drain does not wait on clients that are not waiting for an answer: a connection to the admin
// listener that never sent a request closes at once, and a request whose body is still arriving
// gets a v1 408 within the request timeout (Node's own checker stops with server.close()).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../../gateway/server.ts";
import { rawBody, rawSocket } from "./raw-socket.ts";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

/** Resolves with `work`'s outcome, or "still running" after `ms` (a generous bound, not a speed check). */
const within = <T>(work: Promise<T>, ms: number) => Promise.race([work, new Promise<"still running">((r) => setTimeout(() => r("still running"), ms).unref())]);

describe("drain and clients that are not waiting for an answer", () => {
  let upstream: ScriptedUpstream;
  beforeAll(async () => (upstream = await startScriptedUpstream()));
  afterAll(async () => upstream?.close());

  it("a half-sent body gets its 408 within the request timeout, an idle admin connection closes at once, close() ends well before the cap", async () => {
    const REQUEST_TIMEOUT = 800;
    const DRAIN_CAP = 10_000;
    const gateway = await startGateway({ upstream: upstream.url, port: 0, headersTimeoutMs: 500, requestTimeoutMs: REQUEST_TIMEOUT, drainTimeoutMs: DRAIN_CAP });
    const head = "POST /v1/pods HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer sandbox_x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n";
    const body = await rawSocket(gateway.url, `${head}{"name":`);
    const adminIdle = await rawSocket(gateway.adminUrl, "");
    try {
      await new Promise((r) => setTimeout(r, 100)); // the headers and the first bytes have arrived
      const started = Date.now();
      const closed = await within(gateway.close(), DRAIN_CAP - 2_000);
      const closeMs = Date.now() - started;
      const [bodyEnd, adminEnd] = await Promise.all([body.closed, adminIdle.closed]);
      console.log(`close(): idle admin connection closed after ${adminEnd.at - started} ms, half-sent body answered ${bodyEnd.answer.split("\r\n")[0]} after ${bodyEnd.at - started} ms (request timeout ${REQUEST_TIMEOUT} ms), close() took ${closeMs} ms (cap ${DRAIN_CAP} ms)`);
      expect(closed).toBeUndefined();
      expect(adminEnd.answer).toBe("");
      expect(adminEnd.at - started).toBeLessThan(bodyEnd.at - started);
      expect(bodyEnd.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(bodyEnd.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(rawBody(bodyEnd.answer)).toEqual({ message: expect.stringContaining(`${REQUEST_TIMEOUT} ms`) });
      expect(upstream.seen.filter((s) => s.startsWith("POST"))).toEqual([]);
    } finally {
      body.socket.destroy();
      adminIdle.socket.destroy();
      await gateway.close();
    }
  });
});
