// `tsx bench/gateway-ab.ts <A> [rounds] [B]`: gateway CPU time per request and req/s, two gateway
// versions against each other, with a plain http-proxy for reference, for the translated routes and
// the /v2 pass-through. A and B are checkouts (e.g. `git archive <commit> | tar -x -C /tmp/before`,
// node_modules linked); B defaults to this one. `<checkout>#dist` runs that checkout's compiled
// build (`npm run build`) instead of its sources through tsx.
// Short runs interleaved A, B, proxy, A, B, proxy, … so that load from other work on a shared
// machine hits all three alike; min and median per target.
// `floor` (or `floor:log,id,hop,count`, parts left out) in place of a checkout: the plain proxy doing
// only the pass-through's required per-request work (gateway-servers.ts proxy-floor); compare it on
// the pass-through rows only (`AB_ROWS=pass-through`; AB_ROWS keeps the rows whose label contains it).
// `--parallel`: each round loads A, B and the proxy at the same time instead (each its own 10
// connections), so all three see the same moment of a busy machine; the ratios of each round
// (B / A and B / proxy, CPU per request and req/s) are paired and their medians printed. On a machine
// whose load swings by the second (other engineers' test suites), this is the steadier comparison.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CASES, median, saturate, startRole, type Request, type Role, type Run } from "./harness.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const self = path.resolve(HERE, "..");
const args = process.argv.slice(2);
const PARALLEL = args.includes("--parallel");
const [specA, roundsArg = "6", specB = self] = args.filter((a) => a !== "--parallel");
if (!specA) throw new Error("usage: tsx bench/gateway-ab.ts <checkout>[#dist] [rounds] [<checkout>[#dist]] [--parallel]");
const ROUNDS = Number(roundsArg);
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "v2-bridge-ab-"));
const roles: Role[] = [];
const start = async (root: string, role: string, upstream?: string) => {
  const r = await startRole(role, { root, upstream, logFile: path.join(logDir, `${role}-${roles.length}.log`) });
  roles.push(r);
  return r;
};
const startFloor = async (off: string, upstream: string) => {
  const r = await startRole("proxy-floor", { root: self, upstream, logFile: path.join(logDir, `floor-${roles.length}.log`), env: { ...process.env, FLOOR_OFF: off } });
  roles.push(r);
  return r;
};
const gateway = (spec: string, upstream: string) => {
  // `floor`: the plain proxy with only the pass-through's required per-request work (gateway-servers.ts proxy-floor).
  // `floor:log,id`: the same with those parts left out (log line, id, hop, count), to weigh each.
  if (spec.startsWith("floor")) return startFloor(spec.split(":")[1] ?? "", upstream);
  const [root, build] = spec.split("#");
  return start(path.resolve(root!), build === "dist" ? "gateway-dist" : "gateway", upstream);
};

try {
  const upstream = await start(self, "upstream");
  const proxy = await start(self, "proxy", upstream.url);
  const a = await gateway(specA, upstream.url);
  const b = await gateway(specB, upstream.url);
  console.log(`CPU µs per request (min / median of ${ROUNDS} ${PARALLEL ? "rounds of 2 s, A, B and proxy loaded at once" : "interleaved 1.5 s runs"}) and req/s (median); A = ${specA}, B = ${specB}; load average ${os.loadavg()[0]!.toFixed(1)}`);
  // V8 optimises the gateways' code for several seconds under load (background threads): warm every path first.
  for (const c of CASES) for (const [t, req] of [[a, c.v1], [b, c.v1], [a, c.v2], [b, c.v2], [proxy, c.v2]] as const) await saturate(t, req, 3);
  const rows = CASES.flatMap((c) => [
    { label: `${c.label} v1→v2`, v1: c.v1, v2: c.v2 },
    { label: `${c.label} /v2 pass-through`, v1: c.v2, v2: c.v2 },
  ]);
  for (const row of rows.filter((r) => !process.env.AB_ROWS || r.label.includes(process.env.AB_ROWS))) {
    const targets: [string, Role, Request][] = [
      ["A", a, row.v1],
      ["B", b, row.v1],
      ["proxy", proxy, row.v2],
    ];
    for (const [, t, req] of targets) await saturate(t, req, 1);
    const cpu: Record<string, number[]> = { A: [], B: [], proxy: [] };
    const rps: Record<string, number[]> = { A: [], B: [], proxy: [] };
    for (let i = 0; i < ROUNDS; i++) {
      // With A, B and the proxy always started in that order, B measured 5–10% less CPU a request
      // than the same build as A (an A/A: 95%; an A/B in both orders: 90–95% and 93–101%); the
      // three load generators share this process's event loop, so the order is suspect. The start
      // order rotates every round (the same A/A: 99%). docs/performance.md, session 36.
      const runs: Run[] = [];
      if (PARALLEL) {
        const started: Promise<Run>[] = [];
        for (let j = 0; j < targets.length; j++) {
          const k = (i + j) % targets.length;
          started[k] = saturate(targets[k]![1], targets[k]![2], 2);
        }
        runs.push(...(await Promise.all(started)));
      }
      for (const [k, [name, t, req]] of targets.entries()) {
        const r = PARALLEL ? runs[k]! : await saturate(t, req, 1.5);
        cpu[name]!.push(r.cpuPerRequest);
        rps[name]!.push(r.rps);
      }
    }
    const fmt = (name: string) => `${name} ${Math.min(...cpu[name]!).toFixed(0)} / ${median(cpu[name]!).toFixed(0)} µs, ${Math.round(median(rps[name]!))} req/s`;
    console.log(`${row.label.padEnd(24)} ${fmt("A")} | ${fmt("B")} | ${fmt("proxy")}`);
    if (PARALLEL) {
      // Medians of the rounds' own ratios: each pair ran at the same moment.
      const ratio = (m: Record<string, number[]>, x: string, y: string) => (median(m[x]!.map((v, i) => v / m[y]![i]!)) * 100).toFixed(0) + "%";
      console.log(`${"".padEnd(24)} CPU/request B/A ${ratio(cpu, "B", "A")}, A/proxy ${ratio(cpu, "A", "proxy")}, B/proxy ${ratio(cpu, "B", "proxy")}; req/s B/A ${ratio(rps, "B", "A")}, A/proxy ${ratio(rps, "A", "proxy")}, B/proxy ${ratio(rps, "B", "proxy")}`);
    }
  }
} finally {
  for (const r of roles) if (r.child.exitCode === null) r.child.kill("SIGTERM");
  fs.rmSync(logDir, { recursive: true, force: true });
}
