import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (over 40 s each on two CI cores), started first: on a clean clone
 * vitest has no timings and starts larger files first, and a long file started last kept one
 * worker busy alone at the end of the run. The two isolated ones come before the shared ones, so
 * that each worker switches from a fresh process to a shared one once (a switch back costs the
 * shared module graph: TypeScript, ts-morph and the engine loaded again). The fixture cases are
 * split over several files (test/codemod/fixture-suite.ts) for the same reason: one file of them
 * all was 220 s of one worker.
 */
const SLOWEST = [
  "test/verify/client-app.test.ts",
  "test/package/pack-install.test.ts",
  "test/codemod/typecheck-before-after.test.ts",
  "test/codemod/typecheck.test.ts",
  /test\/codemod\/fixtures-\d+\.test\.ts$/,
];

/**
 * Test files that share one module graph per worker (`isolate: false`): the codemod's and the
 * mappings' tests import TypeScript and ts-morph, and each fresh process paid that import and
 * parsed the standard library's declarations again (codemod/shared-lib-files.ts keeps them per
 * process): a fresh process's first codemod run cost 6.6 s CPU, a warm one 0.3–0.6 s. These files
 * leave no process state behind for the next file: the shared project's setup file
 * (test/helpers/leaves-no-state.ts) fails a file that changed process.env, fetch and its kin,
 * undici's global dispatcher or the process streams' writers and did not put them back (the e2e
 * files set the environment and replace fetch, and e2eScope restores both; audit.test.ts spies on
 * the streams and restores them). The gateway's, sandbox's, report's, OpenAPI checks' and product
 * tests share too: each isolated gateway file imported the gateway and the sandbox again (about
 * 1.8 s CPU a file). The files below stay isolated: `vi.mock`
 * replaces a module for the whole module graph. Every other test file runs in a fresh process.
 */
const NOT_SHARED = [
  /\/bounded-reads\.test\.ts$/, // vi.mock of node:fs/promises
  /\/unparseable-output\.test\.ts$/, // vi.mock of the engine's apply-edits
  /\/held-file\.test\.ts$/, // vi.mock of the engine's apply-edits
];
const SHARED = ["test/codemod", "test/mappings", "test/formats", "test/gateway", "test/report", "test/sandbox", "test/openapi", "test/product"]
  .flatMap((dir) => readdirSync(path.join(path.dirname(fileURLToPath(import.meta.url)), dir)).filter((f) => f.endsWith(".test.ts")).map((f) => `${dir}/${f}`))
  .filter((f) => !NOT_SHARED.some((re) => re.test(f)));
const EXCLUDED = ["test/fixtures/**", "node_modules/**"];

/** The slowest first (SLOWEST), then the shared files back to back: a worker keeps its module graph only while the next file is a shared one. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((s) => (typeof s === "string" ? f.moduleId.endsWith(s) : s.test(f.moduleId)));
      if (i !== -1) return i;
      return f.project.name === "shared" ? SLOWEST.length : SLOWEST.length + 1;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // Two cores on CI: forks keep each file's servers isolated without oversubscribing.
  pool: "forks" as const,
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    // dist/ built once before the first file: the CLI tests run the built CLI (test/helpers/cli.ts).
    // Only the root's global setup: the projects below do not extend the root, so it runs once.
    globalSetup: ["test/global-setup.ts"],
    projects: [
      { test: { ...common, name: "shared", include: SHARED, exclude: EXCLUDED, isolate: false, setupFiles: ["test/helpers/leaves-no-state.ts"] } },
      { test: { ...common, name: "isolated", include: ["test/**/*.test.ts"], exclude: [...EXCLUDED, ...SHARED], isolate: true } },
    ],
  },
});
