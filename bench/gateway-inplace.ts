// `tsx bench/gateway-inplace.ts <rounds> <target> [<target> …]`: the targets loaded at the same time
// (each its own 10 connections, rounds of 2 s) with the /v2 list request (CASE=create|action for
// another), CPU µs a request per round and the medians of each target's per-round ratio to the first.
// A target is `role[=FLOOR_OFF][@node-flag,…][#checkout]`: a bench/gateway-servers.ts role
// (proxy, proxy-floor, gateway, gateway-dist), FLOOR_OFF passed to it (the floor's parts left out, or
// a scratch build's own switches), extra node flags, and the checkout whose servers run.
// BENCH_STATS=1: each round also prints what the target measured of itself (gateway-servers.ts):
// minor/major GCs per 1,000 requests and their pause µs a request, the floor's µs inside its log
// line (wall and CPU), and with BENCH_STATS_LOOP=1 the same line called hot in a loop.
// Measure as docs/performance.md says (autogroup off, nice −20). KEEP=1 keeps the servers' logs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CASES, median, saturate, startRole, type Role } from "./harness.ts";

const [roundsArg = "6", ...specs] = process.argv.slice(2);
if (!specs.length) throw new Error("usage: tsx bench/gateway-inplace.ts <rounds> <target> [<target> …]");
const rounds = Number(roundsArg);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "v2-bridge-inplace-"));
const roles: Role[] = [];

/** The target's own figures since the last ask (it resets them). */
function stats(t: Role): Promise<any> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (!String(m).startsWith("stats ")) return;
      t.child.off("message", on);
      resolve(JSON.parse(String(m).slice(6)));
    };
    t.child.on("message", on);
    t.child.send("stats");
  });
}

function describe(s: any, requests: number): string {
  const gc = Object.entries(s.gc as Record<string, { n: number; ms: number }>)
    .map(([kind, v]) => `${kind} ${((v.n / requests) * 1000).toFixed(2)}/kreq ${((v.ms * 1000) / requests).toFixed(1)} µs`)
    .join(", ");
  const line = s.lines ? ` line ${((s.lineMs * 1000) / s.lines).toFixed(1)} µs wall ${((s.lineCpuMs * 1000) / s.lines).toFixed(1)} CPU` : "";
  const loop = s.loops ? `, in a loop ${((s.loopMs * 1000) / s.loops).toFixed(1)} µs` : "";
  return `${line}${loop}${gc ? `, GC ${gc}` : ""}, heap ${(s.heapUsed / 1e6).toFixed(0)} MB`;
}

try {
  const upstream = await startRole("upstream", { logFile: path.join(dir, "upstream.log") });
  roles.push(upstream);
  const targets: Role[] = [];
  for (const [i, spec] of specs.entries()) {
    const [head, root] = spec.split("#");
    const [roleOff, flags] = head!.split("@");
    const [role, off] = roleOff!.split("=");
    const env = { ...process.env, FLOOR_OFF: off ?? "", BENCH_STATS: process.env.BENCH_STATS ?? "0" };
    const t = await startRole(role!, { upstream: upstream.url, root, logFile: path.join(dir, `target-${i}.log`), nodeArgs: flags ? flags.split(",") : [], env });
    roles.push(t);
    targets.push(t);
  }
  const req = CASES.find((c) => c.label === (process.env.CASE ?? "list"))!.v2;
  console.log(`CPU µs a request, ${rounds} rounds of 2 s, all targets loaded at once; load average ${os.loadavg()[0]!.toFixed(1)}`);
  for (const t of targets) await saturate(t, req, 4);
  for (const t of targets) await stats(t);
  const cpu: number[][] = targets.map(() => []);
  for (let i = 0; i < rounds; i++) {
    const runs = await Promise.all(targets.map((t) => saturate(t, req, 2)));
    const own = await Promise.all(targets.map(stats));
    for (const [k, r] of runs.entries()) cpu[k]!.push(r.cpuPerRequest);
    const parts = runs.map((r, k) => `[${specs[k]}] ${r.cpuPerRequest.toFixed(0)} µs, ${Math.round(r.rps)} req/s${process.env.BENCH_STATS === "1" ? describe(own[k], r.rps * 2) : ""}`);
    console.log(`round ${i}: ${parts.join(" | ")}`);
  }
  console.log(`median CPU µs a request: ${specs.map((s, k) => `${s} ${median(cpu[k]!).toFixed(1)}`).join(", ")}`);
  for (let k = 1; k < specs.length; k++) {
    const ratios = cpu[k]!.map((v, i) => v / cpu[0]![i]!);
    console.log(`${specs[k]} / ${specs[0]}: median ${(median(ratios) * 100).toFixed(0)}% (rounds: ${ratios.map((r) => (r * 100).toFixed(0)).join(" ")})`);
  }
} finally {
  for (const r of roles) if (r.child.exitCode === null) r.child.kill("SIGTERM");
  if (process.env.KEEP) console.log(`logs kept in ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
