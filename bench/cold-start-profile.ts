// Where the cold start of `audit` goes, on the compiled CLI (what the installed package runs):
// each run is profiled with V8's sampling profiler (`--cpu-prof`) and every sample is put in one
// phase by the frames on its stack. The profiler starts after Node's own bootstrap, so that part
// is `node -e 0`'s CPU time, measured in the same rounds. Shares of the profile are scaled to the
// process's measured CPU time (the profiler adds ~20–30% of its own), medians over the rounds.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

type Frame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Phases in the order they are tested: a sample goes to the first phase one of its frames matches. */
export const PHASES: { name: string; test: (frames: Frame[]) => boolean }[] = [
  { name: "garbage collection", test: (f) => f[0]?.functionName === "(garbage collector)" },
  { name: "parsing source files (the 61 standard library files; the project's are tiny)", test: (f) => f.some((x) => x.functionName === "parseSourceFile" || x.functionName === "createSourceFile") },
  { name: "binding them (the binder)", test: (f) => f.some((x) => x.functionName === "bindSourceFile") },
  { name: "the type checker's start (merging the globals)", test: (f) => f.some((x) => x.functionName === "initializeTypeChecker") },
  { name: "the language service's program and checker (findReferences)", test: (f) => f.some((x) => x.functionName === "findReferences" || x.functionName === "getReferencedSymbolsForNode") },
  { name: "other type checker work (the analysis' type queries)", test: (f) => f.some((x) => /typescript\.js$/.test(x.url) && x.functionName !== "") && !f.some((x) => x.functionName === "Module._load") },
  { name: "loading TypeScript and ts-morph (code cache read, top level run)", test: (f) => f.some((x) => /(typescript|ts-morph-common|ts-morph)\.js$/.test(x.url) || x.url === "node:vm" || (x.functionName.endsWith("_compile") && /\/dist\//.test(x.url))) },
  { name: "the CLI and the engine (our bundle, commander, walk, pre-filter)", test: (f) => f.some((x) => /\/dist\/|\/node_modules\/(commander|ignore|p-limit)\//.test(x.url)) },
];
const OTHER = "Node after bootstrap (loading our modules and the small packages, fs, other)";

/** Milliseconds of samples per phase in one profile (idle samples left out). */
export function phasesOf(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>([...PHASES.map((p) => [p.name, 0] as [string, number]), [OTHER, 0]]);
  const phaseOf = new Map<number, string | undefined>();
  profile.samples.forEach((id, i) => {
    if (!phaseOf.has(id)) {
      const frames: Frame[] = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) frames.push(byId.get(cur)!.callFrame);
      const idle = frames[0]?.functionName === "(idle)";
      phaseOf.set(id, idle ? undefined : PHASES.find((p) => p.test(frames))?.name ?? OTHER);
    }
    const phase = phaseOf.get(id);
    if (phase) out.set(phase, out.get(phase)! + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function cpuOf(args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, ...args], { cwd, encoding: "utf8", env });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  const [user, sys] = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  return (user! + sys!) * 1000;
}

/**
 * Rows of a markdown table: CPU ms by phase of `audit <project>` with the compiled CLI, code cache
 * warm (`env` carries its XDG_CACHE_HOME, already filled by an earlier run).
 */
export function coldStartPhases(compiled: string, project: string, rounds: number, env: NodeJS.ProcessEnv): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-prof-"));
  const shares: Map<string, number>[] = [];
  const nodeCpu: number[] = [];
  const cliCpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    nodeCpu.push(cpuOf(["-e", "0"], project, env));
    cliCpu.push(cpuOf([compiled, "audit", project, "--no-progress"], project, env));
    const out = path.join(dir, String(r));
    cpuOf(["--cpu-prof", "--cpu-prof-dir", out, compiled, "audit", project, "--no-progress"], project, env);
    const file = readdirSync(out).find((f) => f.endsWith(".cpuprofile"))!;
    const ms = phasesOf(JSON.parse(readFileSync(path.join(out, file), "utf8")) as Profile);
    const sampled = [...ms.values()].reduce((a, b) => a + b, 0);
    // Scaled to the unprofiled run of the same round: the profile gives the shares, not the time.
    const budget = cliCpu.at(-1)! - nodeCpu.at(-1)!;
    shares.push(new Map([...ms].map(([k, v]) => [k, (v / sampled) * budget])));
  }
  rmSync(dir, { recursive: true, force: true });
  const rows = ["| phase | CPU ms (median) |", "|---|---:|", `| Node itself (\`node -e 0\`) | ${median(nodeCpu).toFixed(0)} |`];
  for (const name of [...PHASES.map((p) => p.name), OTHER]) rows.push(`| ${name} | ${median(shares.map((s) => s.get(name) ?? 0)).toFixed(0)} |`);
  rows.push(`| **whole process** (\`audit\`, measured without the profiler) | **${median(cliCpu).toFixed(0)}** |`);
  return rows;
}
