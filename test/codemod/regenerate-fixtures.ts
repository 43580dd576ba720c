// Rewrites every fixture's expected output from the current engine (review the diff before committing):
//   npx tsx test/codemod/regenerate-fixtures.ts [concept/case …]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { casePairs, cleanup, fixtureCases, rewriteCase } from "./fixture-helpers.ts";

const wanted = process.argv.slice(2);
for (const name of fixtureCases()) {
  if (wanted.length && !wanted.includes(name)) continue;
  const { outputs, tmp } = await rewriteCase(name);
  for (const p of casePairs(name)) {
    mkdirSync(path.dirname(p.output), { recursive: true });
    writeFileSync(p.output, outputs.get(p.rel)!);
  }
  cleanup(tmp);
}
