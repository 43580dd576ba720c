// gateway/ is laid out by concern: wiring (server.ts) and configuration (config.ts) at the top,
// everything else in one folder per concern, each described in docs/gateway.md ("Code layout").
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const entries = readdirSync(path.join(ROOT, "gateway"), { withFileTypes: true });

describe("gateway layout", () => {
  it("holds only server.ts and config.ts beside its folders", () => {
    expect(entries.filter((e) => e.isFile()).map((e) => e.name).sort()).toEqual(["config.ts", "server.ts"]);
  });

  it("describes every folder in docs/gateway.md, and no folder that is gone", () => {
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
    const doc = readFileSync(path.join(ROOT, "docs/gateway.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Code layout"), doc.indexOf("## Running it"));
    const listed = [...section.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(folders);
  });
});
