// Cold start of the `v2-bridge` CLI, the cost of every pre-commit hook and CI gate that calls it:
// `audit` on a one-file project, against `node -e 0` in the same run. Rounds are interleaved
// (every case once per round) so that other work on a shared machine hits all cases alike.
// Compiled = dist/bin/v2-bridge.js, what the installed package runs; tsx = bin/v2-bridge.mjs,
// the development entry. Every process gets its own XDG_CACHE_HOME, warmed by the first round
// that is not counted: "code cache warm" is every run after a user's first; "no code cache"
// (NODE_DISABLE_COMPILE_CACHE=1) is what a first run compiles. `before` (optional) is another
// checkout's compiled CLI, for a before/after comparison in the same run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { coldStartPhases } from "./cold-start-profile.ts";

type Case = { label: string; args: string[]; env?: NodeJS.ProcessEnv };
export type ColdStart = { rows: string[]; nodeMs: number; auditV1Ms: number; auditCleanMs: number; auditV1CpuMs: number; auditCleanCpuMs: number; nodeCpuMs: number; phasesV1: string[]; phasesClean: string[] };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function once(c: Case, cwd: string, env: NodeJS.ProcessEnv): { wallMs: number; cpuMs: number } {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, ...c.args], { cwd, encoding: "utf8", env: { ...env, ...c.env } });
  const wallMs = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${c.args.join(" ")} failed: ${r.stderr}`);
  const [user, sys] = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  return { wallMs, cpuMs: (user! + sys!) * 1000 };
}

export function coldStart(root: string, rounds: number, before?: string): ColdStart {
  const compiled = path.join(root, "dist", "bin", "v2-bridge.js");
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`npm run build\` first`);
  const dev = path.join(root, "bin", "v2-bridge.mjs");
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-cold-"));
  const clean = path.join(dir, "clean");
  const v1 = path.join(dir, "v1");
  for (const d of [clean, v1]) mkdirSync(d);
  writeFileSync(path.join(clean, "index.ts"), "export const answer = (n: number) => n * 42;\n");
  writeFileSync(path.join(v1, "client.ts"), 'export const pods = () => fetch("https://rest.runpod.io/v1/pods", { headers: { Authorization: "Bearer k" } }).then((r) => r.json());\n');
  const audit = (entry: string, project: string) => [entry, "audit", project, "--no-progress"];
  const noCache = { NODE_DISABLE_COMPILE_CACHE: "1" };
  const cases: Case[] = [
    { label: "`node -e 0`", args: ["-e", "0"] },
    { label: "`v2-bridge --version` (compiled)", args: [compiled, "--version"] },
    { label: "`v2-bridge audit`, one file, no v1 usage (compiled)", args: audit(compiled, clean) },
    { label: "`v2-bridge audit`, one file with a v1 call (compiled, code cache warm)", args: audit(compiled, v1) },
    { label: "`v2-bridge audit`, one file with a v1 call (compiled, no code cache)", args: audit(compiled, v1), env: noCache },
    { label: "`v2-bridge audit`, one file, no v1 usage (tsx)", args: audit(dev, clean) },
    { label: "`v2-bridge audit`, one file with a v1 call (tsx, code cache warm)", args: audit(dev, v1) },
  ];
  if (before) {
    const old = path.join(before, "dist", "bin", "v2-bridge.js");
    if (!existsSync(old)) throw new Error(`${old} is missing: run \`npm run build\` in ${before}`);
    cases.push(
      { label: "`v2-bridge audit`, one file, no v1 usage (before)", args: audit(old, clean) },
      { label: "`v2-bridge audit`, one file with a v1 call (before)", args: audit(old, v1) },
    );
  }
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, "cache") };
  delete env.NODE_COMPILE_CACHE;
  for (const c of cases) once(c, dir, env); // fills the page cache, tsx's transform cache and the code cache
  const samples = cases.map(() => [] as { wallMs: number; cpuMs: number }[]);
  for (let r = 0; r < rounds; r++) cases.forEach((c, i) => samples[i]!.push(once(c, dir, env)));
  // Where the time goes (bench/cold-start-profile.ts), with the code cache the rounds warmed.
  const phaseRounds = Math.max(3, Math.ceil(rounds / 2));
  const phasesV1 = coldStartPhases(compiled, v1, phaseRounds, env);
  const phasesClean = coldStartPhases(compiled, clean, phaseRounds, env);
  rmSync(dir, { recursive: true, force: true });
  const wall = samples.map((s) => median(s.map((x) => x.wallMs)));
  const cpu = samples.map((s) => median(s.map((x) => x.cpuMs)));
  const rows = ["| command | wall ms (median) | over `node -e 0` ms | CPU ms (median) |", "|---|---:|---:|---:|"];
  cases.forEach((c, i) => rows.push(`| ${c.label} | ${wall[i]!.toFixed(0)} | ${i === 0 ? "–" : (wall[i]! - wall[0]!).toFixed(0)} | ${cpu[i]!.toFixed(0)} |`));
  return { rows, nodeMs: wall[0]!, auditCleanMs: wall[2]!, auditV1Ms: wall[3]!, nodeCpuMs: cpu[0]!, auditV1CpuMs: cpu[3]!, auditCleanCpuMs: cpu[2]!, phasesV1, phasesClean };
}
