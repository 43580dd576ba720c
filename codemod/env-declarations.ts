// Names the rewrite adds to `import.meta.env` (a flipped base's `VITE_…_V2`, the v1 fallback
// `VITE_RUNPOD_V1_BASE`) are declared in the project's own `ImportMetaEnv` interface, where it
// has one (`src/vite-env.d.ts`): a project that types its environment that way fails `tsc` on an
// undeclared name (TS2551), and `tsc && vite build` with it. Without such an interface, the
// bundler's own types take any name (vite/client) and nothing is written.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { walkSources, type TreeListing } from "./walk.ts";
import type { TypeScript as TS } from "./ts-morph.ts";

const META_ENV = /\bimport\.meta\.env(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"']+)["']\s*\])/g;
const DECLARES = /\binterface\s+ImportMetaEnv\b/;
const MAX_BYTES = 256 * 1024;

export interface DeclarationChange {
  file: string;
  before: string;
  after: string;
  /** The names it declares. */
  names: string[];
}

/** `import.meta.env` names the rewritten text reads that the original did not. */
export function addedMetaEnvNames(before: string, after: string): string[] {
  const names = (text: string) => [...text.matchAll(META_ENV)].map((m) => (m[1] ?? m[2])!);
  const had = new Set(names(before));
  return [...new Set(names(after))].filter((n) => !had.has(n));
}

/** The changes that declare each added name in the `ImportMetaEnv` interface nearest the file reading it. */
export async function declareMetaEnv(added: Map<string, string[]>, paths: string[], listing: TreeListing): Promise<DeclarationChange[]> {
  if (![...added.values()].some((n) => n.length)) return [];
  const candidates = new Set<string>();
  for (const p of paths) if (existsSync(p) && statSync(p).isDirectory()) for (const f of await walkSources(p, (n) => n.endsWith(".d.ts"), listing)) candidates.add(f);
  // Also the declaration files beside the reading file's folders, up to its package root.
  for (const file of added.keys()) for (const f of ancestorDeclarations(file)) candidates.add(f);
  const texts = new Map<string, string>();
  for (const f of candidates) {
    const text = statSync(f).size <= MAX_BYTES ? readFileSync(f, "utf8") : "";
    if (DECLARES.test(text)) texts.set(f, text);
  }
  if (!texts.size) return [];
  const wanted = new Map<string, Set<string>>();
  for (const [file, names] of added) {
    const target = nearest(file, [...texts.keys()]);
    if (target) for (const n of names) (wanted.get(target) ?? wanted.set(target, new Set()).get(target)!).add(n);
  }
  const { ts } = await import("./ts-morph.ts");
  const out: DeclarationChange[] = [];
  for (const [file, names] of wanted) {
    const before = texts.get(file)!;
    const after = withMembers(ts, file, before, [...names].sort());
    if (after !== before) out.push({ file, before, after, names: [...names].sort() });
  }
  return out;
}

function ancestorDeclarations(file: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(file), i = 0; i < 12; i++) {
    const entries = safeList(dir);
    out.push(...entries.filter((e) => e.endsWith(".d.ts")).map((e) => path.join(dir, e)));
    if (entries.includes("package.json") || path.dirname(dir) === dir) break;
    dir = path.dirname(dir);
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The declaration file whose folder holds the reading file most closely (else shares most of its path). */
function nearest(file: string, decls: string[]): string | undefined {
  const score = (d: string) => {
    const dir = path.dirname(d) + path.sep;
    const inside = file.startsWith(dir) ? 1 : 0;
    let common = 0;
    while (common < dir.length && dir[common] === file[common]) common++;
    return inside * 1e6 + common;
  };
  return [...decls].sort((x, y) => score(y) - score(x) || x.localeCompare(y))[0];
}

/** The text with `readonly NAME?: string` members added to its first `ImportMetaEnv` interface (those it lacks). */
function withMembers(ts: typeof TS, file: string, text: string, names: string[]): string {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let decl: TS.InterfaceDeclaration | undefined;
  const visit = (n: TS.Node): void => {
    if (decl) return;
    if (ts.isInterfaceDeclaration(n) && n.name.text === "ImportMetaEnv") decl = n;
    else ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!decl) return text;
  const have = new Set(decl.members.map((m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : "")));
  const missing = names.filter((n) => !have.has(n));
  if (!missing.length) return text;
  const last = decl.members[decl.members.length - 1];
  const lastText = last ? last.getText(sf) : "";
  const readonly = !last || /^readonly\b/.test(lastText) ? "readonly " : "";
  const sep = !last || lastText.endsWith(";") ? ";" : lastText.endsWith(",") ? "," : "";
  const member = (n: string) => `${readonly}${n}?: string${sep}`;
  const close = decl.end - 1;
  const body = text.slice(decl.members.pos, close);
  if (!body.includes("\n")) {
    // One line: `{ readonly A?: string }` → `{ readonly A?: string; readonly B?: string }`.
    if (!last) return text.slice(0, close) + missing.map((n) => ` ${member(n)}`).join("") + " " + text.slice(close);
    return text.slice(0, last.end) + missing.map((n) => `${sep ? " " : "; "}${member(n)}`).join("") + text.slice(last.end);
  }
  const indent = last ? (/([ \t]*)$/.exec(text.slice(0, last.getStart(sf)))?.[1] ?? "  ") : "  ";
  const at = last ? last.end : close;
  return text.slice(0, at) + missing.map((n) => `\n${indent}${member(n)}`).join("") + text.slice(at);
}
