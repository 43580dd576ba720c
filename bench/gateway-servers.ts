// Servers for bench/gateway.ts, one role per child process so the load generator, the upstream
// and the proxy under test do not share an event loop: `tsx bench/gateway-servers.ts <role> [upstream]`.
// Reports `READY <url>` when listening (IPC message when spawned with an IPC channel, else stdout);
// exits on SIGTERM. The gateway logs like a production `--log` deployment (pino, info, one line per
// request) unless BENCH_GATEWAY_LOG=off.
import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import httpProxy from "http-proxy";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// BENCH_STATS=1 (bench/gateway-inplace.ts): GC counts and pause time by kind (perf_hooks) and, in
// proxy-floor, the wall and CPU time spent inside its log line, answered to a "stats" IPC message and
// reset. BENCH_STATS_LOOP=1 also calls the line 100 times in a row every 100 ms with the last request,
// timed apart: the same function hot in a loop, in the same process under the same load
// (docs/performance.md, session 34).
const STATS = process.env.BENCH_STATS === "1";
const STATS_LOOP = process.env.BENCH_STATS_LOOP === "1";
const stats = { loops: 0, loopMs: 0, lines: 0, lineMs: 0, lineCpuMs: 0, gc: {} as Record<string, { n: number; ms: number }> };
if (STATS) {
  const { PerformanceObserver, constants } = await import("node:perf_hooks");
  const kinds: Record<number, string> = { [constants.NODE_PERFORMANCE_GC_MINOR]: "minor", [constants.NODE_PERFORMANCE_GC_MAJOR]: "major", [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental", [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb" };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = kinds[(e as any).detail?.kind] ?? "other";
      const k = (stats.gc[kind] ??= { n: 0, ms: 0 });
      k.n++;
      k.ms += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
}

// BENCH_LOOP=1 (bench/moderate-tail.ts): every event-loop gap over 4 ms, seen by a 1 ms ticker, with
// the process's CPU time and the GC time inside it, and the main thread's run and run-queue wait
// (/proc schedstat); "loop-reset" starts over, "loop" is answered with them.
const LOOP = process.env.BENCH_LOOP === "1";
const loop = { gaps: [] as [number, number, number, number][], gc: [] as [number, number][], sched: [0, 0], since: 0 };
if (LOOP) {
  const { PerformanceObserver } = await import("node:perf_hooks");
  const { readFileSync } = await import("node:fs");
  const sched = () => readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) loop.gc.push([e.startTime, e.startTime + e.duration]);
  }).observe({ entryTypes: ["gc"] });
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    if (now - last > 4) {
      let inGc = 0;
      for (const [a, b] of loop.gc) if (b > last && a < now) inGc += Math.min(b, now) - Math.max(a, last);
      const cpuMs = (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000;
      loop.gaps.push([performance.timeOrigin + last, performance.timeOrigin + now, cpuMs, inGc]);
    }
    last = now;
    lastCpu = cpu;
  }, 1).unref();
  process.on("message", (m) => {
    if (m === "loop-reset") {
      loop.gaps = [];
      loop.gc = [];
      loop.sched = sched();
      loop.since = performance.now();
      process.send?.("loop-ok");
    } else if (m === "loop") {
      const [run, wait] = sched();
      const seconds = (performance.now() - loop.since) / 1000;
      process.send?.("loop " + JSON.stringify({ gaps: loop.gaps, runMsPerS: (run! - loop.sched[0]!) / 1e6 / seconds, waitMsPerS: (wait! - loop.sched[1]!) / 1e6 / seconds }));
    }
  });
}

const POD = {
  id: "pod_bench1", name: "bench", status: "RUNNING", actions: ["stop", "restart", "terminate"], image: "runpod/pytorch:2", args: "", disk: 50,
  mounts: { persistent: { size: 20, path: "/workspace" } }, ports: ["8888/http", "22/tcp"], env: { A: "1" }, registry: null, cloud: "SECURE",
  dataCenterId: "EU-RO-1", cudaVersion: "12.8", ssh: { proxy: null, direct: null }, template: null, cost: 0.44, locked: false, runtime: null,
  createdAt: "2026-06-01T12:00:00Z", startedAt: "2026-06-01T12:00:00Z", globalNetworking: { enabled: false }, gpu: { id: "NVIDIA RTX A5000", count: 1 },
};
const LIST = JSON.stringify({ pods: Array.from({ length: 10 }, (_, i) => ({ ...POD, id: `pod_bench${i}` })) });
const ONE = JSON.stringify(POD);

async function listen(server: http.Server): Promise<string> {
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The built-in sandbox's GPU and CPU catalog answers, for the gateway's catalog lookups (GPU details
 * on pod records): answering them with the pod list made every lookup fail, so each list and create
 * also sent two catalog requests and carried a "lookup failed" warning, and the bench measured that.
 */
async function catalogAnswers(): Promise<Map<string, string>> {
  const { buildSandboxApp }: typeof import("../sandbox/server.ts") = await import("../sandbox/server.ts");
  const { app } = buildSandboxApp({});
  const out = new Map<string, string>();
  for (const p of ["/v2/catalog/gpus", "/v2/catalog/cpus"]) {
    const r = await app.inject({ method: "GET", url: p, headers: { authorization: "Bearer sandbox_bench" } });
    if (r.statusCode !== 200) throw new Error(`sandbox catalog ${p} answered ${r.statusCode}`);
    out.set(p, r.body);
  }
  await app.close();
  return out;
}

const [role, upstreamUrl] = process.argv.slice(2);
let url: string;
if (role === "upstream") {
  const catalog = await catalogAnswers();
  url = await listen(
    http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const headers = { "content-type": "application/json", RateLimit: '"minute";r=599;t=60', "RateLimit-Policy": '"minute";q=600;w=60' };
        const known = req.method === "GET" ? catalog.get(req.url!) : undefined;
        if (known !== undefined) res.writeHead(200, headers).end(known);
        else if (req.method === "GET") res.writeHead(200, headers).end(LIST);
        else if (req.method === "POST" && req.url === "/v2/pods") res.writeHead(201, headers).end(ONE);
        else res.writeHead(200, headers).end(ONE);
      });
    }),
  );
} else if (role === "proxy") {
  const proxy = httpProxy.createProxyServer({ target: upstreamUrl, agent: new http.Agent({ keepAlive: true, maxSockets: 64 }) });
  proxy.on("error", () => {});
  url = await listen(http.createServer((req, res) => proxy.web(req, res)));
} else if (role === "proxy-in-gateway") {
  // The plain proxy served by a process that has also started the compiled gateway (unused): the
  // same per-request code as "proxy" in a process of the gateway's size, to tell the cost of a
  // larger heap and more loaded code apart from the gateway's own per-request work.
  const { startGateway }: typeof import("../gateway/server.ts") = await import(path.join(ROOT, "dist/gateway/server.js"));
  await startGateway({ upstream: upstreamUrl!, port: 0, logger: false });
  const proxy = httpProxy.createProxyServer({ target: upstreamUrl, agent: new http.Agent({ keepAlive: true, maxSockets: 64 }) });
  proxy.on("error", () => {});
  url = await listen(http.createServer((req, res) => proxy.web(req, res)));
} else if (role === "proxy-floor") {
  // The plain proxy plus only what the pass-through must do for each request, written as directly
  // as it can be: a request id both ways, hop-by-hop headers removed both ways, the answer counted,
  // and one "request completed" line through the gateway's own pino writer to the log file. Its CPU
  // a request is the floor the gateway's pass-through is measured against (docs/performance.md).
  const { default: pino } = await import("pino");
  const { loggerOption } = await import("../gateway/observability/logging.ts");
  const { requestLineWriter } = await import("../gateway/observability/request-line.ts");
  const { hopByHopHeaders } = await import("../gateway/upstream/hop-by-hop.ts");
  const { requestIdOf } = await import("../gateway/observability/request-id.ts");
  const { GatewayMetrics } = await import("../gateway/observability/metrics.ts");
  const { stream, ...options } = loggerOption(true) as { stream: NodeJS.WritableStream } & Record<string, unknown>;
  if ((process.env.FLOOR_OFF ?? "").split(",").includes("write")) (stream as any).write = () => true;
  const log = pino(options, stream as never);
  const line = requestLineWriter(log as never)!;
  if (!line) throw new Error("the fast log line writer refused the bench logger");
  const metrics = new GatewayMetrics();
  const ID = Symbol("id");
  const off = (part: string) => (process.env.FLOOR_OFF ?? "").split(",").includes(part);
  const [noLog, noId, noHop, noCount] = ["log", "id", "hop", "count"].map(off);
  const proxy = httpProxy.createProxyServer({ target: upstreamUrl, changeOrigin: true, agent: new http.Agent({ keepAlive: true, maxSockets: 64 }) });
  proxy.on("error", () => {});
  if (!noHop || !noId) proxy.on("proxyReq", (proxyReq, req) => {
    if (!noHop) for (const name of hopByHopHeaders(req.headers)) if (req.headers[name] !== undefined) proxyReq.removeHeader(name);
    if (!noId) proxyReq.setHeader("x-request-id", (req as any)[ID]);
  });
  if (!noHop) proxy.on("proxyRes", (proxyRes) => {
    const headers = proxyRes.headers;
    for (const name of hopByHopHeaders(headers)) if (headers[name] !== undefined) headers[name] = undefined;
    headers.connection = "keep-alive";
  });
  let lastReq: http.IncomingMessage | undefined;
  if (STATS_LOOP) setInterval(() => {
    if (!lastReq) return;
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) line("loop-id", lastReq, 200, 1.5);
    stats.loopMs += performance.now() - t0;
    stats.loops += 100;
  }, 100).unref();
  url = await listen(
    http.createServer((req, res) => {
      const started = performance.now();
      const id = noId ? "-" : requestIdOf(req);
      if (!noId) {
        (req as any)[ID] = id;
        res.setHeader("x-request-id", id);
      }
      if (!noLog || !noCount)
        res.on("finish", () => {
          if (!noCount) metrics.countPassthrough(res.statusCode);
          if (!noLog) {
            if (STATS) {
              const c0 = process.cpuUsage();
              const t0 = performance.now();
              line(id, req, res.statusCode, t0 - started);
              stats.lineMs += performance.now() - t0;
              const c1 = process.cpuUsage(c0);
              stats.lineCpuMs += (c1.user + c1.system) / 1000;
              lastReq = req;
              stats.lines++;
            } else line(id, req, res.statusCode, performance.now() - started);
          }
        });
      proxy.web(req, res);
    }),
  );
} else if (role === "gateway" || role === "gateway-dist") {
  // gateway-dist: the compiled package (`npm run build`), which is what an installed gateway runs;
  // `gateway` runs the sources through tsx (as `npm start` does), whose transform adds a
  // `__name(fn, …)` call to every function created per request.
  const { startGateway }: typeof import("../gateway/server.ts") = await import(role === "gateway" ? "../gateway/server.ts" : path.join(ROOT, "dist/gateway/server.js"));
  url = (await startGateway({ upstream: upstreamUrl!, port: 0, logger: process.env.BENCH_GATEWAY_LOG !== "off" })).url;
} else {
  throw new Error(`unknown role ${role}`);
}
// bench/profile-gateway.ts profiles only the load, not the start-up: "profile-start", then
// "profile-stop <file>" over IPC (answered "profile-written").
let session: import("node:inspector/promises").Session | undefined;
process.on("message", async (m) => {
  const [command, file] = String(m).split(" ");
  if (command === "stats") {
    process.send?.("stats " + JSON.stringify({ ...stats, heapUsed: process.memoryUsage().heapUsed }));
    stats.lines = 0;
    stats.lineMs = 0;
    stats.loops = 0;
    stats.loopMs = 0;
    stats.lineCpuMs = 0;
    stats.gc = {};
  } else if (command === "profile-start") {
    const { Session } = await import("node:inspector/promises");
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
    process.send?.("profile-started");
  } else if (command === "profile-stop" && session && file) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    process.send?.("profile-written");
  }
});
if (process.send) process.send(`READY ${url}`);
else console.log(`READY ${url}`);
process.on("SIGTERM", () => process.exit(0));
