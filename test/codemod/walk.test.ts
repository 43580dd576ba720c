// The walk's ignore rules against git's own: every file `git ls-files --others --exclude-standard`
// lists (node_modules aside, which the walk always skips) and no other, over nested .gitignore
// files with anchored, negated, directory-only and name-only patterns, and the rules of a parent
// directory when the walk starts below the repository's root.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TreeListing, walkSources } from "../../codemod/walk.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

const FILES: Record<string, string> = {
  ".gitignore": "*.log\ndist/\n/build\n!keep.log\nsecret*\n",
  "a.ts": "",
  "a.log": "",
  "keep.log": "",
  "build/x.ts": "",
  "pkg/build/y.ts": "",
  "pkg/dist/z.ts": "",
  "pkg/secret.env": "",
  "pkg/.gitignore": "gen/*.ts\n!gen/keep.ts\n*.tmp\n",
  "pkg/gen/a.ts": "",
  "pkg/gen/keep.ts": "",
  "pkg/gen/b.js": "",
  "pkg/sub/gen/c.ts": "",
  "pkg/sub/d.tmp": "",
  "pkg/sub/e.ts": "",
  "apps/web/.gitignore": "*.generated.ts\n",
  "apps/web/src/page.ts": "",
  "apps/web/src/page.generated.ts": "",
  "apps/web/node_modules/lib/index.js": "",
};

function repo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "walk-"));
  temps.push(dir);
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

const gitListing = (cwd: string) =>
  execFileSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.includes("node_modules/"))
    .sort();

describe("walkSources", () => {
  it("lists what git lists, from the repository's root", async () => {
    const dir = repo();
    const files = (await walkSources(dir, () => true)).map((f) => path.relative(dir, f).split(path.sep).join("/"));
    expect(files).toEqual(gitListing(dir));
  });

  it("applies the parent directories' rules when it starts below the root", async () => {
    const dir = repo();
    const sub = path.join(dir, "pkg");
    const files = (await walkSources(sub, () => true)).map((f) => path.relative(sub, f).split(path.sep).join("/"));
    expect(files).toEqual(gitListing(sub));
  });

  it("one listing serves several name filters, each checked against the rules", async () => {
    const dir = repo();
    const listing = new TreeListing();
    const ts = await walkSources(dir, (n) => n.endsWith(".ts"), listing);
    const logs = await walkSources(dir, (n) => n.endsWith(".log"), listing);
    expect(ts.map((f) => path.relative(dir, f))).toEqual(gitListing(dir).filter((f) => f.endsWith(".ts")));
    expect(logs.map((f) => path.relative(dir, f))).toEqual(["keep.log"]);
  });
});
