// Every fixture case: expected output, idempotence, audit-after-rewrite, and jscodeshift parity.
// The cases are split over the files test/codemod/fixtures-<k>.test.ts (k = 1..FIXTURE_SHARDS),
// each running every check below over its share: one file of all ~450 cases kept one of CI's two
// workers busy alone for the run's last minutes. Run one case with
// `npx vitest run test/codemod/fixtures -t '<concept>/<case>'` (every shard file, one case).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { countMarks } from "../../codemod/engine/todo-marks.ts";
import { MARK_DETAILS } from "../../codemod/mark-details.ts";
import { casePairs, cleanup, copyCase, fixtureCases, isNegative, rewriteCase, FIXTURES } from "./fixture-helpers.ts";

/** How many shard files there are; fixtures-1.test.ts checks that exactly these exist. */
export const FIXTURE_SHARDS = 4;

/**
 * Shard k's cases (1-based): every FIXTURE_SHARDS-th case of the sorted list, so that each concept's
 * cases (multi-file ones, adapter ones) spread over every shard and the shards cost about the same.
 */
export function shardCases(k: number, cases: string[] = fixtureCases()): string[] {
  return cases.filter((_, i) => i % FIXTURE_SHARDS === k - 1);
}

/** The checks of every case of shard k, and the jscodeshift parity over its single-file cases. */
export function fixtureShard(k: number): void {
  const cases = shardCases(k);
  const temps: string[] = [];
  afterAll(() => temps.forEach(cleanup));

  describe("codemod fixtures", () => {
    describe.each(cases)("%s", (name) => {
      it("rewrites to output, then changes nothing on a second run, and the audit sees only leftovers", async () => {
        const { outputs, tmp, result } = await rewriteCase(name);
        temps.push(tmp);
        for (const pair of casePairs(name)) {
          expect(existsSync(pair.output), `${pair.output} missing`).toBe(true);
          expect(outputs.get(pair.rel), `${name}/${pair.rel}`).toBe(readFileSync(pair.output, "utf8"));
        }
        expect(result.parseErrors).toEqual([]);
        if (isNegative(name)) {
          for (const pair of casePairs(name)) expect(outputs.get(pair.rel)).toBe(readFileSync(pair.input, "utf8"));
          expect(result.findings).toEqual([]);
        } else {
          expect(result.summary.filesChanged).toBeGreaterThan(0);
        }
        // Idempotent: a second run over the rewritten files changes nothing (TODO marks included),
        // nor the details of the marks kept beside them (the positions they quote, their order).
        const details = path.join(tmp, MARK_DETAILS);
        const kept = existsSync(details) ? readFileSync(details, "utf8") : undefined;
        const again = await runCodemod({ paths: [tmp], write: true, diff: true });
        expect(again.files.filter((f) => f.changed).map((f) => f.diff)).toEqual([]);
        expect(existsSync(details) ? readFileSync(details, "utf8") : undefined, `${name}: ${MARK_DETAILS} after a second run`).toBe(kept);
        // What remains for the audit is what a human must do; TODO-marked sites still count.
        const todoCount = [...outputs.values()].reduce((n, text) => n + countMarks(text), 0);
        expect(again.findings.every((f) => f.category !== "auto")).toBe(true);
        expect(again.findings.length).toBe(todoCount);
      });
    });
  });

  describe("jscodeshift entry point", () => {
    const require = createRequire(import.meta.url);
    // jscodeshift sees one file at a time: cases whose rewrite needs another module are CLI-only.
    // It also cannot write the boundary adapter module (a transform writes only its own file), so it
    // is compared with the CLI engine run without the adapter (`rewrite --no-adapter`).
    const singleFile = cases.filter((c) => !existsSync(path.join(FIXTURES, c, "input")));

    it(`gives the same output as the CLI engine for every single-file fixture of shard ${k} of ${FIXTURE_SHARDS}`, async () => {
      const { run } = require("jscodeshift/src/Runner.js") as { run: (t: string, p: string[], o: object) => Promise<{ ok: number; error: number }> };
      const tmp = mkdtempSync(path.join(os.tmpdir(), "codemod-jscs-"));
      temps.push(tmp);
      const expected = new Map<string, string>();
      for (const name of singleFile) {
        const cli = copyCase(name);
        temps.push(cli);
        await runCodemod({ paths: [cli], write: true, adapter: false });
        for (const pair of casePairs(name)) {
          const target = path.join(tmp, name, pair.rel);
          cpSync(pair.input, target);
          const out = readFileSync(path.join(cli, pair.rel), "utf8");
          expected.set(target, out);
        }
      }
      const stats = await run(path.resolve("codemod/jscodeshift.cjs"), [tmp], {
        babel: false,
        runInBand: true,
        silent: true,
        verbose: 0,
        extensions: "ts,tsx,js,jsx,cjs,mjs",
        ignorePattern: [],
      });
      expect(stats.error).toBe(0);
      for (const [file, want] of expected) expect(readFileSync(file, "utf8"), file).toBe(want);
      rmSync(tmp, { recursive: true, force: true });
      // Two engines over a shard's single-file cases: bounded work, more than the default 30 s on a loaded 2-core machine.
    }, 180_000);
  });
}
