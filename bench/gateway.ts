// `npm run bench:gateway`: loopback throughput and latency of the gateway against a minimal fast
// upstream (canned v2 JSON), compared with going direct and with a plain http-proxy pass-through.
// Two loads per case: saturation (fixed connections, as fast as possible) and moderate (an evenly
// paced rate at half of what the slower of plain proxy and gateway sustained, so that neither is
// overloaded; paced-load.ts says why not autocannon's overallRate).
// Besides latency it reports each server's CPU time per request, which varies less than req/s
// when the machine is shared.
// Bounded: a few seconds per run. Env: BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS,
// BENCH_ROUNDS (median of n rounds), BENCH_GATEWAY_LOG=off (default: info, as with `--log`).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";
import { pacedLoad } from "./paced-load.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Moderate load: this share of the saturated throughput of the slower of plain proxy and gateway v1→v2. */
const MODERATE = 0.5;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "v2-bridge-bench-"));

interface Role {
  url: string;
  pid: number;
}

/** Starts one server role in its own process (see gateway-servers.ts); its stdout (the gateway's log) goes to a file. */
function startRole(role: string, upstream?: string): Promise<Role> {
  const log = fs.openSync(path.join(logDir, `${role}.log`), "w");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(HERE, "gateway-servers.ts"), role, ...(upstream ? [upstream] : [])], {
    stdio: ["ignore", log, "inherit", "ipc"],
  });
  fs.closeSync(log);
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start`)), 20_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve({ url: String(m).replace(/^READY /, ""), pid: child.pid! });
    });
    child.on("exit", (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

/** User + system CPU time of a process in µs (Linux /proc; 100 Hz clock ticks). NaN elsewhere. */
function cpuMicros(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  bad: number;
}

/** Percentile of raw response times (autocannon's own histogram rounds to whole milliseconds). */
function percentile(sorted: Float64Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

const HEADERS = { authorization: "Bearer bench_key", "content-type": "application/json" };

/** Saturation: autocannon, CONNECTIONS connections, each sending its next request as soon as an answer arrives. */
function run(target: Role, method: string, urlPath: string, body: string | undefined, duration: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const cpuBefore = cpuMicros(target.pid);
    const instance = autocannon({ url: target.url + urlPath, method, body, connections: CONNECTIONS, duration, headers: HEADERS }, (err: Error | null, r: any) => {
      if (err) return reject(err);
      const sorted = Float64Array.from(times).sort();
      resolve({
        rps: r.requests.average,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        cpuPerRequest: (cpuMicros(target.pid) - cpuBefore) / Math.max(1, r.requests.total),
        bad: r.errors + r.non2xx + r.timeouts,
      });
    });
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime));
  });
}

/** Moderate load: evenly paced requests at `rate` per second. */
async function paced(target: Role, method: string, urlPath: string, body: string | undefined, rate: number): Promise<Result> {
  const cpuBefore = cpuMicros(target.pid);
  const r = await pacedLoad({ origin: target.url, method, path: urlPath, body, headers: HEADERS, rate, seconds: DURATION, warmupSeconds: WARMUP });
  return { rps: r.rps, p50: percentile(r.latencies, 50), p99: percentile(r.latencies, 99), cpuPerRequest: (cpuMicros(target.pid) - cpuBefore) / Math.max(1, r.latencies.length), bad: r.errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function medianResult(rs: Result[]): Result {
  return { rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), cpuPerRequest: median(rs.map((r) => r.cpuPerRequest)), bad: rs.reduce((a, r) => a + r.bad, 0) };
}

async function main() {
  const upstream = await startRole("upstream");
  const proxy = await startRole("proxy", upstream.url);
  const gateway = await startRole("gateway", upstream.url);

  const cases = [
    { label: "list", v2: ["GET", "/v2/pods"], v1: ["GET", "/v1/pods"] },
    { label: "create", v2: ["POST", "/v2/pods", JSON.stringify({ name: "b", image: "i", gpu: { id: "NVIDIA RTX A5000", count: 1 } })], v1: ["POST", "/v1/pods", JSON.stringify({ name: "b", imageName: "i", gpuTypeIds: ["NVIDIA RTX A5000"] })] },
    { label: "action", v2: ["POST", "/v2/pods/pod_bench1/action", JSON.stringify({ action: "start" })], v1: ["POST", "/v1/pods/pod_bench1/start"] },
  ] as const;

  type Row = Record<"direct" | "proxy" | "gatewayV2" | "gateway" | "proxyModerate" | "gatewayModerate", Result> & { rate: number };
  const rounds: Record<string, Row[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const [m2, p2, b2] = c.v2 as readonly [string, string, string?];
      const [m1, p1, b1] = c.v1 as readonly [string, string, string?];
      const targets = { direct: [upstream, m2, p2, b2], proxy: [proxy, m2, p2, b2], gatewayV2: [gateway, m2, p2, b2], gateway: [gateway, m1, p1, b1] } as const;
      const row = {} as Row;
      // Each target is warmed up (JIT, connection pools) right before it is measured.
      for (const [name, [t, m, p, b]] of Object.entries(targets)) {
        await run(t, m, p, b, WARMUP);
        row[name as keyof typeof targets] = await run(t, m, p, b, DURATION);
      }
      row.rate = Math.round(Math.min(row.proxy.rps, row.gateway.rps) * MODERATE);
      row.proxyModerate = await paced(proxy, m2, p2, b2, row.rate);
      row.gatewayModerate = await paced(gateway, m1, p1, b1, row.rate);
      (rounds[c.label] ??= []).push(row);
    }
  }

  const cpu = os.cpus();
  console.log(
    `\nGateway benchmark: Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model ?? "?"}), load average before start ${os.loadavg()[0]!.toFixed(1)}; ` +
      `${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up, ${ROUNDS} round(s) (median), loopback, one process per server; gateway log: ${process.env.BENCH_GATEWAY_LOG === "off" ? "off" : "info"}\n`,
  );
  const ms = (x: number) => x.toFixed(2);
  console.log("Saturation:\n\n| case | target | req/s | p50 ms | p99 ms | server CPU µs/req | errors |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  const labels = { direct: "direct to upstream", proxy: "plain http-proxy", gatewayV2: "gateway /v2 pass-through", gateway: "gateway v1→v2" } as const;
  const med: Record<string, Record<string, Result> & { rate: number }> = {};
  for (const [label, rows] of Object.entries(rounds)) {
    const m = (med[label] = { rate: median(rows.map((r) => r.rate)) } as any);
    for (const k of ["direct", "proxy", "gatewayV2", "gateway", "proxyModerate", "gatewayModerate"] as const) m[k] = medianResult(rows.map((r) => r[k]));
    for (const k of ["direct", "proxy", "gatewayV2", "gateway"] as const) {
      const x = m[k] as Result;
      console.log(`| ${label} | ${labels[k]} | ${Math.round(x.rps)} | ${ms(x.p50)} | ${ms(x.p99)} | ${Math.round(x.cpuPerRequest)} | ${x.bad} |`);
    }
  }
  console.log(`\nModerate load (${MODERATE * 100}% of the saturated req/s of the slower of plain http-proxy and gateway v1→v2, evenly paced):\n\n| case | req/s | target | p50 ms | p99 ms | server CPU µs/req | errors |`);
  console.log("|---|---:|---|---:|---:|---:|---:|");
  for (const [label, m] of Object.entries(med)) {
    for (const [name, x] of [["plain http-proxy", m.proxyModerate!], ["gateway v1→v2", m.gatewayModerate!]] as const) {
      console.log(`| ${label} | ${m.rate} | ${name} | ${ms(x.p50)} | ${ms(x.p99)} | ${Math.round(x.cpuPerRequest)} | ${x.bad} |`);
    }
  }
  console.log("\n| case | gateway v1→v2 / http-proxy throughput | added p99, saturation (ms) | added p99, moderate (ms) | gateway / proxy CPU per request |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [label, m] of Object.entries(med)) {
    console.log(
      `| ${label} | ${((m.gateway!.rps / m.proxy!.rps) * 100).toFixed(1)}% | ${ms(m.gateway!.p99 - m.proxy!.p99)} | ${ms(m.gatewayModerate!.p99 - m.proxyModerate!.p99)} | ${(m.gateway!.cpuPerRequest / m.proxy!.cpuPerRequest).toFixed(2)} |`,
    );
  }
}

try {
  await main();
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  fs.rmSync(logDir, { recursive: true, force: true });
}
