// Where the limits meet the operator features: the drain stops the admin listener too and saves
// the usage store's last counts within --drain-timeout; the admin listener has the public one's
// client timeouts; the lost-write message (which quotes the request back) goes out redacted.
import http from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { rawRequest } from "./helpers.ts";
import { trickle } from "./trickle.ts";
import { agentGet, holdSlowAnswers, startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "v2b-drain-"));
const savedUsage = (stateDir: string) => JSON.parse(readFileSync(path.join(stateDir, "usage.json"), "utf8"));

const get = (url: string, agent: http.Agent, headers: Record<string, string> = {}) => agentGet(url, agent, headers, 15_000);

/** Whether a TCP connection to `url` is refused (nothing listening any more). */
function refused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(false);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
}

/** Resolves with `work`'s outcome, or "still running" after `ms` (a generous bound, not a speed check). */
const within = <T>(work: Promise<T>, ms: number) => Promise.race([work, new Promise<"still running">((r) => setTimeout(() => r("still running"), ms).unref())]);

describe("drain covers both listeners and the usage store", () => {
  let upstream: ScriptedUpstream;
  /** "slow-*" answers when the test releases it, "stuck-*" never, anything else at once. */
  let control: ReturnType<typeof holdSlowAnswers>;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    control = holdSlowAnswers(upstream);
  });
  afterAll(async () => upstream?.close());

  it("close(): the in-flight request finishes, the admin listener's keep-alive connection closes, the request is in the saved usage", async () => {
    const stateDir = scratch();
    const gateway = await startGateway({ upstream: upstream.url, port: 0, stateDir, usageFlushMs: 3_600_000 });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const health = await get(`${gateway.adminUrl}/_bridge/health`, agent);
      expect(health.status).toBe(200);
      const adminSocket = Object.values(agent.freeSockets).flat()[0]!;
      const adminClosed = new Promise<void>((r) => adminSocket.once("close", () => r()));

      const slowArrived = control.arrival("slow-a");
      const slow = get(`${gateway.url}/v1/pods`, agent, { authorization: "Bearer sandbox_drain_a", "x-request-id": "slow-a" });
      await slowArrived;
      const closed = gateway.close();
      await adminClosed; // idle admin connection closed at the start of the drain, not at the end
      expect(await refused(`${gateway.adminUrl}/_bridge/health`)).toBe(true);
      control.held.splice(0).forEach((send) => send());
      const answer = await slow;
      expect([answer.status, answer.body, answer.connection]).toEqual([200, "[]", "close"]);
      expect(await within(closed, 10_000)).toBeUndefined();

      // The flush interval is an hour: only the shutdown save can have written this.
      const saved = savedUsage(stateDir);
      expect(saved.operations.map((o: { key: string; count: number }) => [o.key, o.count])).toEqual([["ListPods", 1]]);
    } finally {
      agent.destroy();
      await gateway.close();
    }
  });

  it("--drain-timeout: a stuck request is cut, yet the usage store's last save still happens within the cap", async () => {
    const stateDir = scratch();
    const lines: string[] = [];
    const gateway = await startGateway({
      upstream: upstream.url,
      port: 0,
      stateDir,
      usageFlushMs: 3_600_000,
      drainTimeoutMs: 2_000,
      logger: { level: "warn", stream: { write: (line: string) => lines.push(line) } },
    });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const fast = await get(`${gateway.url}/v1/pods`, agent, { authorization: "Bearer sandbox_drain_b", "x-request-id": "fast-b" });
      expect(fast.status).toBe(200);
      const stuckArrived = control.arrival("stuck-b");
      const stuck = get(`${gateway.url}/v1/pods`, agent, { authorization: "Bearer sandbox_drain_b", "x-request-id": "stuck-b" }).then(
        (r) => `answered ${r.status}`,
        (err: Error) => `cut: ${err.message}`,
      );
      await stuckArrived;
      const started = Date.now();
      expect(await within(gateway.close(), 10_000)).toBeUndefined();
      console.log(`close() with a stuck request and --drain-timeout 2000: ${Date.now() - started} ms`);
      expect(await stuck).toMatch(/^cut: /);
      expect(lines.join("")).toMatch(/drain timeout \(\d+ ms\) reached/);
      expect(lines.join("")).not.toMatch(/not saved within the drain timeout/);
      // The answered request is in the last save (whether the cut one counts as a failure is beside the point here).
      expect(savedUsage(stateDir).operations).toEqual([expect.objectContaining({ key: "ListPods", statuses: expect.objectContaining({ "200": 1 }) })]);
    } finally {
      agent.destroy();
    }
  });
});

describe("admin listener limits and redacted lost-write messages", () => {
  let upstream: ScriptedUpstream;
  let gateway: Gateway;
  const HEADERS_TIMEOUT = 300;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    gateway = await startGateway({ upstream: upstream.url, port: 0, timeoutMs: 2_000, headersTimeoutMs: HEADERS_TIMEOUT, requestTimeoutMs: 400 });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("a client trickling its headers to the admin listener is cut after --headers-timeout", async () => {
    const r = await trickle(gateway.adminUrl, "GET /_bridge/usage HTTP/1.1\r\nHost: admin\r\n", (i) => `X-Slow-${i}: 1\r\n`, 30);
    console.log(`admin listener: slow-header client cut after ${r.ms} ms (headers timeout ${HEADERS_TIMEOUT} ms), ${r.linesSent} header lines sent`);
    expect(r.linesSent).toBeLessThan(30);
    expect(r.answer).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it("a lost create whose name is the caller's key: the advice names the pod without the key", async () => {
    const key = "teamKeyNotKeyShaped0123";
    upstream.handle = (req) => {
      req.resume();
      req.on("end", () => req.socket.destroy()); // read, then no answer
    };
    const r = await rawRequest(gateway.url, "POST", "/v1/pods", {
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: key, imageName: "runpod/pytorch:2", gpuTypeIds: ["NVIDIA RTX A5000"], gpuCount: 1 }),
    });
    expect(r.status).toBe(502);
    expect(r.json.message).toContain('may have been created anyway (v2 has no idempotency keys). Before retrying, list them (GET /v1/pods) and look for one named "[redacted]"');
    expect(r.text).not.toContain(key);
  });
});
