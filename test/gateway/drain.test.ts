// SIGTERM drain on a real `v2-bridge gateway` process: in-flight requests finish with their answers,
// keep-alive connections close as soon as they turn idle, and the process exits right after the
// longest in-flight request (not after the 72 s keep-alive timeout). A socket that never sent a
// request does not hold it, and a half-sent request gets its 408. --drain-timeout caps the wait.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGatewayProcess } from "./gateway-process.ts";
import { rawBody, rawSocket } from "./raw-socket.ts";
import { agentGet, holdSlowAnswers, startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream.ts";

/** How long the in-flight request keeps running after SIGTERM. */
const IN_FLIGHT_AFTER_SIGTERM_MS = 800;
/** Generous bound on SIGTERM → exit (the keep-alive timeout it used to wait for is 72 s). */
const EXIT_BOUND_MS = 10_000;

// In a scratch directory: the command keeps its state (salt, usage store) under ./.v2-bridge.
const startGateway = (args: string[]) => startGatewayProcess(args, { cwd: mkdtempSync(path.join(os.tmpdir(), "v2b-drain-")) });

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))));
}

const get = (url: string, agent: http.Agent, requestId: string) =>
  agentGet(`${url}/v1/pods`, agent, { authorization: "Bearer sandbox_x", "x-request-id": requestId }, 20_000);

describe("SIGTERM drain of a gateway process", () => {
  let upstream: ScriptedUpstream;
  /** Held "slow-*" answers are sent when the test says so; "stuck-*" are never answered. */
  let control: ReturnType<typeof holdSlowAnswers>;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    control = holdSlowAnswers(upstream);
  });
  afterAll(async () => upstream?.close());

  it("finishes the in-flight request, closes the idle keep-alive connection, exits soon after", async () => {
    const { child, url } = await startGateway(["--upstream", upstream.url]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    try {
      const slowArrived = control.arrival("slow-1");
      const slow = get(url, agent, "slow-1"); // socket 1: in flight during SIGTERM
      await slowArrived;
      const fast = await get(url, agent, "fast-1"); // socket 2: answered, then idle keep-alive
      expect(fast.status).toBe(200);
      expect(Object.values(agent.freeSockets).flat().length).toBe(1);

      const exited = exitOf(child);
      const sent = Date.now();
      child.kill("SIGTERM");
      setTimeout(() => control.held.splice(0).forEach((send) => send()), IN_FLIGHT_AFTER_SIGTERM_MS).unref();
      const answer = await slow;
      const answeredMs = Date.now() - sent;
      const code = await Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), EXIT_BOUND_MS).unref())]);
      const exitMs = Date.now() - sent;
      console.log(`SIGTERM → in-flight answer after ${answeredMs} ms, process exit after ${exitMs} ms (in-flight request answered by the upstream ${IN_FLIGHT_AFTER_SIGTERM_MS} ms after SIGTERM)`);
      expect(code).toBe(0);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe("[]");
      expect(answer.connection).toBe("close");
    } finally {
      agent.destroy();
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("an idle socket and a half-sent request do not hold the drain: closed at once, 408 within the headers timeout, exit right after the slow answer", async () => {
    const HEADERS_TIMEOUT = 1_000;
    const SLOW_AFTER_SIGTERM = 1_500;
    const DRAIN_CAP = 12_000;
    const { child, url, output } = await startGateway(["--upstream", upstream.url, "--headers-timeout", String(HEADERS_TIMEOUT), "--drain-timeout", String(DRAIN_CAP)]);
    const agent = new http.Agent({ keepAlive: true });
    const idle = await rawSocket(url, "");
    const half = await rawSocket(url, "GET /v1/pods HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer sandbox_x\r\n");
    try {
      const slowArrived = control.arrival("slow-3");
      const slow = get(url, agent, "slow-3");
      await slowArrived;
      await new Promise((r) => setTimeout(r, 100)); // the half-sent bytes have reached the gateway

      const exited = exitOf(child);
      const sent = Date.now();
      child.kill("SIGTERM");
      setTimeout(() => control.held.splice(0).forEach((send) => send()), SLOW_AFTER_SIGTERM).unref();
      const answer = await slow;
      const answeredMs = Date.now() - sent;
      const code = await Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), DRAIN_CAP + 5_000).unref())]);
      const exitMs = Date.now() - sent;
      const [idleEnd, halfEnd] = await Promise.all([idle.closed, half.closed]);
      console.log(
        `SIGTERM → idle socket closed after ${idleEnd.at - sent} ms, half-sent request answered ${halfEnd.answer.split("\r\n")[0]} and closed after ${halfEnd.at - sent} ms ` +
          `(headers timeout ${HEADERS_TIMEOUT} ms), slow answer after ${answeredMs} ms (released ${SLOW_AFTER_SIGTERM} ms after SIGTERM), exit after ${exitMs} ms (drain cap ${DRAIN_CAP} ms) on Node ${process.version}`,
      );
      expect(code).toBe(0);
      expect([answer.status, answer.body, answer.connection]).toEqual([200, "[]", "close"]);
      // The idle socket went before the slow answer came back; nothing waited for the cap.
      expect(idleEnd.answer).toBe("");
      expect(idleEnd.at - sent).toBeLessThan(answeredMs);
      expect(halfEnd.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(halfEnd.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(rawBody(halfEnd.answer)).toEqual({ message: expect.stringContaining(`${HEADERS_TIMEOUT} ms`) });
      expect(halfEnd.at - sent).toBeLessThan(DRAIN_CAP);
      expect(exitMs).toBeLessThan(DRAIN_CAP);
      expect(output()).not.toMatch(/drain timeout \(\d+ ms\) reached/);
    } finally {
      agent.destroy();
      idle.socket.destroy();
      half.socket.destroy();
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("--drain-timeout cuts a request that would never finish", async () => {
    const { child, url } = await startGateway(["--upstream", upstream.url, "--drain-timeout", "300"]);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const stuckArrived = control.arrival("stuck-1");
      const stuck = get(url, agent, "stuck-1").then(
        (r) => `answered ${r.status}`,
        (err: Error) => `cut: ${err.message}`,
      );
      await stuckArrived;
      const exited = exitOf(child);
      const sent = Date.now();
      child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), EXIT_BOUND_MS).unref())]);
      console.log(`SIGTERM with a stuck request, --drain-timeout 300: exit after ${Date.now() - sent} ms`);
      expect(code).toBe(0);
      expect(await stuck).toMatch(/^cut: /);
    } finally {
      agent.destroy();
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
