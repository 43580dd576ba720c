// Source-file enumeration without globby: one readdir per directory (Dirent types, no stat per
// file), `.gitignore` files applied as they are met (plus those of parent directories up to the
// git root), `node_modules` and `.git` always skipped, symbolic links never followed or listed
// (a rewrite must not replace a link with a file).
import { existsSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

interface Rules {
  dir: string;
  ig: Ignore;
  /** No pattern has a slash but a trailing one: a name matches the same at any depth, so it is tested alone (cheaper, and cached across directories). */
  byName: boolean;
}

/** A rule set, with the path of the directory being listed relative to the rules' directory. */
interface Active extends Rules {
  prefix: string;
}

function rulesIn(dir: string): Rules | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, ".gitignore"), "utf8");
  } catch {
    return undefined;
  }
  const patterns = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  return { dir, ig: ignore().add(text), byName: patterns.every((p) => !p.replace(/^!/, "").replace(/\/+$/, "").includes("/")) };
}

function ignored(rules: Active[], name: string, isDir: boolean): boolean {
  for (const r of rules) {
    const rel = r.prefix && !r.byName ? `${r.prefix}/${name}` : name;
    if (rel.startsWith("..")) continue;
    if (r.ig.ignores(isDir ? rel + "/" : rel)) return true;
  }
  return false;
}

/** `.gitignore` rules of the directories above `dir`, up to the enclosing git repository's root. */
function parentRules(dir: string): Active[] {
  const chain: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.push(d);
    if (existsSync(path.join(d, ".git")) || path.dirname(d) === d) break;
  }
  if (!existsSync(path.join(chain.at(-1)!, ".git"))) {
    // Not inside a repository: like git, only the directory's own rules apply.
    return [];
  }
  const rules = chain.reverse().map(rulesIn);
  return rules.filter((r): r is Rules => !!r).map((r) => ({ ...r, prefix: path.relative(r.dir, dir).split(path.sep).join("/") }));
}

/** A directory's regular files (names), with the ignore rules that apply in it. */
interface Listed {
  dir: string;
  rules: Active[];
  names: string[];
}

/** Reads every directory under `root` once: one readdir each (no stat per file, no thread-pool round trip). */
function readTree(root: string): Listed[] {
  const out: Listed[] = [];
  const visit = (dir: string, rules: Active[]): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const own = entries.some((e) => e.name === ".gitignore" && e.isFile()) ? rulesIn(dir) : undefined;
    const active = own ? [...rules, { ...own, prefix: "" }] : rules;
    const listed: Listed = { dir, rules: active, names: [] };
    out.push(listed);
    for (const e of entries) {
      if (e.isDirectory()) {
        // `.v2-bridge`: the tool's own state (the gateway's usage, the codemod's mark details).
        if (e.name === "node_modules" || e.name === ".git" || e.name === ".v2-bridge" || ignored(active, e.name, true)) continue;
        visit(path.join(dir, e.name), active.map((r) => ({ ...r, prefix: r.prefix ? `${r.prefix}/${e.name}` : e.name })));
      } else if (e.isFile()) listed.names.push(e.name);
    }
  };
  visit(root, parentRules(root));
  return out;
}

/**
 * The trees a run walks, each read once and shared by the listings that need it (the engine's
 * sources, then the audit's text files); a file's ignore rules are checked only when its name is
 * accepted. A listing lives for one run: files added later are not seen.
 */
export class TreeListing {
  private readonly trees = new Map<string, Listed[]>();

  files(root: string, accept: (name: string) => boolean): string[] {
    let tree = this.trees.get(root);
    if (!tree) this.trees.set(root, (tree = readTree(root)));
    const out: string[] = [];
    for (const d of tree) {
      // A listed name is one plain segment: joined as path.join joins it, the directory normalised once, not per file.
      const dir = path.join(d.dir, "_").slice(0, -1);
      for (const name of d.names) if (accept(name) && !ignored(d.rules, name, false)) out.push(dir + name);
    }
    return out.sort();
  }
}

/** Files under `root` whose names pass `accept`, sorted (read through `listing` when given). */
export async function walkSources(root: string, accept: (name: string) => boolean, listing = new TreeListing()): Promise<string[]> {
  return listing.files(root, accept);
}
