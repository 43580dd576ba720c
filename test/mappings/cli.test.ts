// `v2-bridge mappings` as a user runs it: a real process, real stdout. It runs the development
// entry (tsx over the sources, as `npm start` and the docs script do); the other CLI tests run the build.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SOURCE_CLI } from "../helpers/cli.ts";

const cli = SOURCE_CLI;
const run = (...args: string[]) => execFileSync(process.execPath, [cli, ...args], { encoding: "utf8" });

describe("v2-bridge mappings", () => {
  it("--format json prints one object per v1 operation with the documented fields", () => {
    const table = JSON.parse(run("mappings", "--format", "json")) as any[];
    expect(table).toHaveLength(37);
    const start = table.find((o) => o.v1.method === "POST" && o.v1.path === "/pods/{podId}/start");
    expect(start).toMatchObject({ v2: { method: "POST", path: "/v2/pods/{id}/action" }, status: "mapped", request: { fixedBody: { action: "start" } } });
    const reset = table.find((o) => o.v1.path === "/pods/{podId}/reset");
    expect(reset).toMatchObject({ v2: null, status: "no-equivalent" });
    for (const o of table) expect(["mapped", "emulated", "no-equivalent"]).toContain(o.status);
  });

  it("--format markdown prints the human table", () => {
    expect(run("mappings", "--format", "markdown")).toContain("| v1 | v2 | status | changes |");
  });

  it("rejects an unknown format with a clear message", () => {
    expect(() => execFileSync(process.execPath, [cli, "mappings", "--format", "yaml"], { encoding: "utf8", stdio: "pipe" })).toThrow(/Allowed choices are json, markdown/);
  });
});
