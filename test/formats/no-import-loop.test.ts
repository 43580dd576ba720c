// formats/ and report/ never import the gateway (statically or on demand): the gateway imports
// them (usage store, live report), so any such import would be a gateway → report → gateway loop.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SPECIFIER = /(?:from\s*|import\s*\(\s*|import\s+)["']([^"']+)["']/g;

function importsOf(dir: string): { file: string; target: string }[] {
  const out: { file: string; target: string }[] = [];
  for (const name of readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
    if (!name.endsWith(".ts")) continue;
    const file = path.join(ROOT, dir, name);
    for (const m of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (!m[1]!.startsWith(".")) continue;
      out.push({ file: path.relative(ROOT, file), target: path.relative(ROOT, path.resolve(path.dirname(file), m[1]!)) });
    }
  }
  return out;
}

describe("import direction", () => {
  it.each(["formats", "report"])("%s/ imports nothing from gateway/", (dir) => {
    const found = importsOf(dir);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((i) => i.target.startsWith(`gateway${path.sep}`))).toEqual([]);
  });

  it("formats/ imports nothing from report/ (the report reads through formats/)", () => {
    expect(importsOf("formats").filter((i) => i.target.startsWith(`report${path.sep}`))).toEqual([]);
  });
});
