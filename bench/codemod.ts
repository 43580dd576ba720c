// `npm run bench:codemod`: audit and rewrite (dry run) throughput over generated corpora, with
// `grep -rl rest.runpod.io` and a no-op jscodeshift run over the same files as baselines.
// Bounded: two corpus sizes, three runs each, median reported. Each measurement runs in its own
// process, so peak RSS (getrusage maxRSS) belongs to that measurement alone.
//
// Corpus variants: "inline" puts single-file v1 clients among unrelated modules; "helpers" puts
// whole multi-file clients (v1 calls behind helpers, class clients and wrappers in other
// modules) among them; "large" is "inline" where one module in a hundred is a large class that
// also makes a v1 call (bench/large-modules.ts). Unrelated modules must never be parsed (files
// parsed is printed).
//
// First, the CLI's cold start on a one-file project against `node -e 0` (bench/cold-start.ts).
//
//   npm run bench:codemod [-- --sizes 2000,4000 --variants inline,helpers,large --runs 3 --keep]
//   npm run bench:codemod -- --cold-start-only [--cold-rounds 9] [--before <other checkout, built>]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { largeClassModule } from "./large-modules.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// ── worker mode: one measurement in this process ───────────────────────
if (process.argv[2] === "--worker") {
  const [, , , kind, dir] = process.argv;
  let peakHeap = 0;
  const sample = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  let detail: Record<string, unknown> = {};
  if (kind === "audit" || kind === "rewrite") {
    const { runCodemod } = await import("../codemod/project.ts");
    const r = await runCodemod({ paths: [dir!], diff: kind === "rewrite" });
    const coldMs = performance.now() - t0;
    // Once more in the same process: the work itself, without loading tsx, ts-morph and TypeScript.
    const t1 = performance.now();
    await runCodemod({ paths: [dir!], diff: kind === "rewrite" });
    detail = { warmMs: performance.now() - t1, coldMs, findings: r.findings.length, parsed: r.summary.filesParsed, changed: r.summary.filesChanged };
  } else if (kind === "jscodeshift") {
    const { createRequire } = await import("node:module");
    const require = createRequire(import.meta.url);
    const { run } = require("jscodeshift/src/Runner.js");
    const transform = path.join(dir!, "..", "noop-transform.cjs");
    const stats = await run(transform, [dir!], { babel: false, dry: true, silent: true, verbose: 0, extensions: "ts,tsx,js", parser: "tsx", runInBand: false });
    detail = { ok: stats.ok, nochange: stats.nochange, skip: stats.skip, error: stats.error };
  }
  const ms = (detail.coldMs as number | undefined) ?? performance.now() - t0;
  clearInterval(sample);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  process.stdout.write(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, peakHeap, ...detail }) + "\n");
  process.exit(0);
}

// ── corpus ─────────────────────────────────────────────────────────────
const { casePairs, fixtureCases, isNegative } = await import("../test/codemod/fixture-helpers.ts");
function filler(i: number): string {
  const lines = [
    `// Module ${i}: unrelated application code.`,
    `import { helper${i % 7} } from "./lib/helper${i % 7}.js";`,
    ``,
    `export interface Item${i} {`,
    `  id: string;`,
    `  name: string;`,
    `  tags: string[];`,
    `}`,
    ``,
    `export async function load${i}(id: string): Promise<Item${i}> {`,
    `  const res = await fetch(\`https://api.example.com/v1/items/\${id}\`);`,
    `  if (!res.ok) throw new Error(\`item \${id}: \${res.status}\`);`,
    `  const data = await res.json();`,
    `  return { id: data.id, name: String(data.name), tags: data.tags ?? [] };`,
    `}`,
    ``,
  ];
  for (let k = 0; k < 6; k++) {
    lines.push(
      `export function transform${i}_${k}(items: Item${i}[]): string[] {`,
      `  const out: string[] = [];`,
      `  for (const item of items) {`,
      `    if (item.tags.includes("skip-${k}")) continue;`,
      `    out.push(helper${i % 7}(item.name) + ":${k}");`,
      `  }`,
      `  return out.sort((a, b) => a.localeCompare(b));`,
      `}`,
      ``,
    );
  }
  return lines.join("\n");
}

/** v1 clients from the fixtures: single files ("inline") or whole multi-file cases whose v1 calls
 * sit behind helpers, class clients and wrappers in other modules ("helpers"). */
function v1Sources(variant: string): { name: string; files: { rel: string; text: string }[] }[] {
  const out: { name: string; files: { rel: string; text: string }[] }[] = [];
  for (const name of fixtureCases()) {
    if (isNegative(name)) continue;
    const pairs = casePairs(name).filter((p: { rel: string }) => /\.(ts|tsx|js|mjs|cjs)$/.test(p.rel) && !p.rel.endsWith(".d.ts"));
    const multi = pairs.some((p: { rel: string }) => p.rel.includes(path.sep) || pairs.length > 1);
    if ((variant === "helpers") !== multi) continue;
    out.push({ name: name.replace("/", "-"), files: pairs.map((p: { input: string; rel: string }) => ({ rel: p.rel, text: readFileSync(p.input, "utf8") })) });
  }
  return out;
}

function makeCorpus(size: number, variant: string): { dir: string; lines: number; v1Files: number } {
  const base = mkdtempSync(path.join(os.tmpdir(), `bench-codemod-${size}-`));
  const dir = path.join(base, "corpus");
  mkdirSync(path.join(dir, "lib"), { recursive: true });
  writeFileSync(path.join(base, "noop-transform.cjs"), "module.exports = (file, api) => { api.jscodeshift(file.source); return undefined; };\n");
  const v1 = v1Sources(variant);
  let lines = 0;
  let v1Files = 0;
  let cases = 0;
  for (let i = 0; i < size; i++) {
    const sub = path.join(dir, `pkg${i % 20}`);
    mkdirSync(sub, { recursive: true });
    if (i % 100 === 50) {
      // One v1 client (all of a case's files, in a folder of its own) per hundred files.
      const src = v1[cases++ % v1.length]!;
      for (const f of src.files) {
        const target = path.join(sub, `client${i}-${src.name}`, f.rel);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, f.text);
        lines += f.text.split("\n").length;
        v1Files++;
      }
      i += src.files.length - 1;
      continue;
    }
    const text = variant === "large" && i % 100 === 25 ? largeClassModule(i) : filler(i);
    lines += text.split("\n").length;
    writeFileSync(path.join(sub, `module${i}.ts`), text);
  }
  return { dir, lines, v1Files };
}

// ── measurements ───────────────────────────────────────────────────────
interface Sample {
  wallMs: number;
  innerMs?: number;
  warmMs?: number;
  maxRssKb?: number;
  /** user + sys CPU of the process (robust against other jobs on a shared machine). */
  cpuMs?: number;
  peakHeap?: number;
  detail?: Record<string, unknown>;
}

function worker(kind: string, dir: string): Sample {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--worker", kind, dir], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${kind} worker failed: ${r.stderr}`);
  const line = r.stdout.trim().split("\n").pop()!;
  const { ms, maxRssKb, peakHeap, warmMs, coldMs: _cold, ...detail } = JSON.parse(line);
  return { wallMs, innerMs: ms, warmMs, maxRssKb, peakHeap, detail };
}

/** The real CLI, as a user runs it: the compiled `v2-bridge` (dist/bin/v2-bridge.js; `npm run build`). */
function cli(kind: "audit" | "rewrite", dir: string): Sample {
  const args = kind === "audit" ? ["audit", dir, "--format", "json", "--no-progress"] : ["rewrite", dir, "--no-progress"];
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M %U %S", process.execPath, path.join(ROOT, "dist/bin/v2-bridge.js"), ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${kind} CLI failed: ${r.stderr}`);
  const [rss, user, sys] = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  return { wallMs, maxRssKb: rss, cpuMs: (user! + sys!) * 1000 };
}

function grep(dir: string): Sample {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M %U %S", "grep", "-rl", "rest.runpod.io", dir], { encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  const [maxRssKb, user, sys] = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  return { wallMs, maxRssKb, cpuMs: (user! + sys!) * 1000, detail: { files: r.stdout.trim().split("\n").filter(Boolean).length } };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const sizes = arg("--sizes", "2000,4000").split(",").map(Number);
const variants = arg("--variants", "inline,helpers,large").split(",");
const runs = Number(arg("--runs", "3"));
const keep = process.argv.includes("--keep");

console.log(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${runs} runs per figure (median)`);
try {
  console.log(`grep: ${execFileSync("grep", ["--version"], { encoding: "utf8" }).split("\n")[0]}`);
} catch {
  /* grep version is only informational */
}
const { coldStart } = await import("./cold-start.ts");
const cold = coldStart(ROOT, Number(arg("--cold-rounds", "7")), process.argv.includes("--before") ? path.resolve(arg("--before", "")) : undefined);
console.log(`\nCold start, one-file project (median of interleaved rounds):\n\n${cold.rows.join("\n")}\n`);
console.log(`Where the time goes: \`audit\` of the one-file project with a v1 call (compiled, code cache warm; --cpu-prof shares scaled to CPU time):\n\n${cold.phasesV1.join("\n")}\n`);
console.log(`… and of the one-file project without v1 usage:\n\n${cold.phasesClean.join("\n")}\n`);
const verdict = (ms: number) => (ms <= 500 ? "met" : "NOT met");
console.log(`load average: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} on ${os.cpus().length} cores`);
console.log(`audit of a one-file project with a v1 call (compiled, code cache warm): ${cold.auditV1Ms.toFixed(0)} ms wall (${(cold.auditV1Ms - cold.nodeMs).toFixed(0)} ms over node -e 0; CPU ${cold.auditV1CpuMs.toFixed(0)} ms against ${cold.nodeCpuMs.toFixed(0)} ms): target of at most 500 ms ${verdict(cold.auditV1Ms)}`);
console.log(`audit of a one-file project without v1 usage (compiled): ${cold.auditCleanMs.toFixed(0)} ms wall (${(cold.auditCleanMs - cold.nodeMs).toFixed(0)} ms over node -e 0): ${verdict(cold.auditCleanMs)}`);
// On a loaded machine wall time says more about the other jobs than about the CLI; CPU time holds up.
console.log(`by CPU time (user + sys, steadier under load): with a v1 call ${cold.auditV1CpuMs.toFixed(0)} ms ${verdict(cold.auditV1CpuMs)}; without ${cold.auditCleanCpuMs.toFixed(0)} ms ${verdict(cold.auditCleanCpuMs)}\n`);
if (process.argv.includes("--cold-start-only")) process.exit(0);

const rows: string[] = [];
rows.push("| corpus | files | lines | v1 files | tool | wall ms (process) | CPU ms (process) | in-process ms (cold) | in-process ms (warm) | files/s (warm) | lines/s (warm) | peak RSS MB | peak heap MB |");
rows.push("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const variant of variants)
for (const size of sizes) {
  const corpus = makeCorpus(size, variant);
  const measure = (label: string, fn: () => Sample) => {
    fn(); // warm the page cache (and tsx's transform cache)
    const samples = Array.from({ length: runs }, fn);
    const wall = median(samples.map((s) => s.wallMs));
    const cpu = samples[0]!.cpuMs !== undefined ? median(samples.map((s) => s.cpuMs!)) : undefined;
    const inner = samples[0]!.innerMs !== undefined ? median(samples.map((s) => s.innerMs!)) : undefined;
    const rss = Math.max(...samples.map((s) => s.maxRssKb ?? 0)) / 1024;
    const heap = samples[0]!.peakHeap !== undefined ? Math.max(...samples.map((s) => s.peakHeap!)) / 2 ** 20 : undefined;
    const warm = samples[0]!.warmMs !== undefined ? median(samples.map((s) => s.warmMs!)) : undefined;
    const basis = warm ?? inner ?? wall;
    rows.push(
      `| ${variant} | ${size} | ${corpus.lines} | ${corpus.v1Files} | ${label} | ${wall.toFixed(0)} | ${cpu === undefined ? "–" : cpu.toFixed(0)} | ${inner === undefined ? "–" : inner.toFixed(0)} | ${warm === undefined ? "–" : warm.toFixed(0)} | ${Math.round((size / basis) * 1000)} | ${Math.round((corpus.lines / basis) * 1000)} | ${rss.toFixed(0)} | ${heap === undefined ? "–" : heap.toFixed(0)} |`,
    );
    console.log(`  ${variant} ${size} files: ${label} ${JSON.stringify(samples[0]!.detail ?? {})}`);
    return { wall, inner, warm, cpu };
  };
  const g = measure("grep -rl rest.runpod.io", () => grep(corpus.dir));
  const ac = measure("`v2-bridge audit` (CLI process)", () => cli("audit", corpus.dir));
  const wc = measure("`v2-bridge rewrite` dry run (CLI process)", () => cli("rewrite", corpus.dir));
  const a = measure("audit (runCodemod in a worker)", () => worker("audit", corpus.dir));
  const w = measure("rewrite dry run (runCodemod in a worker)", () => worker("rewrite", corpus.dir));
  const j = measure("jscodeshift no-op (parse only, 2 workers)", () => worker("jscodeshift", corpus.dir));
  console.log(
    `  ${size} files: audit CLI/grep = ${(ac.wall / g.wall).toFixed(1)}× by process wall time, ${(a.warm! / g.wall).toFixed(1)}× warm in-process; rewrite CLI/jscodeshift = ${(wc.wall / j.wall).toFixed(2)}× (process), ${(w.inner! / j.inner!).toFixed(2)}× (in-process, cold)`,
  );
  if (!keep) rmSync(path.dirname(corpus.dir), { recursive: true, force: true });
  else console.log(`  corpus kept at ${corpus.dir}`);
}
console.log("\n" + rows.join("\n"));
