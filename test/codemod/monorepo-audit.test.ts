// The audit over a generated monorepo (the tree `npm run bench:monorepo` times at 25,000 files,
// here small): every planted v1 site of the one client package is found, site by site, and
// nothing else is reported — not the vendored SDK under node_modules, not gitignored build
// output, not the console app's own `/pods` routes. The console app behind its router is not
// parsed: the router only renders the pages that call the client.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { checkSites } from "../../bench/monorepo/check.ts";
import { generateMonorepo, writeTree } from "../../bench/monorepo/tree.ts";

const base = mkdtempSync(path.join(os.tmpdir(), "monorepo-audit-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("audit over a generated monorepo with one v1 client package", { timeout: 120_000 }, () => {
  const tree = generateMonorepo(1500, 7);
  const dir = path.join(base, "acme");
  writeTree(dir, tree);

  it("finds every planted site, one finding each, and no site anywhere else", async () => {
    const result = await runCodemod({ paths: [dir], textFiles: true });
    const check = checkSites(result.findings, tree.sites);
    expect(check.missing).toEqual([]);
    expect(check.unexpected).toEqual([]);
    expect(check.found).toBe(tree.sites.length);
    expect(result.findings.filter((f) => !f.file.startsWith("packages/cloud-client/"))).toEqual([]);
    expect(result.summary.files).toBeGreaterThan(1000);
    // The client package and the console's pages, routes and entry: not the app behind the router.
    expect(result.summary.filesParsed).toBeLessThanOrEqual(20);
  });

  it("the tree is the same for the same seed, and exactly the size asked for", () => {
    const again = generateMonorepo(1500, 7);
    expect(again.files.length).toBe(1500);
    expect(new Set(again.files.map((f) => f.rel)).size).toBe(1500);
    expect(again.files).toEqual(tree.files);
    expect(again.sites).toEqual(tree.sites);
  });
});
