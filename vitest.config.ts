import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (over 40 s each on two CI cores), started first: on a clean clone
 * vitest has no timings and starts larger files first, and a long file started last kept one
 * worker busy alone at the end of the run.
 */
const SLOWEST = ["test/codemod/fixtures.test.ts", "test/codemod/typecheck.test.ts", "test/codemod/typecheck-before-after.test.ts", "test/verify/client-app.test.ts", "test/package/pack-install.test.ts"];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((s) => f.moduleId.endsWith(s));
      return i === -1 ? SLOWEST.length : i;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/fixtures/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on CI: forks keep each file's servers isolated without oversubscribing.
    pool: "forks",
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    // dist/ built once before the first file: the CLI tests run the built CLI (test/helpers/cli.ts).
    globalSetup: ["test/global-setup.ts"],
  },
});
