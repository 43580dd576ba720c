// `npm run bench:gateway`: loopback throughput, CPU per request and latency of the gateway against a
// minimal fast upstream (canned v2 JSON), each figure set against a plain http-proxy in the same run.
// Upstream, plain proxy and gateway each run in their own process; this one drives the load.
// Runs are interleaved (proxy, gateway /v2, gateway /v1, proxy, …) so that other work on a shared
// machine hits all of them alike; medians over the rounds are reported, the ratios against the
// proxy are medians of per-round ratios (runs next to each other share the moment's load), and the
// proxy's own spread shows how noisy the machine was. The gateway is the compiled build.
// - saturation: autocannon, 10 connections, each sending its next request when an answer arrives;
// - moderate: evenly paced requests (paced-load.ts) at 50% of the saturated req/s of the slower of
//   plain proxy and gateway v1→v2, proxy and gateway interleaved;
// - JSON floor: CPU time (this process, warm loop) to parse and serialise the bodies a translated
//   request carries: v1 body in, v2 body out, v2 answer in, v1 answer out (whichever exist).
// Every target first runs every case for BENCH_WARMUP_SECONDS: V8 keeps optimising the gateway's
// code (far more of it than the proxy's) for several seconds, on its background threads, and that
// work counted as CPU per request would swamp the steady-state figures.
// Bounded: about three minutes by default. Env: BENCH_SECONDS (per run, default 2), BENCH_WARMUP_SECONDS (4),
// BENCH_ROUNDS (saturation rounds, 3), BENCH_MODERATE_ROUNDS (2), BENCH_CONNECTIONS (10),
// BENCH_GATEWAY_LOG=off (default: info, as with `--log`), BENCH_GATEWAY_BUILD=tsx (the sources).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CASES, HEADERS, cpuMicros, median, percentile, runQueueWaitMs, saturate, startRole, type Request, type Role, type Run } from "./harness.ts";
import { pacedLoad } from "./paced-load.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODERATE_ROUNDS = Number(process.env.BENCH_MODERATE_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const MODERATE = 0.5;
// Paced requests come from another client (undici, its own header set) than the saturation runs
// (autocannon): V8 re-optimises the gateway's code for the new request shape, and its first 1–2 s
// answer POSTs tens to hundreds of ms late (the proxy's first ~0.9 s too). Not recorded.
const PACED_WARMUP = 3;
// The compiled package by default (what an installed gateway runs; npm run bench:gateway builds it
// first); BENCH_GATEWAY_BUILD=tsx runs the sources through tsx instead, as `npm start` does.
const GATEWAY_ROLE = process.env.BENCH_GATEWAY_BUILD === "tsx" ? "gateway" : "gateway-dist";
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "v2-bridge-bench-"));
const roles: Role[] = [];

async function role(name: string, upstream?: string): Promise<Role> {
  const r = await startRole(name, { upstream, logFile: path.join(logDir, `${name}.log`) });
  roles.push(r);
  return r;
}

/**
 * Moderate load: evenly paced requests at `rate` per second. Also the time the server's and this
 * process's main threads spent waiting for a CPU (warm-up included): on 2 cores that wait, not the
 * server's own work, made the p99 tail of session 38's runs (docs/performance.md).
 */
async function paced(target: Role, req: Request, rate: number): Promise<Run> {
  const cpuBefore = cpuMicros(target.pid);
  const waitBefore = [runQueueWaitMs(target.pid), runQueueWaitMs(process.pid)];
  const started = performance.now();
  const r = await pacedLoad({ origin: target.url, method: req.method, path: req.path, body: req.body, headers: HEADERS, rate, seconds: DURATION + 1, warmupSeconds: PACED_WARMUP });
  const perS = (ms: number) => ms / ((performance.now() - started) / 1000);
  return {
    rps: r.rps,
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    cpuPerRequest: (cpuMicros(target.pid) - cpuBefore) / Math.max(1, r.latencies.length),
    bad: r.errors,
    serverWaitMsPerS: perS(runQueueWaitMs(target.pid) - waitBefore[0]!),
    clientWaitMsPerS: perS(runQueueWaitMs(process.pid) - waitBefore[1]!),
  };
}

/** CPU µs (this process) per call of `fn`, best of five batches. */
function cpuPerCall(fn: () => unknown, n = 2_000): number {
  for (let i = 0; i < n; i++) fn();
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / n);
  }
  return best;
}

async function text(url: string, req: Request): Promise<string> {
  const res = await fetch(url + req.path, { method: req.method, body: req.body, headers: HEADERS });
  return res.text();
}

/** The JSON work a translated request inherently carries: parse each body that arrives, serialise each that leaves. */
async function jsonFloor(upstream: Role, gateway: Role, c: (typeof CASES)[number]): Promise<number> {
  // In: the v1 request body and the v2 answer; out: the v2 request body and the v1 answer.
  const arriving = [c.v1.body, await text(upstream.url, c.v2)].filter((b): b is string => !!b);
  const leaving = [c.v2.body, await text(gateway.url, c.v1)].filter((b): b is string => !!b).map((b) => JSON.parse(b));
  return cpuPerCall(() => {
    for (let i = 0; i < arriving.length; i++) JSON.parse(arriving[i]!);
    for (let i = 0; i < leaving.length; i++) JSON.stringify(leaving[i]);
  });
}

type Target = "proxy" | "gatewayV2" | "gateway";
const LABELS: Record<Target, string> = { proxy: "plain http-proxy", gatewayV2: "gateway /v2 pass-through", gateway: "gateway v1→v2" };

function summary(runs: Run[]): Run & { cpuMin: number; rpsMin: number; rpsMax: number } {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuPerRequest: median(runs.map((r) => r.cpuPerRequest)),
    cpuMin: Math.min(...runs.map((r) => r.cpuPerRequest)),
    rpsMin: Math.min(...runs.map((r) => r.rps)),
    rpsMax: Math.max(...runs.map((r) => r.rps)),
    bad: runs.reduce((a, r) => a + r.bad, 0),
    serverWaitMsPerS: median(runs.map((r) => r.serverWaitMsPerS ?? NaN)),
    clientWaitMsPerS: median(runs.map((r) => r.clientWaitMsPerS ?? NaN)),
  };
}

async function main() {
  const loadBefore = os.loadavg()[0]!;
  const upstream = await role("upstream");
  const proxy = await role("proxy", upstream.url);
  const gateway = await role(GATEWAY_ROLE, upstream.url);
  const results = [];
  for (const c of CASES) for (const [t, req] of [[proxy, c.v2], [gateway, c.v2], [gateway, c.v1]] as const) await saturate(t, req, WARMUP, CONNECTIONS);
  for (const c of CASES) {
    const targets: [Target, Role, Request][] = [
      ["proxy", proxy, c.v2],
      ["gatewayV2", gateway, c.v2],
      ["gateway", gateway, c.v1],
    ];
    for (const [, t, req] of targets) await saturate(t, req, 1, CONNECTIONS);
    const runs: Record<Target, Run[]> = { proxy: [], gatewayV2: [], gateway: [] };
    for (let round = 0; round < ROUNDS; round++) for (const [name, t, req] of targets) runs[name].push(await saturate(t, req, DURATION, CONNECTIONS));
    const direct = await saturate(upstream, c.v2, DURATION, CONNECTIONS);
    const sat = { proxy: summary(runs.proxy), gatewayV2: summary(runs.gatewayV2), gateway: summary(runs.gateway) };
    const rate = Math.round(Math.min(sat.proxy.rps, sat.gateway.rps) * MODERATE);
    const moderate: Record<"proxy" | "gateway", Run[]> = { proxy: [], gateway: [] };
    for (let round = 0; round < MODERATE_ROUNDS; round++) {
      moderate.proxy.push(await paced(proxy, c.v2, rate));
      moderate.gateway.push(await paced(gateway, c.v1, rate));
    }
    // Ratios of runs next to each other in a round (the same moment's load on the machine), then their median.
    const perRound = (f: (i: number) => number) => median(runs.proxy.map((_, i) => f(i)));
    const ratios = {
      v2: perRound((i) => runs.gatewayV2[i]!.rps / runs.proxy[i]!.rps),
      v1: perRound((i) => runs.gateway[i]!.rps / runs.proxy[i]!.rps),
      extraCpu: perRound((i) => runs.gateway[i]!.cpuPerRequest - runs.proxy[i]!.cpuPerRequest),
    };
    results.push({ label: c.label, direct, sat, rate, ratios, moderate: { proxy: summary(moderate.proxy), gateway: summary(moderate.gateway) }, json: await jsonFloor(upstream, gateway, c) });
  }

  const cpu = os.cpus();
  const ms = (x: number) => x.toFixed(2);
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  console.log(
    `\nGateway benchmark: Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model ?? "?"}), load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after; ` +
      `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION} s (medians) after ${WARMUP} s warm-up; loopback, one process per server; gateway ${GATEWAY_ROLE === "gateway" ? "sources through tsx" : "compiled build"}, log: ${process.env.BENCH_GATEWAY_LOG === "off" ? "off" : "info"}\n`,
  );
  console.log("Saturation:\n\n| case | target | req/s (min–max) | p50 ms | p99 ms | server CPU µs/req (min) | errors |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(`| ${r.label} | direct to upstream | ${Math.round(r.direct.rps)} | ${ms(r.direct.p50)} | ${ms(r.direct.p99)} | ${Math.round(r.direct.cpuPerRequest)} | ${r.direct.bad} |`);
    for (const k of ["proxy", "gatewayV2", "gateway"] as const) {
      const x = r.sat[k];
      console.log(`| ${r.label} | ${LABELS[k]} | ${Math.round(x.rps)} (${Math.round(x.rpsMin)}–${Math.round(x.rpsMax)}) | ${ms(x.p50)} | ${ms(x.p99)} | ${Math.round(x.cpuPerRequest)} (${Math.round(x.cpuMin)}) | ${x.bad} |`);
    }
  }
  console.log(`\nModerate load (${MODERATE * 100}% of the slower of plain http-proxy and gateway v1→v2, evenly paced, ${MODERATE_ROUNDS} interleaved rounds):\n`);
  console.log("| case | req/s | proxy p50 / p99 ms | gateway v1→v2 p50 / p99 ms | added p50 / p99 ms | waited for a CPU, ms/s: proxy / gateway (load generator) | errors |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  const wait = (x: Run) => x.serverWaitMsPerS!.toFixed(0);
  for (const r of results) {
    const { proxy: p, gateway: g } = r.moderate;
    console.log(`| ${r.label} | ${r.rate} | ${ms(p.p50)} / ${ms(p.p99)} | ${ms(g.p50)} / ${ms(g.p99)} | ${ms(g.p50 - p.p50)} / ${ms(g.p99 - p.p99)} | ${wait(p)} (${p.clientWaitMsPerS!.toFixed(0)}) / ${wait(g)} (${g.clientWaitMsPerS!.toFixed(0)}) | ${p.bad + g.bad} |`);
  }
  console.log("\n(waited for a CPU: time each main thread was runnable but not running, /proc schedstat; the server's over its paced run, the load generator's in brackets.)");
  console.log("\nAgainst the plain http-proxy, medians of the per-round ratios (goals: pass-through ≥ 90% of its req/s; v1→v2 ≥ 85%, CPU ≤ proxy + JSON + 20 µs, added p99 at moderate load ≤ 2 ms):\n");
  console.log("| case | /v2 pass-through req/s | v1→v2 req/s | JSON floor µs | v1→v2 CPU − (proxy + JSON) µs | added p99, moderate (ms) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const v2Share = r.ratios.v2;
    const v1Share = r.ratios.v1;
    const extraCpu = r.ratios.extraCpu - r.json;
    const addedP99 = r.moderate.gateway.p99 - r.moderate.proxy.p99;
    console.log(`| ${r.label} | ${pct(v2Share)} ${mark(v2Share >= 0.9)} | ${pct(v1Share)} ${mark(v1Share >= 0.85)} | ${r.json.toFixed(1)} | ${extraCpu.toFixed(0)} ${mark(extraCpu <= 20)} | ${ms(addedP99)} ${mark(addedP99 <= 2)} |`);
  }
  const spread = results.map((r) => `${r.label} ${Math.round((r.sat.proxy.rpsMax / r.sat.proxy.rpsMin - 1) * 100)}%`).join(", ");
  console.log(`\nNoise: the plain proxy's req/s varied between rounds by ${spread} (max/min − 1).`);
}

try {
  await main();
} finally {
  for (const r of roles) if (r.child.exitCode === null) r.child.kill("SIGTERM");
  fs.rmSync(logDir, { recursive: true, force: true });
}
