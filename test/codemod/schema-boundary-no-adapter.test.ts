// `rewrite --no-adapter`: a schema of the app's own validating an answer in v1 shape is no boundary
// the codemod can serve, so each such call keeps the mark naming the schema (and stays v1), and the
// error schema's parse is marked, as before the adapter served them (adapter/schema-boundary).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { cleanup, copyCase } from "./fixture-helpers.ts";

describe("schemas validating answers under --no-adapter", () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach(cleanup));

  it("keeps the schemas' marks and writes no adapter call", async () => {
    const tmp = copyCase("adapter/schema-boundary");
    temps.push(tmp);
    const result = await runCodemod({ paths: [tmp], write: true, adapter: false });
    const read = (f: string) => readFileSync(path.join(tmp, "lib", f), "utf8");
    for (const f of ["client.ts", "templates.ts", "volumes.ts", "pods.ts"]) expect(read(f)).not.toContain("v2Adapter");
    expect(read("templates.ts")).toContain("the zod schema z.array(TemplateRow) expects an array");
    expect(read("templates.ts")).toContain("the zod schema TemplateRow validates the answer in v1 field names");
    expect(read("client.ts")).toContain("goes to the zod schema Problem");
    // A schema naming only fields v2 keeps needs no adapter.
    expect(read("volumes.ts")).toContain("fetchChecked(VolumeBasics, `/network-volumes/${id}`)");
    expect(result.findings.some((f) => f.operation === "GetNetworkVolume" && /VolumeRow/.test(f.reason))).toBe(true);
  }, 120_000);
});
