// Fixture cases, shard 1 (fixture-suite.ts says what each case checks), and the catalogue: the
// concepts and call shapes there must be a case for, and the shard files that run them all.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixtureCases } from "./fixture-helpers.ts";
import { fixtureShard, FIXTURE_SHARDS, shardCases } from "./fixture-suite.ts";

const cases = fixtureCases();

describe("codemod fixtures", () => {
  it("has a case for every call shape, grouped by concept", () => {
    const concepts = new Set(cases.map((c) => c.split("/")[0]));
    for (const c of ["urls", "helpers", "classes", "factories", "wrappers", "openapi-fetch", "bodies", "lists", "errors", "records", "response-branches", "negatives"]) expect(concepts).toContain(c);
    for (const name of [
      "factories/create-request-ts", "factories/options-object-js", "classes/private-call-method", "classes/default-base-url-constant",
      "classes/axios-instance", "classes/injected-fetch-js", "wrappers/fetch-with-retry", "wrappers/with-timeout",
      "wrappers/global-fetch-fallback-cjs", "wrappers/injected-fetch-impl-ts", "urls/exported-constant-service-tools",
      "openapi-fetch/typed-client", "urls/inline-template-base", "lists/json-parse-text", "records/poll-until-running",
      "urls/dynamic-kind", "urls/env-default", "urls/index-reexport", "urls/tsconfig-paths-alias",
    ]) expect(cases).toContain(name);
  });

  it("runs every case in exactly one shard file, and a shard file exists for every shard", () => {
    const shards = Array.from({ length: FIXTURE_SHARDS }, (_, i) => shardCases(i + 1, cases));
    expect(shards.flat().sort()).toEqual(cases);
    expect(shards.every((s) => s.length > 0)).toBe(true);
    const files = readdirSync(path.dirname(fileURLToPath(import.meta.url))).filter((f) => /^fixtures(-.*)?\.test\.ts$/.test(f));
    expect(files.sort()).toEqual(Array.from({ length: FIXTURE_SHARDS }, (_, i) => `fixtures-${i + 1}.test.ts`).sort());
  });
});

fixtureShard(1);
