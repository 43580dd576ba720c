// `tsx bench/moderate-tail.ts [rate] [seconds] [rounds] [cases]`: where the p99 at moderate load
// comes from. Paced requests (as bench/gateway.ts's moderate runs) to the plain proxy, the gateway's
// v1→v2 route and its /v2 pass-through, interleaved; each server records its event-loop gaps over
// 4 ms (BENCH_LOOP in gateway-servers.ts) and this process its own. Per run: p50 / p99, the server
// main thread's run and run-queue wait (ms a second), the gaps' total with the GC and the process CPU
// inside them, and which requests at or above the p99 overlapped a server gap (mostly off a CPU,
// mostly GC) or one of the load generator's, against the share of all requests that did. Linux only
// (/proc schedstat). Defaults: 2600 req/s, 4 s recorded after 2 s paced warm-up, 2 rounds, list,create.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "undici";
import { CASES, HEADERS, saturate, startRole, type Request, type Role } from "./harness.ts";

const [rateArg = "2600", secondsArg = "4", roundsArg = "2", casesArg = "list,create"] = process.argv.slice(2);
const RATE = Number(rateArg);
const SECONDS = Number(secondsArg);
type Gap = [start: number, end: number, cpuMs: number, gcMs: number];

/** This process's own event-loop gaps (its load generator's), as the servers record theirs. */
let ownGaps: Gap[] = [];
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last > 4) ownGaps.push([performance.timeOrigin + last, performance.timeOrigin + now, NaN, NaN]);
  last = now;
}, 1).unref();

/** Paced requests (1 ms ticker, like paced-load.ts), each as [wall-clock start ms, latency ms]. */
async function paced(origin: string, req: Request, seconds: number): Promise<[number, number][]> {
  const pool = new Pool(origin, { connections: 16, pipelining: 1 });
  const out: [number, number][] = [];
  const inFlight: Promise<void>[] = [];
  const total = Math.round(RATE * seconds);
  let sent = 0;
  const start = performance.now();
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      for (const due = Math.min(total, Math.floor(((performance.now() - start) * RATE) / 1000)); sent < due; sent++) {
        const t0 = performance.now();
        inFlight.push(
          pool.request({ method: req.method as "GET", path: req.path, body: req.body, headers: HEADERS }).then(async (res) => {
            await res.body.arrayBuffer();
            out.push([performance.timeOrigin + t0, performance.now() - t0]);
          }),
        );
      }
      if (sent >= total) {
        clearInterval(timer);
        done();
      }
    }, 1);
  });
  await Promise.all(inFlight);
  await pool.close();
  return out;
}

function ask(target: Role, message: string, prefix: string): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (!String(m).startsWith(prefix)) return;
      target.child.off("message", onMessage);
      resolve(String(m).slice(prefix.length));
    };
    target.child.on("message", onMessage);
    target.child.send(message);
  });
}

const overlaps = (r: [number, number], gaps: Gap[], keep: (g: Gap) => boolean) => gaps.some((g) => keep(g) && g[0] < r[0] + r[1] && g[1] > r[0]);
const pct = (part: number, whole: number) => `${Math.round((part / Math.max(1, whole)) * 100)}%`;

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "v2-bridge-tail-"));
const roles: Role[] = [];
const env = { ...process.env, BENCH_LOOP: "1" };
const start = async (role: string, upstream?: string) => {
  const r = await startRole(role, { upstream, logFile: path.join(logDir, `${role}.log`), env });
  roles.push(r);
  return r;
};
try {
  const upstream = await start("upstream");
  const proxy = await start("proxy", upstream.url);
  const gateway = await start("gateway-dist", upstream.url);
  console.log(`${RATE} req/s, ${SECONDS} s a run; load average ${os.loadavg()[0]!.toFixed(1)}`);
  for (const c of CASES.filter((x) => casesArg.split(",").includes(x.label))) {
    const targets: [string, Role, Request][] = [["proxy", proxy, c.v2], ["gateway v1→v2", gateway, c.v1], ["gateway /v2", gateway, c.v2]];
    for (const [, t, req] of targets) await saturate(t, req, 3);
    for (let round = 0; round < Number(roundsArg); round++) {
      for (const [name, t, req] of targets) {
        await paced(t.url, req, 2);
        await ask(t, "loop-reset", "loop-ok");
        ownGaps = [];
        const runs = await paced(t.url, req, SECONDS);
        const server = JSON.parse(await ask(t, "loop", "loop ")) as { gaps: Gap[]; runMsPerS: number; waitMsPerS: number };
        const sorted = runs.map((r) => r[1]).sort((a, b) => a - b);
        const p99 = sorted[Math.floor(sorted.length * 0.99)]!;
        const tail = runs.filter((r) => r[1] >= p99);
        const offCpu = (g: Gap) => g[2] < 0.5 * (g[1] - g[0]);
        const inGc = (g: Gap) => g[3] > 0.5 * (g[1] - g[0]);
        const any = () => true;
        const share = (gaps: Gap[], keep: (g: Gap) => boolean) =>
          `${pct(tail.filter((r) => overlaps(r, gaps, keep)).length, tail.length)} (all ${pct(runs.filter((r) => overlaps(r, gaps, keep)).length, runs.length)})`;
        const sum = (f: (g: Gap) => number) => server.gaps.reduce((a, g) => a + f(g), 0).toFixed(0);
        console.log(
          `${c.label} r${round} ${name}: p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} p99 ${p99.toFixed(2)} ms | main thread ran ${server.runMsPerS.toFixed(0)}, waited for a CPU ${server.waitMsPerS.toFixed(0)} ms/s | ` +
            `gaps > 4 ms ${sum((g) => g[1] - g[0])} ms (GC ${sum((g) => g[3])}, process CPU ${sum((g) => g[2])}) | requests ≥ p99 overlapping a server gap ${share(server.gaps, any)}, ` +
            `one mostly off a CPU ${share(server.gaps, offCpu)}, mostly GC ${share(server.gaps, inGc)}, a load-generator gap ${share(ownGaps, any)} | load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
  }
} finally {
  for (const r of roles) if (r.child.exitCode === null) r.child.kill("SIGTERM");
  fs.rmSync(logDir, { recursive: true, force: true });
}
process.exit(0);
