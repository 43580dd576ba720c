// `tsx bench/profile-gateway.ts [list|create|action|passthrough] [seconds]`: CPU profile of the gateway process
// under load. Upstream and gateway run in their own processes (the gateway with --cpu-prof); this
// process only drives autocannon. Writes .cpuprofile files under $PROFILE_DIR (default ./profiles) and
// prints the gateway's CPU time per request and the top self-time functions.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const [label = "list", secondsArg = "8"] = process.argv.slice(2);
const OUT = path.resolve(process.env.PROFILE_DIR ?? "profiles");
const CASES: Record<string, { method: string; path: string; body?: string }> = {
  list: { method: "GET", path: "/v1/pods" },
  create: { method: "POST", path: "/v1/pods", body: JSON.stringify({ name: "b", imageName: "i", gpuTypeIds: ["NVIDIA RTX A5000"] }) },
  action: { method: "POST", path: "/v1/pods/pod_bench1/start" },
  passthrough: { method: "GET", path: "/v2/pods" },
};
const c = CASES[label];
if (!c) throw new Error(`unknown case ${label}`);

function startRole(role: string, extra: string[], upstream?: string): { child: ChildProcess; url: Promise<string> } {
  // stdout (the gateway's log) goes to a file; READY arrives over IPC.
  const log = fs.openSync(path.join(OUT, `${role}.log`), "w");
  const child = spawn(process.execPath, [...extra, "--import", "tsx", path.join(HERE, "gateway-servers.ts"), role, ...(upstream ? [upstream] : [])], { stdio: ["ignore", log, "inherit", "ipc"] });
  fs.closeSync(log);
  const url = new Promise<string>((resolve, reject) => {
    child.once("message", (m) => resolve(String(m).replace(/^READY /, "")));
    child.on("exit", (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { child, url };
}

const load = (url: string, duration: number) =>
  new Promise<any>((resolve, reject) =>
    autocannon({ url, method: c.method, body: c.body, connections: 10, duration, headers: { authorization: "Bearer bench_key", "content-type": "application/json" } }, (err: Error | null, r: any) => (err ? reject(err) : resolve(r))),
  );

/** User + system CPU time of a process in µs (Linux /proc; clock ticks are 100 Hz). */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

fs.mkdirSync(OUT, { recursive: true });
const upstream = startRole("upstream", []);
const upstreamUrl = await upstream.url;
// Every thread (the main one and tsx's loader worker) writes its own profile into a fresh directory.
const dir = fs.mkdtempSync(path.join(OUT, `gateway-${label}-`));
const PROFILE = process.env.PROFILE !== "0"; // PROFILE=0: CPU µs/request only, without profiler overhead
const gateway = startRole("gateway", PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [], upstreamUrl);
try {
  const gatewayUrl = await gateway.url;
  await load(gatewayUrl + c.path, 1);
  const cpuBefore = cpuMicros(gateway.child.pid!);
  const r = await load(gatewayUrl + c.path, Number(secondsArg));
  const perRequest = (cpuMicros(gateway.child.pid!) - cpuBefore) / r.requests.total;
  console.log(`${label}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; gateway CPU ${perRequest.toFixed(0)} µs/request ${PROFILE ? " (profiler overhead included)" : ""}`);
} finally {
  const exited = new Promise((r) => gateway.child.once("exit", r));
  gateway.child.kill("SIGTERM");
  await exited;
  upstream.child.kill("SIGTERM");
}

// Self time per function (top 25) and per file (top 15).
if (!PROFILE) process.exit(0);
// The main thread's profile is the largest one.
const file = fs.readdirSync(dir).map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!;
console.log(`profile: ${file}`);
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const dt = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const t = dt.get(node.id) ?? 0;
  const f = node.callFrame;
  const file = (f.url || "(native)").replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
  const key = `${f.functionName || "(anon)"} ${file}:${f.lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  const fileKey = file.replace(/node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, "node_modules/$1");
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + t);
}
const pct = (t: number) => ((t / total) * 100).toFixed(1).padStart(5) + "%";
console.log(`\nself time by function (total ${(total / 1e6).toFixed(2)} s):`);
for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(pct(t), k);
console.log("\nself time by file / package:");
for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(pct(t), k);
