// `npm run bench:gateway`: loopback throughput and latency of the gateway against a minimal fast
// upstream (canned v2 JSON), compared with going direct and with a plain http-proxy pass-through.
// Bounded: a few seconds per case. Prints a table and the gateway/pass-through ratios.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";

const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];

/** Starts one server role in its own process (see gateway-servers.ts) and waits for its URL. */
function startRole(role: string, upstream?: string): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(HERE, "gateway-servers.ts"), role, ...(upstream ? [upstream] : [])], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start`)), 20_000);
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function run(name: string, url: string, method: string, body?: string, duration = DURATION): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method,
        body,
        connections: CONNECTIONS,
        duration,
        headers: { authorization: "Bearer bench_key", "content-type": "application/json" },
      },
      (err: Error | null, r: any) => {
        if (err) return reject(err);
        resolve({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
      },
    );
  });
}

async function main() {
  const upstreamUrl = await startRole("upstream");
  const proxyUrl = await startRole("proxy", upstreamUrl);
  const gatewayUrl = await startRole("gateway", upstreamUrl);
  const gateway = { url: gatewayUrl };

  const cases = [
    { label: "list", v2: ["GET", "/v2/pods"], v1: ["GET", "/v1/pods"] },
    { label: "create", v2: ["POST", "/v2/pods", JSON.stringify({ name: "b", image: "i", gpu: { id: "NVIDIA RTX A5000", count: 1 } })], v1: ["POST", "/v1/pods", JSON.stringify({ name: "b", imageName: "i", gpuTypeIds: ["NVIDIA RTX A5000"] })] },
    { label: "action", v2: ["POST", "/v2/pods/pod_bench1/action", JSON.stringify({ action: "start" })], v1: ["POST", "/v1/pods/pod_bench1/start"] },
  ] as const;

  const results: Record<string, Record<string, Result>> = {};
  for (const c of cases) {
    const [m2, p2, b2] = c.v2 as readonly [string, string, string?];
    const [m1, p1, b1] = c.v1 as readonly [string, string, string?];
    // Warm-up (JIT, connection pools) before each measured case.
    for (const [u, m, p, b] of [[upstreamUrl, m2, p2, b2], [proxyUrl, m2, p2, b2], [gateway.url, m2, p2, b2], [gateway.url, m1, p1, b1]] as const) await run("warmup", u + p, m, b, WARMUP);
    results[c.label] = {
      direct: await run(`${c.label}: direct`, upstreamUrl + p2, m2, b2),
      proxy: await run(`${c.label}: http-proxy`, proxyUrl + p2, m2, b2),
      gatewayV2: await run(`${c.label}: gateway /v2 pass-through`, gateway.url + p2, m2, b2),
      gateway: await run(`${c.label}: gateway v1→v2`, gateway.url + p1, m1, b1),
    };
  }

  console.log(`\nGateway benchmark: Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${CONNECTIONS} connections, ${DURATION} s per case after ${WARMUP} s warm-up, loopback, one process per server\n`);
  console.log("| case | target | req/s | p50 ms | p99 ms | errors/non-2xx |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const [label, r] of Object.entries(results)) {
    for (const [target, x] of Object.entries(r)) {
      console.log(`| ${label} | ${target} | ${Math.round(x.rps)} | ${x.p50} | ${x.p99} | ${x.errors}/${x.non2xx} |`);
    }
  }
  console.log("\n| case | gateway v1→v2 / http-proxy throughput | added p99 vs http-proxy (ms) |");
  console.log("|---|---:|---:|");
  for (const [label, r] of Object.entries(results)) {
    console.log(`| ${label} | ${((r.gateway!.rps / r.proxy!.rps) * 100).toFixed(1)}% | ${(r.gateway!.p99 - r.proxy!.p99).toFixed(1)} |`);
  }

  for (const child of children) child.kill("SIGTERM");
}

try {
  await main();
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}
