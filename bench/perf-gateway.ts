// `tsx bench/perf-gateway.ts [list|create|action] [seconds]`: where the translated route's CPU goes
// beyond the plain proxy's, by Linux `perf` (cpu-clock samples of every thread), the proxy and the
// compiled gateway profiled one after the other under the same saturating load.
// Why beside bench/profile-gateway.ts: V8's profiler takes a sample when its signal is handled, so a
// main thread that was off a CPU is charged to the syscall it was in (on this 2-core machine the
// answer's `writev` took a quarter of the samples). perf counts CPU time only, in the kernel too,
// and says which syscall it was spent in. It does not see functions TurboFan inlined (answerPayload,
// toV1Answer, the request line): profile-gateway.ts shows those.
// Prints, per target, µs a request by class: kernel time by syscall, V8's JSON.parse and
// JSON.stringify, GC, Node/V8 native code with no JavaScript on the stack, and JavaScript by its
// innermost function (the builtins and runtime it calls folded in); then the gateway's busiest
// JavaScript functions. Needs `perf` (PERF=<path> for another); writes under $PROFILE_DIR (./profiles).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CASES, saturate, startRole, type Role } from "./harness.ts";

const [label = "list", secondsArg = "5"] = process.argv.slice(2);
const PERF = process.env.PERF ?? "perf";
const OUT = path.resolve(process.env.PROFILE_DIR ?? "profiles");
const c = CASES.find((x) => x.label === label);
if (!c) throw new Error(`unknown case ${label}`);
const seconds = Number(secondsArg);

/** One sample's class: what its µs are counted under. Frames are leaf first. */
function classify(frames: string[]): string {
  const syscall = frames.findIndex((f) => f.startsWith("entry_SYSCALL_64"));
  if (syscall >= 0) return `kernel: ${(frames[syscall + 1] ?? "?").replace(/^__GI___|^__GI_|^__libc_/, "")}`;
  for (const f of frames) {
    // A module's top-level code runs once at start: a hot sample under its name is an address V8 has
    // since reused for other code (the symbol map keeps both), so the caller's name is taken instead.
    // Other start-up names (requireBuiltin, …) in the function list are the same artefact.
    if (f.startsWith("JS:") && !f.endsWith(":1:1")) return f;
    if (/Builtin_JsonParse|JsonParser</.test(f)) return "JSON.parse";
    if (/Builtin_JsonStringify|JsonStringifier/.test(f)) return "JSON.stringify";
    if (/Scavenge|MarkCompact|ConcurrentMarking|Heap::|Sweeper/.test(f)) return "GC";
    if (/^(asm_|exc_|sysvec_|irqentry)/.test(f)) return "kernel: interrupts, faults";
  }
  return /^(pvm_|__raw_callee|native_)/.test(frames[0] ?? "") ? "kernel: other" : "native, no JavaScript on the stack";
}

/** µs a request by class from `perf script` output, scaled to the measured CPU a request. */
function fold(script: string, perRequest: number): Map<string, number> {
  const counts = new Map<string, number>();
  let total = 0;
  for (const block of script.split("\n\n")) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (lines.length < 2) continue;
    const frames = lines.slice(1).map((l) =>
      l
        .trim()
        .replace(/^[0-9a-f]+ /, "")
        .replace(/ \(.*\)$/, "")
        .replace(/^JS:[*^~]?/, "JS:")
        .replace(/file:\/\/|\S*\/(?=(node_modules|dist|gateway|bench)\/)/g, ""),
    );
    const key = classify(frames);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total++;
  }
  for (const [k, n] of counts) counts.set(k, (n / Math.max(1, total)) * perRequest);
  return counts;
}

async function record(name: string, target: Role, request: (typeof CASES)[number]["v1"]): Promise<{ perRequest: number; classes: Map<string, number> }> {
  const data = path.join(OUT, `perf-${name}-${label}-${Date.now()}.data`);
  const perf = spawn(PERF, ["record", "-F", "2999", "-g", "-o", data, "-p", String(target.pid)], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  perf.stderr.on("data", (d) => (err += d));
  await new Promise((r) => setTimeout(r, 300));
  const r = await saturate(target, request, seconds);
  perf.kill("SIGINT");
  const code = await new Promise((r) => perf.on("exit", r));
  if (!fs.existsSync(data)) throw new Error(`perf record failed (${code}): ${err.trim()}`);
  // tid gives every sample a header line; its frames follow, leaf first.
  const script = execFileSync(PERF, ["script", "-i", data, "-F", "tid,ip,sym"], { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] }).toString();
  console.log(`${name}: ${Math.round(r.rps)} req/s, CPU ${r.cpuPerRequest.toFixed(0)} µs a request (all threads); ${data}`);
  return { perRequest: r.cpuPerRequest, classes: fold(script, r.cpuPerRequest) };
}

fs.mkdirSync(OUT, { recursive: true });
const roles: Role[] = [];
// The symbol map gets an entry per compiled function and none when code moves or dies: no code-space
// compaction keeps most addresses to one function (start-up names can still show up, see classify).
const nodeArgs = ["--perf-basic-prof-only-functions", "--no-compact-code-space"];
let proxy: Awaited<ReturnType<typeof record>>;
let gateway: Awaited<ReturnType<typeof record>>;
try {
  const upstream = await startRole("upstream", { logFile: path.join(OUT, "upstream.log") });
  roles.push(upstream);
  const p = await startRole("proxy", { upstream: upstream.url, logFile: path.join(OUT, "proxy.log"), nodeArgs });
  roles.push(p);
  const g = await startRole("gateway-dist", { upstream: upstream.url, logFile: path.join(OUT, "gateway-dist.log"), nodeArgs });
  roles.push(g);
  // Past V8's optimising of the hot code: the steady state.
  await saturate(p, c.v2, 4);
  await saturate(g, c.v1, Number(process.env.WARMUP_SECONDS ?? 6));
  proxy = await record("proxy", p, c.v2);
  gateway = await record("gateway", g, c.v1);
} finally {
  for (const r of roles) if (r.child.exitCode === null) r.child.kill("SIGTERM");
  // --perf-basic-prof's symbol maps, needed only by `perf script` above.
  for (const r of roles) fs.rmSync(`/tmp/perf-${r.pid}.map`, { force: true });
}

const group = (k: string) => {
  if (!k.startsWith("JS:")) return k;
  if (k.includes("wasm")) return "JavaScript: undici (its llhttp parser, WebAssembly)";
  const where = /node_modules\/(@[^/]+\/[^/]+|[^/]+)\//.exec(k)?.[1] ?? (k.includes(" node:") ? "node" : k.includes(" dist/") ? "the gateway (dist/)" : "other");
  return `JavaScript: ${where}`;
};
const sum = (m: Map<string, number>) => {
  const out = new Map<string, number>();
  for (const [k, v] of m) out.set(group(k), (out.get(group(k)) ?? 0) + v);
  return out;
};
const [ps, gs] = [sum(proxy.classes), sum(gateway.classes)];
const keys = [...new Set([...ps.keys(), ...gs.keys()])].sort((a, b) => (gs.get(b) ?? 0) - (gs.get(a) ?? 0));
const row = (k: string, a: number, b: number) => console.log(`${(a.toFixed(1)).padStart(8)} ${(b.toFixed(1)).padStart(8)} ${((b - a) >= 0 ? "+" : "") + (b - a).toFixed(1).padStart(7)}  ${k}`);
console.log(`\n${label}: µs a request by class (perf cpu-clock, all threads)\n   proxy  gateway    diff`);
row("all", proxy.perRequest, gateway.perRequest);
for (const k of keys) if ((ps.get(k) ?? 0) >= 0.5 || (gs.get(k) ?? 0) >= 0.5) row(k, ps.get(k) ?? 0, gs.get(k) ?? 0);
console.log(`\ngateway, JavaScript by innermost function (µs a request):`);
for (const [k, v] of [...gateway.classes].filter(([k]) => k.startsWith("JS:")).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(1).padStart(8), k.slice(3));
