// An upstream that streams an endless answer must not take the gateway down: the gateway counts
// bytes as they arrive, aborts the upstream request past --max-response-bytes and answers a v1 502.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { rawRequest } from "./helpers.ts";
import { sendJson, startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

const LIMIT = 1_048_576;
/** Most the test upstream will ever send, and for how long (bounds the test if the gateway keeps reading). */
const STREAM_CAP = 128 * 1_048_576;
const STREAM_MS = 10_000;
/** Bytes that may sit in socket buffers between the upstream's write() and the gateway's parser. */
const SLACK = 16 * 1_048_576;

describe("bounded upstream answers", () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  const auth = { authorization: "Bearer sandbox_x" };

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    gateway = await startGateway({ upstream: upstream.url, port: 0, timeoutMs: 5_000, maxResponseBytes: LIMIT });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("a chunked answer without Content-Length far past the limit: v1 502, upstream aborted early, gateway still serving", async () => {
    let streamed!: Promise<{ sent: number; completed: boolean }>;
    upstream.handle = (req, res) => {
      req.resume();
      streamed = new Promise((resolve) => {
        let sent = 0;
        const started = Date.now();
        const chunk = Buffer.alloc(64 * 1024, 0x20); // JSON whitespace, so only the size is wrong
        res.on("close", () => resolve({ sent, completed: res.writableFinished }));
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"pods": [');
        const pump = () => {
          while (!res.destroyed && sent < STREAM_CAP && Date.now() - started < STREAM_MS) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          if (!res.destroyed) res.end("]}");
        };
        pump();
      });
    };
    const r = await rawRequest(gateway.url, "GET", "/v1/pods", { headers: auth, timeoutMs: 20_000 });
    expect(r.status).toBe(502);
    expect(r.json.message).toMatch(/^upstream answer too large/);
    const { sent, completed } = await streamed;
    console.log(`upstream streamed ${(sent / 1_048_576).toFixed(1)} MiB before the gateway dropped it (limit ${LIMIT / 1_048_576} MiB)`);
    expect(completed).toBe(false);
    expect(sent).toBeLessThan(LIMIT + SLACK);

    upstream.handle = (req, res) => {
      req.resume();
      sendJson(res, 200, { pods: [] });
    };
    const next = await rawRequest(gateway.url, "GET", "/v1/pods", { headers: auth });
    expect(next.status).toBe(200);
    expect(next.json).toEqual([]);
  });

  it("a declared Content-Length above the limit is refused without reading the body", async () => {
    upstream.handle = (req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json", "content-length": String(LIMIT * 4) });
      res.write('{"pods": ['); // and then nothing: the gateway must not wait for the rest
    };
    const r = await rawRequest(gateway.url, "GET", "/v1/pods", { headers: auth, timeoutMs: 4_000 });
    expect(r.status).toBe(502);
    expect(r.json.message).toMatch(/^upstream answer too large/);
  });
});
