// The tree the "after" run uses: a temporary copy of the project rewritten by the codemod
// (`rewrite --write`, through its public entry), a directory the user rewrote (`--after`), or a
// git ref of the project checked out into a temporary directory (`--after-ref`). Alongside, the
// codemod's findings on the original tree: the call sites a run should exercise.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCodemod, type RunSummary } from "../codemod/project.ts";
import type { Finding } from "../codemod/types.ts";
import { copyTree, linkDependencies, linkHoistedDependencies } from "./tree-copy.ts";

export type AfterTree = {
  dir: string;
  how: "rewrite" | "dir" | "ref";
  /** What the codemod found in the original tree (file paths relative to the tree). */
  findings: Finding[];
  /** The rewrite's summary, when verify rewrote the copy itself. */
  rewrite?: RunSummary;
  /** Removes the temporary directory, if any. */
  cleanup(): void;
};

export class TreeError extends Error {}

export async function prepareAfterTree(options: { root: string; after?: string; afterRef?: string }): Promise<AfterTree> {
  const { root } = options;
  if (options.after) {
    const dir = path.resolve(options.after);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new TreeError(`--after ${options.after}: not a directory`);
    if (dir === root) throw new TreeError("--after is the original tree itself: give the rewritten copy");
    return { dir, how: "dir", findings: await auditFindings(root), cleanup: () => {} };
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), "v2-bridge-verify-"));
  const dir = path.join(tmp, path.basename(root) || "tree");
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  try {
    if (options.afterRef) {
      checkoutRef(root, options.afterRef, dir);
      linkHoistedDependencies(root, dir);
      return { dir, how: "ref", findings: await auditFindings(root), cleanup };
    }
    copyTree(root, dir);
    linkHoistedDependencies(root, dir);
    const result = await runCodemod({ paths: [dir], root: dir, write: true, diff: false });
    return { dir, how: "rewrite", findings: result.findings, rewrite: result.summary, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** The codemod's analysis of the original tree, changing nothing (what `audit` reports). */
async function auditFindings(root: string): Promise<Finding[]> {
  return (await runCodemod({ paths: [root], root, write: false, diff: false })).findings;
}

/** The project's directory as it is at `ref` (git archive of that tree), dependencies linked from the original. */
function checkoutRef(root: string, ref: string, dir: string): void {
  const git = (args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  let prefix: string;
  let top: string;
  try {
    prefix = git(["rev-parse", "--show-prefix"]);
    top = git(["rev-parse", "--show-toplevel"]);
    git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    throw new TreeError(`--after-ref ${ref}: not a commit of the git repository at ${root}`);
  }
  mkdirSync(dir, { recursive: true });
  // From the top level: in a subdirectory, git archive reads tree paths relative to it.
  const tar = execFileSync("git", ["-C", top, "archive", "--format=tar", `${ref}:${prefix.replace(/\/$/, "")}`], { maxBuffer: 2 ** 31 - 1, stdio: ["ignore", "pipe", "pipe"] });
  execFileSync("tar", ["-x", "-C", dir], { input: tar, stdio: ["pipe", "ignore", "pipe"] });
  linkDependencies(root, dir);
}
