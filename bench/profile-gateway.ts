// `tsx bench/profile-gateway.ts [list|create|action|passthrough[-create|-action]] [seconds] [gateway|gateway-dist|proxy]`:
// CPU profile of one server process under load (the gateway by default, `gateway-dist` its compiled
// build; `proxy` profiles the plain http-proxy with the case's v2 request, for comparison). Upstream and server run in their own
// processes; the server profiles itself over the inspector between "profile-start" and
// "profile-stop" (bench/gateway-servers.ts), so start-up and warm-up stay out of the profile.
// Writes the .cpuprofile under $PROFILE_DIR (default ./profiles) and prints CPU time per request,
// self time by function and by file or package, and inclusive time of the busiest functions.
// PROFILE=0: CPU µs/request only, without profiler overhead. PROFILE_ROOT=<checkout>: profile that
// checkout's server instead of this one's (its `npm run build` for gateway-dist), for a before/after.
// Samples are counted, each worth the same: V8 stamps a sample with the wall time since the last
// one, and on a loaded machine that gap includes the time the process was not running, which
// lands on whatever function happened to be on the stack (a 3 µs histogram update showed as
// 38 µs). PROFILE_WEIGHT=time weighs by those gaps instead (the old figures).
import fs from "node:fs";
import path from "node:path";
import { CASES, cpuMicros, saturate, startRole, type Request, type Role } from "./harness.ts";

const [label = "list", secondsArg = "8", targetArg = "gateway"] = process.argv.slice(2);
const OUT = path.resolve(process.env.PROFILE_DIR ?? "profiles");
const PROFILE = process.env.PROFILE !== "0";
const BY_TIME = process.env.PROFILE_WEIGHT === "time";
// passthrough[-case]: the gateway's /v2 pass-through with that case's v2 request (list by default).
const [caseLabel, via] = label.startsWith("passthrough") ? [label.split("-")[1] ?? "list", "v2"] : [label, "v1"];
const found = CASES.find((x) => x.label === caseLabel);
const c = found && via === "v2" ? { ...found, v1: found.v2 } : found;
if (!c) throw new Error(`unknown case ${label}`);
const request: Request = targetArg === "proxy" ? c.v2 : c.v1;

/** CPU µs per thread of a process (Linux /proc): the main thread is the one whose id is the pid. */
function threadMicros(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10_000);
    }
  } catch {
    // not Linux
  }
  return out;
}

fs.mkdirSync(OUT, { recursive: true });
const roles: Role[] = [];
const file = path.join(OUT, `${targetArg}-${label}-${Date.now()}.cpuprofile`);
/** Main-thread CPU µs per request, measured: the profile's shares are turned into µs with it. */
let mainPerRequest = 0;

function ask(target: Role, message: string, answer: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (m !== answer) return;
      target.child.off("message", onMessage);
      resolve();
    };
    target.child.on("message", onMessage);
    target.child.send(message);
  });
}

try {
  const upstream = await startRole("upstream", { logFile: path.join(OUT, "upstream.log") });
  roles.push(upstream);
  const target = await startRole(targetArg, { upstream: upstream.url, logFile: path.join(OUT, `${targetArg}.log`), root: process.env.PROFILE_ROOT });
  roles.push(target);
  // Past V8's optimising of the hot code (seconds of background compiling): the steady state.
  await saturate(target, request, Number(process.env.WARMUP_SECONDS ?? 8));
  if (PROFILE) await ask(target, "profile-start", "profile-started");
  const cpuBefore = cpuMicros(target.pid);
  const threadsBefore = threadMicros(target.pid);
  const r = await saturate(target, request, Number(secondsArg));
  const requests = Math.max(1, r.rps * Number(secondsArg));
  const perRequest = (cpuMicros(target.pid) - cpuBefore) / requests;
  let main = 0;
  let others = 0;
  for (const [tid, t] of threadMicros(target.pid)) {
    const used = t - (threadsBefore.get(tid) ?? 0);
    if (tid === target.pid) main += used;
    else others += used;
  }
  if (PROFILE) await ask(target, `profile-stop ${file}`, "profile-written");
  mainPerRequest = main / requests;
  console.log(`${targetArg} ${label}: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.bad}; CPU ${perRequest.toFixed(0)} µs/request${PROFILE ? " (profiler overhead included)" : ""}, of which main thread ${(main / requests).toFixed(0)}, other threads (V8 GC and compiler, libuv pool) ${(others / requests).toFixed(0)}`);
} finally {
  for (const r of roles) if (r.child.exitCode === null) r.child.kill("SIGTERM");
}
if (!PROFILE) process.exit(0);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
console.log(`profile: ${file}`);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
const selfTime = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) selfTime.set(profile.samples[i]!, (selfTime.get(profile.samples[i]!) ?? 0) + (BY_TIME ? (profile.timeDeltas[i] ?? 0) : 1));

const where = (n: Node) => (n.callFrame.url || "(native)").replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
const fnKey = (n: Node) => `${n.callFrame.functionName || "(anon)"} ${where(n)}:${n.callFrame.lineNumber + 1}`;
const fileKey = (n: Node) => where(n).replace(/.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, "node_modules/$1");
const self = new Map<string, number>();
const byFile = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
for (const [id, t] of selfTime) {
  const node = byId.get(id)!;
  if (node.callFrame.functionName === "(idle)") continue;
  busy += t;
  self.set(fnKey(node), (self.get(fnKey(node)) ?? 0) + t);
  byFile.set(fileKey(node), (byFile.get(fileKey(node)) ?? 0) + t);
  // Each function once per sample, however deep it recurses.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const key = fnKey(byId.get(cur)!);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + t);
  }
}
// Share of the busy samples, and that share of the main thread's measured CPU per request.
const pct = (t: number) => ((t / busy) * 100).toFixed(1).padStart(5) + "% " + ((t / busy) * mainPerRequest).toFixed(1).padStart(6) + " µs";
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log(`\nshares of busy ${BY_TIME ? "time" : "samples"} (idle excluded), and µs per request of the main thread's ${mainPerRequest.toFixed(0)} µs\n\nself time by function:`);
for (const [k, t] of top(self, 25)) console.log(pct(t), k);
console.log("\nself time by file / package:");
for (const [k, t] of top(byFile, 20)) console.log(pct(t), k);
console.log("\ninclusive time (callees included):");
for (const [k, t] of top(inclusive, 40)) if (!k.startsWith("(root)")) console.log(pct(t), k);
