// `v2-bridge verify`: runs the client's own command twice, before (the original tree; v1 host →
// gateway → a fresh seeded sandbox) and after (the rewritten tree; v2 host → a fresh sandbox of
// the same seed), records the v2 requests reaching the sandbox, and compares the runs by effect.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadDocument, locateReference, type OpenApiDocument } from "../openapi/reference.ts";
import { VERSION } from "../product/package-info.ts";
import { prepareAfterTree, type AfterTree } from "./after-tree.ts";
import { childEnv } from "./child-env.ts";
import { preparePreload } from "./preload-module.ts";
import { compareRuns, tail, type RunSide } from "./compare-runs.ts";
import { view } from "./compare-steps.ts";
import { coverageOf } from "./coverage.ts";
import { apiHosts } from "./hosts.ts";
import { kindOf, Normaliser } from "./normalise.ts";
import { operationNamer, type OperationNamer } from "./operations.ts";
import type { Hit } from "./recorder.ts";
import { labelRecordIds, snapshotRecords } from "./records.ts";
import { exitCodeOf, SCOPE, type RunSummary, type VerifyReport } from "./report-types.ts";
import { runCommand } from "./run-command.ts";
import { startRunServers } from "./servers.ts";
import { apiOf, buildRun, type ApiHosts } from "./steps.ts";

export type VerifyOptions = {
  command: string[];
  /** The project (the original tree); default: the working directory. */
  root?: string;
  after?: string;
  afterRef?: string;
  compareOutput?: boolean;
  seed?: string;
  bootMs?: number;
  /** Per run. */
  timeoutMs?: number;
  referenceDir?: string;
  /** Keep the temporary rewritten tree (its path is in the report). */
  keep?: boolean;
  /** Where the command runs (inside root; default the working directory): the same place in the after tree. */
  cwd?: string;
  /** One line per phase, for a person watching. */
  progress?: (line: string) => void;
  /** The command's own output as it comes. */
  echo?: (chunk: string) => void;
};

/** verify was stopped by a signal while the command ran (its temporary files are removed first). */
export class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
  }
}

export const DEFAULT_SEED = "v2-bridge-verify";
export const DEFAULT_TIMEOUT_MS = 600_000;

export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const root = path.resolve(options.root ?? cwd);
  const seed = options.seed ?? DEFAULT_SEED;
  const progress = options.progress ?? (() => {});
  const docs = { v1: document("v1-openapi.json", options.referenceDir), v2: document("v2-openapi.json", options.referenceDir) };
  const hosts = apiHosts(docs.v1?.doc ?? null, docs.v2?.doc ?? null);
  const name = operationNamer(docs.v2?.doc ?? null);
  const within = path.relative(root, cwd);
  const rel = within.startsWith("..") || path.isAbsolute(within) ? "" : within;

  progress(options.after ? `after tree: ${options.after}` : options.afterRef ? `after tree: ${options.afterRef} of ${root}` : "rewriting a temporary copy of the project (rewrite --write)…");
  const afterTree = await prepareAfterTree({ root, after: options.after, afterRef: options.afterRef });
  const preload = await preparePreload();
  try {
    const run = async (label: "before" | "after", tree: string) => {
      progress(`${label}: ${options.command.join(" ")}  (in ${path.join(tree, rel)})`);
      return runOnce({ ...options, seed, hosts, name, tree, cwd: path.join(tree, rel), openapiPath: docs.v2?.file ?? false, referenceDir: options.referenceDir, preloadUrl: preload.url });
    };
    const before = await run("before", root);
    const after = await run("after", afterTree.dir);
    return report(options, { root, seed, hosts, afterTree, before, after });
  } finally {
    preload.cleanup();
    if (!options.keep) afterTree.cleanup();
  }
}

function document(name: "v1-openapi.json" | "v2-openapi.json", dir?: string): { file: string; doc: OpenApiDocument } | null {
  const located = locateReference(name, dir);
  return located.found ? { file: located.file, doc: loadDocument(located.file) } : null;
}

type RunOnce = VerifyOptions & { seed: string; hosts: ApiHosts; name: OperationNamer; tree: string; cwd: string; openapiPath: string | false; preloadUrl: string };

async function runOnce(o: RunOnce): Promise<RunSide> {
  const servers = await startRunServers({ seed: o.seed, bootMs: o.bootMs ?? 0, openapiPath: o.openapiPath, referenceDir: o.referenceDir });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "v2-bridge-verify-events-"));
  try {
    const eventsFile = path.join(scratch, "events.jsonl");
    const routes = { [o.hosts.v1]: servers.gatewayUrl, [o.hosts.v2]: servers.sandboxUrl };
    const { env } = childEnv(process.env, o.preloadUrl, routes, eventsFile);
    const command = await runCommand(o.command, { cwd: o.cwd, env, timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS, eventsFile, echo: o.echo });
    if (command.interrupted) throw new Interrupted(command.interrupted);
    const hits = servers.hits();
    const records = await snapshotRecords(servers.sandboxUrl, servers.store);
    const data = buildRun(hits, command.events, o.hosts, o.name);
    const normaliser = new Normaliser();
    labelCreatedIds(normaliser, hits);
    labelRecordIds(records, normaliser);
    return { steps: data.steps, normaliser, tree: o.tree, data, records, command };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await servers.close();
  }
}

/** Ids answered by creates, in the order the run made them: the records' labels follow the calls. */
function labelCreatedIds(normaliser: Normaliser, hits: Hit[]): void {
  for (const h of hits) {
    if (h.method !== "POST" || h.status < 200 || h.status > 299 || !h.answer || typeof h.answer !== "object") continue;
    normaliser.add((h.answer as { id?: unknown }).id, kindOf(h.route ?? h.path));
  }
}

function summary(side: RunSide, hosts: ApiHosts): RunSummary {
  const c = side.command;
  const failed = c.exitCode !== 0 || c.timedOut || !!c.spawnError;
  const calls = (api: "v1" | "v2") => side.data.calls.filter((call) => apiOf(call, hosts) === api).length;
  return {
    exitCode: c.exitCode,
    signal: c.signal,
    timedOut: c.timedOut,
    durationMs: Math.round(c.durationMs),
    processes: side.data.processes,
    calls: { v1: calls("v1"), v2: calls("v2") },
    v2Requests: side.data.hits.length,
    operations: side.steps.length,
    trace: side.steps.map((step, i) => view(step, i, side)),
    ...(failed ? { stderrTail: (c.spawnError ? [c.spawnError] : tail("stderr", c.stderr, 12)).join("\n") } : {}),
  };
}

function report(options: VerifyOptions, r: { root: string; seed: string; hosts: ApiHosts; afterTree: AfterTree; before: RunSide; after: RunSide }): VerifyReport {
  const comparison = compareRuns(r.before, r.after, { compareOutput: !!options.compareOutput });
  const coverage = coverageOf(r.before, r.after, r.afterTree.findings);
  const noCalls = !r.before.data.calls.length && !r.after.data.calls.length && !r.before.data.hits.length && !r.after.data.hits.length;
  const verdict = noCalls ? "no-calls" : comparison.differences.length || comparison.divergence ? "different" : "equivalent";
  const noCallsItem = noCalls
    ? [{ kind: "no-calls" as const, severity: "difference" as const, message: noCallsMessage(r.before.data.processes + r.after.data.processes, r.hosts), details: tail("before's stderr", r.before.command.stderr) }]
    : [];
  return {
    tool: "v2-bridge",
    kind: "verify",
    version: 1,
    toolVersion: VERSION,
    verdict,
    command: options.command,
    root: r.root,
    after: { dir: r.afterTree.dir, how: r.afterTree.how, ...(r.afterTree.rewrite ? { filesChanged: r.afterTree.rewrite.filesChanged, leftForReview: r.afterTree.rewrite.leftForReview } : {}) },
    seed: r.seed,
    hosts: r.hosts,
    runs: { before: summary(r.before, r.hosts), after: summary(r.after, r.hosts) },
    divergence: comparison.divergence,
    differences: [...noCallsItem, ...comparison.differences],
    notes: comparison.notes,
    coverage,
    scope: SCOPE,
  };
}

function noCallsMessage(processes: number, hosts: ApiHosts): string {
  const why = processes
    ? `${processes} Node process${processes === 1 ? "" : "es"} ran with the preload and none called ${hosts.v1} or ${hosts.v2}`
    : "no Node process ran with the preload (is the command a Node program? non-Node clients are out of scope)";
  return `the command made no API calls in either run, so nothing was verified: ${why}`;
}

export { exitCodeOf };
