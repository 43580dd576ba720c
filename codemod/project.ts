// Runs the engine over a set of paths: enumerate files (respecting .gitignore and node_modules),
// pre-filter by text, discover exported v1 bases and request helpers across modules, analyse,
// and (with write) replace files atomically. Memory stays flat: one file's text and AST at a time.
import { chmod, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { RELATIVE_IMPORT, mightUseV1Buffer, relativeSpecifiers } from "./prefilter.ts";
import { pool, walkSources } from "./walk.ts";
import type { Category, FileAnalysis, Finding, ModuleExports, ProjectSymbols } from "./types.ts";

export const SOURCE_EXTENSIONS = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];
const SOURCE_RE = new RegExp(`\\.(${SOURCE_EXTENSIONS.join("|")})$`);

export interface RunOptions {
  paths: string[];
  /** Directory findings are relative to (default: the single directory given, else the cwd). */
  root?: string;
  write?: boolean;
  /** Compute unified diffs (rewrite dry run). */
  diff?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Audit only: also report v1 URLs in scripts, configs and docs (codemod/text-files.ts). Never set by rewrite. */
  textFiles?: boolean;
}

export interface FileOutcome {
  file: string;
  changed: boolean;
  diff?: string;
  parseError?: string;
  findings: number;
}

export interface RunSummary {
  files: number;
  filesParsed: number;
  filesWithFindings: number;
  filesChanged: number;
  callSites: number;
  rewritten: number;
  leftForReview: number;
  findings: number;
  byCategory: Record<Category, number>;
  parseErrors: number;
}

export interface RunResult {
  root: string;
  files: FileOutcome[];
  findings: Finding[];
  parseErrors: { file: string; error: string }[];
  /** Text files the audit did not read (with textFiles): binary content, or over the size limit. */
  skipped?: { file: string; why: string }[];
  summary: RunSummary;
}

export async function collectFiles(paths: string[], cwd = process.cwd()): Promise<string[]> {
  const out = new Set<string>();
  for (const p of paths.length ? paths : ["."]) {
    const abs = path.resolve(cwd, p);
    if (!existsSync(abs)) throw new Error(`no such file or directory: ${p}`);
    if (statSync(abs).isFile()) {
      if (SOURCE_RE.test(abs) && !abs.endsWith(".d.ts")) out.add(abs);
      continue;
    }
    const found = await walkSources(abs, (name) => SOURCE_RE.test(name) && !name.endsWith(".d.ts"));
    for (const f of found) out.add(f);
  }
  return [...out].sort();
}

const RESOLVE_EXTS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

/** Resolves a relative import to a file of the run (NodeNext `.js` specifiers map to `.ts`). */
export function makeResolver(known: Set<string>): (from: string, spec: string) => string | undefined {
  return (from, spec) => {
    const base = path.resolve(path.dirname(from), spec);
    const stem = base.replace(/\.(m|c)?(j|t)sx?$/, "");
    const candidates = [base, ...RESOLVE_EXTS.map((e) => stem + e), ...RESOLVE_EXTS.map((e) => path.join(base, "index" + e))];
    return candidates.find((c) => known.has(c));
  };
}

/** Reads at most this many files at once (file handles and buffers in flight stay bounded). */
const READ_CONCURRENCY = 32;

function namesFilter(modules: Map<string, ModuleExports>): { text: (text: string) => boolean; specifiers: (specs: string[]) => boolean } | undefined {
  const checks: { name: RegExp; stem: string }[] = [];
  for (const [file, exports] of modules) {
    if (!exports.size) continue;
    const parsed = path.parse(file);
    const stem = parsed.name === "index" ? path.basename(parsed.dir) : parsed.name;
    for (const name of exports.keys()) checks.push({ name: new RegExp(`\\b${name.replace(/[$]/g, "\\$")}\\b`), stem });
  }
  if (!checks.length) return undefined;
  return {
    // A module's names reach another file only through an import of that module's path.
    specifiers: (specs) => checks.some((c) => specs.some((s) => s.includes(c.stem))),
    text: (text) => checks.some((c) => text.includes(c.stem) && c.name.test(text)),
  };
}

export async function runCodemod(options: RunOptions): Promise<RunResult> {
  const cwd = process.cwd();
  const files = await collectFiles(options.paths, cwd);
  const single = options.paths.length === 1 ? path.resolve(cwd, options.paths[0]!) : undefined;
  const singleKind = single && existsSync(single) ? (statSync(single).isDirectory() ? "dir" : "file") : undefined;
  const root = path.resolve(options.root ?? (singleKind === "dir" ? single! : singleKind === "file" ? path.dirname(single!) : cwd));
  const known = new Set(files);
  const resolveModule = makeResolver(known);
  const symbols: ProjectSymbols = { modules: new Map() };
  const total = files.length;

  // Pass 1: the cheap text pre-filter, on the raw bytes (no decoding unless needed). Files naming
  // the v1 host are candidates; files with relative imports may use a base constant or helper
  // from a candidate: only their relative import specifiers are kept, to be matched against the
  // modules that turn out to export v1 symbols.
  const candidates: string[] = [];
  const maybe = new Map<string, string[]>();
  let done = 0;
  await pool(files, READ_CONCURRENCY, async (file) => {
    const buf = await readFile(file);
    if (mightUseV1Buffer(buf)) candidates.push(file);
    else if (buf.includes("./")) {
      const specs = relativeSpecifiers(buf.toString("utf8"));
      if (specs.length) maybe.set(file, specs);
    }
    if (++done % 64 === 0 || done === total) options.onProgress?.(done, total * 2);
  });
  candidates.sort();

  // Discovery: exported v1 bases and helpers, to a fixpoint (config → http helper → callers).
  // A file without relative imports cannot depend on another module's symbols, so its first
  // analysis is final and is kept; the others are analysed again once every symbol is known.
  // The engine (and the TypeScript compiler under it) loads only when some file passes the filter.
  const { analyzeSource } = candidates.length ? await import("./engine.ts") : ({} as typeof import("./engine.ts"));
  const displayName = (file: string) => path.relative(root, file).split(path.sep).join("/");
  const relevant = new Set<string>();
  const final = new Map<string, { text: string; analysis: FileAnalysis }>();
  const dependent: string[] = [];
  const analyse = async (file: string) => {
    const text = await readFile(file, "utf8");
    const analysis = analyzeSource(text, { fileName: file, displayName: displayName(file), symbols, resolveModule });
    if (analysis.exports.size) symbols.modules.set(file, analysis.exports);
    if (RELATIVE_IMPORT.test(text)) dependent.push(file);
    else final.set(file, { text, analysis });
  };
  let queue = candidates;
  let remaining = [...maybe.keys()].sort();
  while (queue.length) {
    for (const file of queue) {
      relevant.add(file);
      await analyse(file);
    }
    const filter = namesFilter(symbols.modules);
    if (!filter) break;
    const next: string[] = [];
    const rest: string[] = [];
    const toRead = remaining.filter((f) => filter.specifiers(maybe.get(f)!));
    const hit = new Set<string>();
    await pool(toRead, READ_CONCURRENCY, async (f) => {
      if (filter.text(await readFile(f, "utf8"))) hit.add(f);
    });
    for (const f of remaining) (hit.has(f) ? next : rest).push(f);
    queue = next;
    remaining = rest;
  }
  // Exports of modules that import other modules, now that all of those are known.
  for (const file of dependent) {
    const text = await readFile(file, "utf8");
    const a = analyzeSource(text, { fileName: file, symbols, resolveModule });
    if (a.exports.size) symbols.modules.set(file, a.exports);
  }

  maybe.clear();
  const createTwoFilesPatch = options.diff && relevant.size ? (await import("diff")).createTwoFilesPatch : undefined;
  const outcomes: FileOutcome[] = [];
  const findings: Finding[] = [];
  const parseErrors: { file: string; error: string }[] = [];
  const summary: RunSummary = {
    files: total,
    filesParsed: relevant.size,
    filesWithFindings: 0,
    filesChanged: 0,
    callSites: 0,
    rewritten: 0,
    leftForReview: 0,
    findings: 0,
    byCategory: { auto: 0, review: 0, "no-equivalent": 0 },
    parseErrors: 0,
  };
  done = total;
  for (const file of files) {
    if (++done % 256 === 0 || done === total * 2) options.onProgress?.(done, total * 2);
    if (!relevant.has(file)) continue;
    const rel = displayName(file);
    const cached = final.get(file);
    final.delete(file);
    const text = cached?.text ?? (await readFile(file, "utf8"));
    const a: FileAnalysis = cached?.analysis ?? analyzeSource(text, { fileName: file, displayName: rel, symbols, resolveModule });
    if (a.parseError) {
      parseErrors.push({ file: rel, error: a.parseError });
      outcomes.push({ file: rel, changed: false, parseError: a.parseError, findings: 0 });
      summary.parseErrors++;
      continue;
    }
    const changed = a.output !== text;
    const outcome: FileOutcome = { file: rel, changed, findings: a.findings.length };
    if (changed && createTwoFilesPatch) outcome.diff = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, text, a.output, undefined, undefined, { context: 3 });
    if (changed && options.write) await writeAtomic(file, a.output);
    outcomes.push(outcome);
    findings.push(...a.findings);
    summary.callSites += a.callSites;
    summary.rewritten += a.rewritten;
    if (changed) summary.filesChanged++;
    if (a.findings.length) summary.filesWithFindings++;
    for (const f of a.findings) summary.byCategory[f.category]++;
  }
  const skipped = options.textFiles ? await addTextFindings(options.paths, cwd, root, outcomes, findings, summary) : undefined;
  summary.findings = findings.length;
  summary.leftForReview = summary.byCategory.review + summary.byCategory["no-equivalent"];
  return { root, files: outcomes, findings, parseErrors, ...(skipped && { skipped }), summary };
}

/** The text-file audit's findings, merged in file order (a stable sort keeps each file's own order). */
async function addTextFindings(paths: string[], cwd: string, root: string, outcomes: FileOutcome[], findings: Finding[], summary: RunSummary): Promise<{ file: string; why: string }[]> {
  const { auditTextFiles, collectTextFiles } = await import("./text-files.ts");
  const text = await auditTextFiles(await collectTextFiles(paths, cwd), root);
  summary.files += text.scanned;
  summary.filesWithFindings += text.filesWithFindings.length;
  for (const file of text.filesWithFindings) outcomes.push({ file, changed: false, findings: text.findings.filter((f) => f.file === file).length });
  for (const f of text.findings) summary.byCategory[f.category]++;
  findings.push(...text.findings);
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return text.skipped;
}

/** Writes via a temporary file in the same directory and a rename, keeping the file mode. */
export async function writeAtomic(file: string, content: string): Promise<void> {
  const { mode } = await stat(file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.v2-bridge-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  const handle = await open(tmp, "wx", mode & 0o7777);
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(tmp, mode & 0o7777);
    await rename(tmp, file);
  } catch (error) {
    await unlink(tmp).catch(() => {});
    throw error;
  }
}
