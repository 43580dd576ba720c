// Runs the engine over a set of paths: enumerate files (respecting .gitignore and node_modules),
// pre-filter by text, parse the files that can reach a v1 base through imports as one project,
// analyse it, and (with write) replace files atomically.
import { chmod, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { mightUseV1Buffer } from "./prefilter.ts";
import { specifiersOf } from "./import-specifiers.ts";
import { pool, walkSources } from "./walk.ts";
import type { Category, FileAnalysis, Finding } from "./types.ts";

/** A file that imports, requires or re-exports anything (it may reach a v1 base through it). */
const MAY_IMPORT = /\b(?:import|require|export)\b/;

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

/** Reads at most this many files at once (file handles and buffers in flight stay bounded). */
const READ_CONCURRENCY = 32;

export async function runCodemod(options: RunOptions): Promise<RunResult> {
  const cwd = process.cwd();
  const files = await collectFiles(options.paths, cwd);
  const single = options.paths.length === 1 ? path.resolve(cwd, options.paths[0]!) : undefined;
  const singleKind = single && existsSync(single) ? (statSync(single).isDirectory() ? "dir" : "file") : undefined;
  const root = path.resolve(options.root ?? (singleKind === "dir" ? single! : singleKind === "file" ? path.dirname(single!) : cwd));
  const total = files.length;

  // Pass 1: the cheap text pre-filter on raw bytes. Files naming the v1 host (or carrying a mark)
  // are the seeds; files with imports are kept as text only so the import graph can be walked.
  const specifiers = new Map<string, string[]>();
  const seeds = new Set<string>();
  let done = 0;
  await pool(files, READ_CONCURRENCY, async (file) => {
    const buf = await readFile(file);
    if (mightUseV1Buffer(buf)) seeds.add(file);
    if (MAY_IMPORT.test(buf.toString("latin1"))) {
      const specs = specifiersOf(buf.toString("utf8"));
      if (specs.length) specifiers.set(file, specs);
    }
    if (++done % 64 === 0 || done === total) options.onProgress?.(done, total * 2);
  });

  const texts = new Map<string, string>();
  // Pass 2: the files that can reach a v1 base through imports, parsed as one project. The
  // engine (and the TypeScript compiler under it) loads only when some file names the v1 host.
  const displayName = (file: string) => path.relative(root, file).split(path.sep).join("/");
  let relevant: string[] = [];
  let analysed = new Map<string, FileAnalysis>();
  if (seeds.size) {
    const { buildProject, closure, readPathsConfig, textResolver } = await import("./project-index.ts");
    const { analyzeProject } = await import("./engine/index.ts");
    const config = readPathsConfig(root);
    relevant = closure({ specifiers, seeds, root }, textResolver(new Set(files), config));
    specifiers.clear();
    await pool(relevant, READ_CONCURRENCY, async (f) => void texts.set(f, await readFile(f, "utf8")));
    const index = buildProject(relevant, texts, config);
    analysed = analyzeProject(index, displayName).files;
  }

  const relevantSet = new Set(relevant);
  const createTwoFilesPatch = options.diff && relevant.length ? (await import("diff")).createTwoFilesPatch : undefined;
  const outcomes: FileOutcome[] = [];
  const findings: Finding[] = [];
  const parseErrors: { file: string; error: string }[] = [];
  const summary: RunSummary = {
    files: total,
    filesParsed: relevant.length,
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
    if (!relevantSet.has(file)) continue;
    const rel = displayName(file);
    const text = texts.get(file)!;
    const a = analysed.get(file)!;
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
