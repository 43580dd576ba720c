// Source-file enumeration without globby: one readdir per directory (Dirent types, no stat per
// file), `.gitignore` files applied as they are met (plus those of parent directories up to the
// git root), `node_modules` and `.git` always skipped, symbolic links never followed or listed
// (a rewrite must not replace a link with a file).
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

interface Rules {
  dir: string;
  ig: Ignore;
}

async function rulesIn(dir: string): Promise<Rules | undefined> {
  const text = await readFile(path.join(dir, ".gitignore"), "utf8").catch(() => undefined);
  return text === undefined ? undefined : { dir, ig: ignore().add(text) };
}

function ignored(rules: Rules[], abs: string, isDir: boolean): boolean {
  for (const r of rules) {
    const rel = path.relative(r.dir, abs).split(path.sep).join("/");
    if (!rel || rel.startsWith("..")) continue;
    if (r.ig.ignores(isDir ? rel + "/" : rel)) return true;
  }
  return false;
}

/** `.gitignore` rules of the directories above `dir`, up to the enclosing git repository's root. */
async function parentRules(dir: string): Promise<Rules[]> {
  const chain: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.push(d);
    if (existsSync(path.join(d, ".git")) || path.dirname(d) === d) break;
  }
  if (!existsSync(path.join(chain.at(-1)!, ".git"))) {
    // Not inside a repository: like git, only the directory's own rules apply.
    return [];
  }
  const rules = await Promise.all(chain.reverse().map(rulesIn));
  return rules.filter((r): r is Rules => !!r);
}

/** Files under `root` whose names pass `accept`, sorted. */
export async function walkSources(root: string, accept: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, rules: Rules[]): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const own = entries.some((e) => e.name === ".gitignore" && e.isFile()) ? await rulesIn(dir) : undefined;
    const active = own ? [...rules, own] : rules;
    const subdirs: string[] = [];
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === "node_modules" || e.name === ".git") continue;
        if (!ignored(active, abs, true)) subdirs.push(abs);
      } else if (e.isFile() && accept(e.name) && !ignored(active, abs, false)) out.push(abs);
    }
    await Promise.all(subdirs.map((d) => visit(d, active)));
  };
  await visit(root, await parentRules(root));
  return out.sort();
}
