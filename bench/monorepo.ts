// `npm run bench:monorepo`: `v2-bridge audit` over a generated 25,000-file monorepo with one v1
// client package (bench/monorepo/tree.ts), against `grep -rl rest.runpod.io` over the same tree.
// Both run as a user runs them, each in its own process (the compiled CLI: `npm run build`),
// interleaved (grep, audit, grep, audit, …) after a warm-up of each, so that other work on a
// shared machine hits both alike; the median is reported. Prints wall and CPU time of each, the
// ratio, the audit's peak RSS, and the planted sites the audit found (file, line, operation).
// Figures, not assertions: test/codemod/monorepo-audit.test.ts checks the sites on a small tree.
//
//   npm run bench:monorepo [-- --files 25000 --runs 5 --seed 25000 --keep --cli <other checkout>/dist/bin/v2-bridge.js]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkSites } from "./monorepo/check.ts";
import { generateMonorepo, writeTree } from "./monorepo/tree.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Run {
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
  stdout: string;
}

/** One process under /usr/bin/time (peak RSS and user + sys CPU of that process alone). */
function timed(cmd: string, args: string[], ok: number[]): Run {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M %U %S", cmd, ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 256 << 20 });
  const wallMs = performance.now() - t0;
  if (!ok.includes(r.status ?? -1)) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  const [maxRssKb, user, sys] = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  return { wallMs, cpuMs: (user! + sys!) * 1000, maxRssKb: maxRssKb!, stdout: r.stdout };
}

const files = Number(arg("--files", "25000"));
const runs = Number(arg("--runs", "5"));
const seed = Number(arg("--seed", "25000"));
/** Another build of the CLI (an older checkout's, for a before/after figure). */
const CLI = path.resolve(arg("--cli", path.join(ROOT, "dist", "bin", "v2-bridge.js")));
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm run bench:monorepo does)`);

const t0 = performance.now();
const tree = generateMonorepo(files, seed);
const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "bench-monorepo-")), "acme");
writeTree(dir, tree);
const count = (re: RegExp) => tree.files.filter((f) => re.test(f.rel)).length;
const bytes = tree.files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
console.log(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log(`grep: ${execFileSync("grep", ["--version"], { encoding: "utf8" }).split("\n")[0]}`);
console.log(
  `tree: ${tree.files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MB, ${tree.packages} packages (seed ${seed}; written in ${((performance.now() - t0) / 1000).toFixed(1)} s): ` +
    `${count(/\.(ts|tsx|js|jsx|mjs|cjs)$/)} JS/TS (${count(/\.d\.ts$/)} .d.ts), ${count(/\.json$/)} JSON, ${count(/\.md$/)} Markdown; ` +
    `${count(/(^|\/)node_modules\//)} under node_modules and ${count(/(^|\/)dist\//) - count(/node_modules\/.*dist\//)} in gitignored dist/ (audit skips both, grep reads them)`,
);
console.log(`cli: ${CLI}`);
console.log(`planted: ${tree.sites.length} v1 sites in packages/cloud-client (fetch wrapper, axios instance with baseURL, config object base, one shell script)`);

const grep = () => timed("grep", ["-rl", "rest.runpod.io", dir], [0]);
const audit = () => timed(process.execPath, [CLI, "audit", dir, "--format", "json", "--no-progress"], [0, 1]);
grep();
const first = audit(); // warm-up (page cache), and the findings checked below
const g: Run[] = [];
const a: Run[] = [];
for (let i = 0; i < runs; i++) g.push(grep()), a.push(audit());

const gWall = median(g.map((r) => r.wallMs));
const aWall = median(a.map((r) => r.wallMs));
const gCpu = median(g.map((r) => r.cpuMs));
const aCpu = median(a.map((r) => r.cpuMs));
const report = JSON.parse(first.stdout) as { findings: { file: string; line: number; operation: string | null; reason: string }[] };
const check = checkSites(report.findings, tree.sites);
const grepFiles = g[0]!.stdout.trim().split("\n").filter(Boolean);

console.log(`\n${runs} interleaved runs each, median (after one warm-up run of each):\n`);
console.log("| tool | wall ms | CPU ms (user + sys) | peak RSS MB | result |");
console.log("|---|---:|---:|---:|---|");
console.log(`| \`grep -rl rest.runpod.io\` | ${gWall.toFixed(0)} | ${gCpu.toFixed(0)} | ${(Math.max(...g.map((r) => r.maxRssKb)) / 1024).toFixed(0)} | ${grepFiles.length} files (${grepFiles.filter((f) => f.includes("/node_modules/")).length} under node_modules) |`);
console.log(`| \`v2-bridge audit --format json\` | ${aWall.toFixed(0)} | ${aCpu.toFixed(0)} | ${(Math.max(first.maxRssKb, ...a.map((r) => r.maxRssKb)) / 1024).toFixed(0)} | ${report.findings.length} findings, ${check.found}/${check.expected} planted sites |`);
console.log(`\naudit / grep: ${(aWall / gWall).toFixed(1)}× by wall time, ${(aCpu / gCpu).toFixed(1)}× by CPU time (goal: within 10×)`);
console.log(`sites found: ${check.found}/${check.expected}${check.missing.length ? `; missing: ${check.missing.join(", ")}` : ""}${check.unexpected.length ? `; unexpected: ${check.unexpected.join(", ")}` : ""}`);
for (const o of check.other) console.log(`other finding (no operation): ${o.length > 160 ? o.slice(0, 160) + "…" : o}`);
console.log(`all wall ms: grep ${g.map((r) => r.wallMs.toFixed(0)).join(" ")}; audit ${a.map((r) => r.wallMs.toFixed(0)).join(" ")}`);

if (process.argv.includes("--keep")) console.log(`tree kept at ${dir}`);
else rmSync(path.dirname(dir), { recursive: true, force: true });
