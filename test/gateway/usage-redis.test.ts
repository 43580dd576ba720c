// Usage shared by gateway replicas through a real redis-server on loopback: two gateway processes
// count into one history (one fingerprint per client across replicas), the report reads it
// straight from Redis, and a Redis outage neither fails v1 calls nor loses their counts.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUsageFromRedis } from "../../gateway/usage/usage-redis.ts";
import { checkUsage, generateReport, loadTraffic, ReportInputError } from "../../report/index.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { startGatewayProcess, type GatewayProcess } from "./gateway-process.ts";
import { startRig } from "./helpers.ts";

const REDIS_SERVER = "/usr/bin/redis-server";
const missing = existsSync(REDIS_SERVER) ? null : `${REDIS_SERVER} is not installed (CI installs it with .ci/install-services)`;
const SALT = "fleet-salt-for-tests-0123456789";
/** The gateway's Redis reader, handed to the report as the CLI does. */
const redisReader = () => import("../../gateway/usage/usage-redis.ts");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startRedis(port: number): Promise<{ url: string; stop(): Promise<void>; pause(): void; resume(): void }> {
  const child: ChildProcess = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server not ready within 10 s:\n${output}`)), 10_000);
    const poll = setInterval(() => {
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    }, 20);
    child.once("exit", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGCONT");
        child.kill("SIGTERM");
      }),
    // A Redis that accepts bytes but never answers (SIGSTOP): the case a command timeout is for.
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
  };
}

/**
 * A loopback port that stands for Redis while Redis is away: connections are refused (closed at
 * once) until `forwardTo(port)`, then piped through. It keeps its port the whole time, so no
 * other socket can take it between "Redis is down" and "Redis is back".
 */
function redisGate(): Promise<{ url: string; forwardTo(port: number): void; close(): Promise<void> }> {
  let target: number | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (target === undefined) return void client.destroy();
    const upstream = net.connect(target, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `redis://127.0.0.1:${port}`,
        forwardTo: (p) => (target = p),
        close: () => new Promise<void>((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        }),
      });
    });
  });
}

async function v1(base: string, key: string, userAgent: string, p: string, times: number, status: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${base}/v1${p}`, { headers: { authorization: `Bearer ${key}`, "user-agent": userAgent } });
    await res.text();
    expect([p, res.status]).toEqual([p, status]);
  }
}

const byAgent = (usage: any, userAgent: string) => usage.clients.filter((c: any) => c.userAgent === userAgent);

describe.skipIf(missing)(`usage shared through Redis${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, warn: () => {} });
  });
  afterAll(() => sandbox?.close());

  it("two gateway replicas count into one history that the report reads from Redis", async () => {
    const redis = await startRedis(await freePort());
    const replicas: GatewayProcess[] = [];
    try {
      const args = ["--upstream", sandbox.url, "--usage-store", redis.url, "--usage-flush-ms", "100"];
      const env = { V2_BRIDGE_FINGERPRINT_SALT: SALT };
      const [a, b] = await Promise.all([startGatewayProcess(args, { cwd: mkdtempSync(path.join(os.tmpdir(), "v2b-a-")), env }), startGatewayProcess(args, { cwd: mkdtempSync(path.join(os.tmpdir(), "v2b-b-")), env })]);
      replicas.push(a!, b!);
      await v1(a!.url, "sandbox_alpha", "alpha/1", "/pods", 3, 200);
      await v1(a!.url, "sandbox_beta", "beta/1", "/pods", 1, 200);
      await v1(a!.url, "sandbox_beta", "beta/1", "/pods/nope", 2, 404);
      await v1(b!.url, "sandbox_alpha", "alpha/1", "/pods", 4, 200);
      await v1(b!.url, "sandbox_gamma", "gamma/1", "/pods", 2, 200);

      // B sends what it has left on shutdown; A's page then shows the fleet, its own pending counts included.
      expect(await b!.stop()).toBe(0);
      const page = (await (await fetch(`${a!.adminUrl}/_bridge/usage`)).json()) as any;
      expect(page.totals).toMatchObject({ requests: 12, clients: 3 });
      expect(await a!.stop()).toBe(0);

      const usage: any = await readUsageFromRedis(redis.url);
      expect(checkUsage(usage)).toEqual({ ok: true });
      expect(usage.totals).toEqual({ requests: 12, clients: 3, evictedClients: 0 });
      expect(usage.operations.map((o: any) => [o.key, o.count, o.clients, o.statuses])).toEqual([
        ["ListPods", 10, 3, { "200": 10 }],
        ["GetPod", 2, 1, { "404": 2 }],
      ]);
      expect(byAgent(usage, "alpha/1")).toHaveLength(1); // one fingerprint across both replicas
      expect(byAgent(usage, "alpha/1")[0]).toMatchObject({ count: 7, operations: { ListPods: expect.objectContaining({ count: 7 }) } });
      expect(byAgent(usage, "beta/1")[0]).toMatchObject({ count: 3, operations: { ListPods: expect.objectContaining({ count: 1 }), GetPod: expect.objectContaining({ count: 2 }) } });
      expect(byAgent(usage, "gamma/1")[0]).toMatchObject({ count: 2 });
      expect(page.operations).toEqual(usage.operations.map((o: any) => ({ ...o, lastSeen: expect.any(String) })));

      // What `v2-bridge report --traffic redis://…` renders (the CLI's generateReport, in process).
      const report = await generateReport({ traffic: redis.url, redisReader });
      expect(report.model.totals).toMatchObject({ liveRequests: 12, liveClients: 3, operationsInTraffic: 2 });
      expect(report.model.traffic?.source).toBe(redis.url);
      expect(report.html).toContain("GetPod");
    } finally {
      for (const r of replicas) await r.stop().catch(() => {});
      await redis.stop();
    }
  });

  it("what v2 drops adds up across replicas in Redis, per client and in all", async () => {
    const redis = await startRedis(await freePort());
    const rigs: Awaited<ReturnType<typeof startRig>>[] = [];
    try {
      for (let i = 0; i < 2; i++) rigs.push(await startRig({ sandbox: { port: 0 }, gateway: { usageStore: redis.url, fingerprintSalt: SALT, usageFlushMs: 50 } }));
      for (const rig of rigs) await v1(rig.gateway.url, "sandbox_drops", "drops/1", "/pods?includeSavingsPlans=true", 1, 200);
      await v1(rigs[0]!.gateway.url, "sandbox_other", "other/1", "/pods?includeSavingsPlans=true", 1, 200);
      while (rigs.length) await rigs.pop()!.close(); // each sends its last batch on close
      const usage: any = await readUsageFromRedis(redis.url);
      expect(checkUsage(usage)).toEqual({ ok: true });
      expect(usage.drops).toEqual([{ key: "ListPods", field: "includeSavingsPlans", count: 3, clients: 2 }]);
      expect(byAgent(usage, "drops/1")[0].drops).toEqual({ ListPods: { includeSavingsPlans: 2 } });
      expect(byAgent(usage, "other/1")[0].drops).toEqual({ ListPods: { includeSavingsPlans: 1 } });
    } finally {
      for (const rig of rigs) await rig.close().catch(() => {});
      await redis.stop();
    }
  });

  it("Redis down: v1 calls still succeed and are counted; the counts reach Redis once it is back", async () => {
    const gate = await redisGate();
    const url = gate.url;
    const rig = await startRig({ sandbox: { port: 0 }, gateway: { usageStore: url, fingerprintSalt: SALT, usageFlushMs: 50 } });
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    let closed = false;
    try {
      await v1(rig.gateway.url, "sandbox_outage", "outage/1", "/pods", 5, 200);
      await new Promise((r) => setTimeout(r, 150)); // a few failed flushes
      const local = (await (await fetch(`${rig.gateway.adminUrl}/_bridge/usage`)).json()) as any;
      expect(local.totals.requests).toBe(5); // this replica's own counts while Redis is away

      redis = await startRedis(await freePort());
      gate.forwardTo(Number(new URL(redis.url).port));
      const deadline = Date.now() + 15_000;
      let shared: any;
      while (Date.now() < deadline) {
        shared = await readUsageFromRedis(url).catch(() => undefined);
        if (shared?.totals.requests === 5) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(shared?.totals.requests).toBe(5);
      await v1(rig.gateway.url, "sandbox_outage", "outage/1", "/pods", 1, 200);
      await rig.close();
      closed = true;
      expect((await readUsageFromRedis(url)).operations).toEqual([expect.objectContaining({ key: "ListPods", count: 6, clients: 1 })]);
    } finally {
      if (!closed) await rig.close();
      await gate.close();
      await redis?.stop();
    }
  });

  it("a Redis that stops answering at shutdown does not hold the drain past --drain-timeout", async () => {
    const redis = await startRedis(await freePort());
    const lines: string[] = [];
    const logger = { level: "warn", stream: { write: (line: string) => lines.push(line) } };
    // No periodic flush during the test: the last batch is the shutdown one.
    const rig = await startRig({ sandbox: { port: 0 }, gateway: { usageStore: redis.url, fingerprintSalt: SALT, usageFlushMs: 3_600_000, drainTimeoutMs: 400, logger } });
    try {
      await v1(rig.gateway.url, "sandbox_frozen", "frozen/1", "/pods", 2, 200);
      redis.pause();
      const started = Date.now();
      const closed = await Promise.race([rig.close().then(() => "closed"), new Promise<string>((r) => setTimeout(() => r("still closing"), 10_000).unref())]);
      console.log(`close() with a frozen Redis and --drain-timeout 400: ${Date.now() - started} ms (a Redis command alone times out after 2000 ms)`);
      expect(closed).toBe("closed");
      expect(lines.join("")).toMatch(/last batch not confirmed within the drain timeout/);
    } finally {
      redis.resume();
      await redis.stop();
    }
  });

  it("report --traffic redis:// with nothing listening: an input error naming the store, not its password", async () => {
    const port = await freePort();
    const failure = await loadTraffic(`redis://:hunter2secret@127.0.0.1:${port}`, { redisReader }).then(() => null, (e: Error) => e);
    expect(failure).toBeInstanceOf(ReportInputError);
    expect(failure!.message).toMatch(/^cannot read gateway usage in redis:\/\/:\*\*\*@127\.0\.0\.1:\d+.*ECONNREFUSED/);
    expect(failure!.message).not.toContain("hunter2secret");
  });
});
