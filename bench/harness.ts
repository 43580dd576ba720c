// Shared pieces of the gateway benchmarks: server roles in their own processes, CPU time per
// request from /proc, autocannon runs with raw latencies, and the three bench cases.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface Role {
  url: string;
  pid: number;
  child: ChildProcess;
}

/**
 * Starts one server role (bench/gateway-servers.ts) of checkout `root` in its own process; its
 * stdout (the gateway's log) goes to `logFile`; READY arrives over IPC.
 */
export function startRole(role: string, opts: { upstream?: string; logFile: string; root?: string; nodeArgs?: string[]; env?: NodeJS.ProcessEnv }): Promise<Role> {
  const root = opts.root ?? path.resolve(HERE, "..");
  const log = fs.openSync(opts.logFile, "w");
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--import", "tsx", path.join(root, "bench/gateway-servers.ts"), role, ...(opts.upstream ? [opts.upstream] : [])], {
    cwd: root,
    stdio: ["ignore", log, "inherit", "ipc"],
    env: opts.env ?? process.env,
  });
  fs.closeSync(log);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start`)), 30_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve({ url: String(m).replace(/^READY /, ""), pid: child.pid!, child });
    });
    child.once("exit", (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

/** User + system CPU time of a process in µs (Linux /proc; 100 Hz clock ticks). NaN elsewhere. */
export function cpuMicros(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/**
 * Time the main thread of process `pid` has spent runnable but waiting for a CPU, in ms (Linux
 * /proc/<pid>/task/<pid>/schedstat, second field, ns). NaN elsewhere. Over a latency run it tells a
 * tail made by the scheduler (the process was ready and not running) from one the process made.
 */
export function runQueueWaitMs(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Percentile of sorted raw response times (autocannon's own histogram rounds to whole milliseconds). */
export function percentile(sorted: Float64Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const HEADERS = { authorization: "Bearer bench_key", "content-type": "application/json" };

export interface Request {
  method: string;
  path: string;
  body?: string;
}

export interface Run {
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  bad: number;
  /** Moderate load only: ms per second the server's main thread waited for a CPU (runQueueWaitMs), and the load generator's. */
  serverWaitMsPerS?: number;
  clientWaitMsPerS?: number;
}

/** Saturation: autocannon, `connections` connections, each sending its next request as soon as an answer arrives. */
export function saturate(target: Role, req: Request, seconds: number, connections = 10): Promise<Run> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const cpuBefore = cpuMicros(target.pid);
    const instance = autocannon({ url: target.url + req.path, method: req.method, body: req.body, connections, duration: seconds, headers: HEADERS }, (err: Error | null, r: any) => {
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

/** The bench cases: the same operation asked of v2 (plain proxy, pass-through) and of v1 (translated). */
export const CASES: { label: string; v2: Request; v1: Request }[] = [
  { label: "list", v2: { method: "GET", path: "/v2/pods" }, v1: { method: "GET", path: "/v1/pods" } },
  {
    label: "create",
    v2: { method: "POST", path: "/v2/pods", body: JSON.stringify({ name: "b", image: "i", gpu: { id: "NVIDIA RTX A5000", count: 1 } }) },
    v1: { method: "POST", path: "/v1/pods", body: JSON.stringify({ name: "b", imageName: "i", gpuTypeIds: ["NVIDIA RTX A5000"] }) },
  },
  { label: "action", v2: { method: "POST", path: "/v2/pods/pod_bench1/action", body: JSON.stringify({ action: "start" }) }, v1: { method: "POST", path: "/v1/pods/pod_bench1/start" } },
];
