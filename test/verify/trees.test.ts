// Where the "after" tree comes from: a git ref of the project (`--after-ref`, also from a
// subdirectory of the repository), or a temporary copy (node_modules linked, .git left out).
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { prepareAfterTree, TreeError } from "../../verify/after-tree.ts";
import { runVerify } from "../../verify/index.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { cleanupProjects, FIXTURES } from "./helpers.ts";

const temps: string[] = [];
const tmp = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** A repository whose `app/` holds the billing client: v1 on main, rewritten on branch `migrated`. */
async function repository(): Promise<{ repo: string; app: string }> {
  const repo = tmp("v2b-verify-repo-");
  const app = path.join(repo, "app");
  mkdirSync(app);
  for (const f of ["billing.mjs", "main.mjs"]) writeFileSync(path.join(app, f), readFileSync(path.join(FIXTURES, "verify", "billing-client", f)));
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "v1 client");
  git(repo, "checkout", "-qb", "migrated");
  await runCodemod({ paths: [app], root: app, write: true });
  git(repo, "commit", "-qam", "rewrite --write");
  git(repo, "checkout", "-q", "main");
  return { repo, app };
}

afterAll(() => {
  cleanupProjects();
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the after tree", () => {
  it("a copy: files copied, node_modules linked to the original's, .git left out", async () => {
    const root = tmp("v2b-verify-copy-");
    mkdirSync(path.join(root, "node_modules", "dep"), { recursive: true });
    mkdirSync(path.join(root, ".git"));
    mkdirSync(path.join(root, "src"));
    writeFileSync(path.join(root, "src", "client.mjs"), 'export const stop = async (id) => (await fetch(`https://rest.runpod.io/v1/pods/${id}/stop`, { method: "POST" })).ok;\n');
    const tree = await prepareAfterTree({ root });
    try {
      expect(lstatSync(path.join(tree.dir, "node_modules")).isSymbolicLink()).toBe(true);
      expect(realpathSync(path.join(tree.dir, "node_modules"))).toBe(realpathSync(path.join(root, "node_modules")));
      expect(existsSync(path.join(tree.dir, ".git"))).toBe(false);
      expect(readFileSync(path.join(tree.dir, "src", "client.mjs"), "utf8")).toContain("https://api.runpod.io/v2/pods/${id}/action");
      expect(readFileSync(path.join(root, "src", "client.mjs"), "utf8")).toContain("https://rest.runpod.io/v1/pods/${id}/stop"); // the original is untouched
      expect(tree.findings.map((f) => [f.file, f.operation])).toEqual([["src/client.mjs", "StopPod"]]);
    } finally {
      tree.cleanup();
    }
    expect(existsSync(tree.dir)).toBe(false);
  });

  it("refuses an --after-ref that is no commit, and an --after that is the original", async () => {
    const { app } = await repository();
    await expect(prepareAfterTree({ root: app, afterRef: "no-such-branch" })).rejects.toThrow(TreeError);
    await expect(prepareAfterTree({ root: app, after: app })).rejects.toThrow(/original tree itself/);
  });
});

describe.skipIf(missingReference)(refSuite("verify --after-ref"), { timeout: 120_000 }, () => {
  it("checks the branch's version of the project's subdirectory out and verifies it", async () => {
    const { app } = await repository();
    const report = await runVerify({ command: ["node", "main.mjs"], root: app, cwd: app, afterRef: "migrated", compareOutput: true });
    expect(report.after.how).toBe("ref");
    expect(readFileSync(path.join(app, "billing.mjs"), "utf8")).toContain("rest.runpod.io"); // the working tree stays on main
    expect(report.runs.after.calls).toEqual({ v1: 0, v2: 1 });
    expect([report.verdict, report.differences]).toEqual(["equivalent", []]);
    expect(existsSync(report.after.dir)).toBe(false); // the checkout is removed
  });
});
