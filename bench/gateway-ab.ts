// `tsx bench/gateway-ab.ts <other-checkout> [rounds]`: gateway CPU time per request, this checkout
// against another one (e.g. `git archive <commit> | tar -x -C /tmp/before`, node_modules linked),
// with a plain http-proxy for reference. Short runs interleaved A, B, proxy, A, B, proxy, … so
// that load from other work on a shared machine hits all three alike; min and median per target.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const [other, roundsArg = "6"] = process.argv.slice(2);
if (!other) throw new Error("usage: tsx bench/gateway-ab.ts <other-checkout> [rounds]");
const ROUNDS = Number(roundsArg);
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "v2-bridge-ab-"));
const children: ChildProcess[] = [];

async function start(root: string, role: string, upstream?: string): Promise<{ url: string; pid: number }> {
  const log = fs.openSync(path.join(logDir, `${role}-${children.length}.log`), "w");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench/gateway-servers.ts"), role, ...(upstream ? [upstream] : [])], { cwd: root, stdio: ["ignore", log, "inherit", "ipc"] });
  fs.closeSync(log);
  children.push(child);
  const url = String(await new Promise((resolve) => child.once("message", resolve))).replace(/^READY /, "");
  return { url, pid: child.pid! };
}

function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const load = (url: string, method: string, body: string | undefined, duration: number) =>
  new Promise<any>((resolve, reject) =>
    autocannon({ url, method, body, connections: 10, duration, headers: { authorization: "Bearer bench_key", "content-type": "application/json" } }, (e: Error | null, r: any) => (e ? reject(e) : resolve(r))),
  );

const CASES = {
  list: { v1: ["GET", "/v1/pods"], v2: ["GET", "/v2/pods"] },
  create: { v1: ["POST", "/v1/pods", JSON.stringify({ name: "b", imageName: "i", gpuTypeIds: ["NVIDIA RTX A5000"] })], v2: ["POST", "/v2/pods", JSON.stringify({ name: "b", image: "i", gpu: { id: "NVIDIA RTX A5000", count: 1 } })] },
  action: { v1: ["POST", "/v1/pods/pod_bench1/start"], v2: ["POST", "/v2/pods/pod_bench1/action", JSON.stringify({ action: "start" })] },
} as const;

try {
  const upstream = await start(path.resolve(HERE, ".."), "upstream");
  const proxy = await start(path.resolve(HERE, ".."), "proxy", upstream.url);
  const a = await start(path.resolve(other), "gateway", upstream.url);
  const b = await start(path.resolve(HERE, ".."), "gateway", upstream.url);
  console.log(`CPU µs per request (min / median of ${ROUNDS} interleaved 1.5 s runs) and req/s (median); A = ${other}, B = this checkout`);
  for (const [label, c] of Object.entries(CASES)) {
    const targets = [["A", a, c.v1], ["B", b, c.v1], ["proxy", proxy, c.v2]] as const;
    const cpu: Record<string, number[]> = { A: [], B: [], proxy: [] };
    const rps: Record<string, number[]> = { A: [], B: [], proxy: [] };
    for (const [, t, [m, p, body]] of targets) await load(t.url + p, m, body, 1);
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, t, [m, p, body]] of targets) {
        const before = cpuMicros(t.pid);
        const r = await load(t.url + p, m, body, 1.5);
        cpu[name]!.push((cpuMicros(t.pid) - before) / r.requests.total);
        rps[name]!.push(r.requests.average);
      }
    }
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
    const fmt = (name: string) => `${name} ${sorted(cpu[name]!)[0]!.toFixed(0)} / ${sorted(cpu[name]!)[ROUNDS >> 1]!.toFixed(0)} µs, ${Math.round(sorted(rps[name]!)[ROUNDS >> 1]!)} req/s`;
    console.log(`${label.padEnd(7)} ${fmt("A")} | ${fmt("B")} | ${fmt("proxy")}`);
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  fs.rmSync(logDir, { recursive: true, force: true });
}
