// Runs the engine over a set of paths: enumerate files (respecting .gitignore and node_modules),
// pre-filter by text, parse the files that can reach a v1 base through imports as one project,
// analyse it, and (with write) replace files atomically.
import { stat } from "node:fs/promises";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { bundleKind } from "./bundles.ts";
import { BOM, DEFAULT_MAX_FILE_BYTES, decodeUtf8, readBounded, skipFinding, writable } from "./source-files.ts";
import pLimit from "p-limit";
import { TreeListing, walkSources } from "./walk.ts";
import { listSources } from "./tree-scan.ts";
import { scanTree } from "./scan-handoff.ts";
import { addedMetaEnvNames, declareMetaEnv } from "./env-declarations.ts";
import { writeFileAtomic } from "../product/atomic-write.ts";
import { MARK_DETAILS, markDetailsReader, writeMarkDetails } from "./mark-details.ts";
import { SFC_RE, maskOutsideScripts, sfcPath, sfcScriptPath, unmask } from "./sfc.ts";
import type { Category, FileAnalysis, Finding, MarkDetail } from "./types.ts";

/** Component and page files the engine does not parse, which may read a record's fields. */
const PAGE_RE = /\.(vue|svelte|astro|html?)$/;

export interface RunOptions {
  paths: string[];
  /** Directory findings are relative to (default: the single directory given, else the cwd). */
  root?: string;
  write?: boolean;
  /** Compute unified diffs (rewrite dry run). */
  diff?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Files larger than this are skipped with a finding (default DEFAULT_MAX_FILE_BYTES). */
  maxFileSize?: number;
  /** Write read-only files too (they are refused with a finding otherwise). */
  force?: boolean;
  /** Audit only: also report v1 URLs in scripts, configs and docs (codemod/text-files.ts). Never set by rewrite. */
  textFiles?: boolean;
  /** Wrap values that cross the app's own interfaces in the generated boundary adapter (default true). */
  adapter?: boolean;
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

/** Reads at most this many files at once (file handles and buffers in flight stay bounded). */
const READ_CONCURRENCY = 32;

export async function runCodemod(options: RunOptions): Promise<RunResult> {
  const cwd = process.cwd();
  const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES;
  // Pass 1 (codemod/tree-scan.ts): one walk of the tree (it serves the sources and, audit, the text
  // files), every source read once, the text pre-filter on raw bytes. Files naming the v1 host or the
  // v2 base (or carrying a mark) are the seeds; files with imports are kept as text only so the import
  // graph can be walked.
  const listing = new TreeListing();
  // From the first seed on, a large tree's remaining files are scanned by a worker thread while this
  // one loads the compiler (codemod/scan-handoff.ts).
  const warm = async () => {
    const [index] = await Promise.all([import("./project-index.ts"), import("./engine/index.ts")]);
    index.warmCompiler();
  };
  const { files, specifiers, seeds, skips, opaque, telltales, bundles, kept } = await scanTree(listSources(options.paths, cwd, listing), maxBytes, { onProgress: options.onProgress }, warm);
  const single = options.paths.length === 1 ? path.resolve(cwd, options.paths[0]!) : undefined;
  const singleKind = single && existsSync(single) ? (statSync(single).isDirectory() ? "dir" : "file") : undefined;
  const root = path.resolve(options.root ?? (singleKind === "dir" ? single! : singleKind === "file" ? path.dirname(single!) : cwd));
  const total = files.length;
  let done = 0;

  const texts = new Map<string, string>();
  /** Files that start with a byte-order mark: it is written back in front of their output. */
  const boms = new Set<string>();
  // Pass 2: the files that can reach a v1 base through imports, parsed as one project. The
  // engine (and the TypeScript compiler under it) loads only when some file names the v1 host.
  const displayName = (file: string) => path.relative(root, file).split(path.sep).join("/");
  let relevant: string[] = [];
  let analysed = new Map<string, FileAnalysis>();
  let adapters = new Map<string, import("./adapter/index.ts").AdapterOptions>();
  let beside = new Map<string, { before: string; after: string }>();
  if (seeds.size) {
    const { buildProject, closure, readPathsConfig, textResolver } = await import("./project-index.ts");
    const { analyzeProject } = await import("./engine/index.ts");
    const { autoImportPlan, readText, withoutAppended } = await import("./auto-imports.ts");
    const config = readPathsConfig(root);
    const resolve = textResolver(new Set(files), config);
    // Names the project's build binds with no import (Nuxt's server/utils, composables, useRuntimeConfig).
    const auto = autoImportPlan(root, files, readText, sfcScriptPath, telltales);
    relevant = closure({ specifiers, seeds, root, implicit: auto?.implicit }, resolve);
    await pLimit(READ_CONCURRENCY).map(relevant, async (f) => {
      const read = await readBounded(f, maxBytes);
      const decoded = read.ok ? decodeUtf8(f, read.buf) : { skip: read.skip };
      if ("skip" in decoded) {
        skips.push(decoded.skip);
        if (specifiers.has(f)) opaque.set(f, specifiers.get(f)!);
      } else {
        texts.set(f, decoded.text);
        if (decoded.bom) boms.add(f);
      }
    });
    specifiers.clear();
    relevant = relevant.filter((f) => texts.has(f));
    const blocked = new Map<string, string[]>();
    for (const [file, specs] of opaque) {
      for (const target of specs.map((s) => resolve(file, s)).filter((t): t is string => !!t)) blocked.set(target, [...(blocked.get(target) ?? []), displayName(file)]);
    }
    const frozen = new Map<string, string>();
    if (options.write && !options.force) {
      await pLimit(READ_CONCURRENCY).map(relevant, async (f) => {
        if (!(await writable(f))) frozen.set(f, `${displayName(f)} is read-only (pass --force to write it)`);
      });
    }
    // Single-file components: the engine reads their script blocks only, as a TypeScript file beside them (sfc.ts).
    const engineTexts = new Map(texts);
    for (const f of relevant) if (SFC_RE.test(f)) engineTexts.set(sfcScriptPath(f), maskOutsideScripts(texts.get(f)!));
    const masked = new Map(engineTexts);
    // The imports an auto-importing build adds go at the end of the text the engine reads (lines stay the file's own).
    for (const f of relevant) {
      const extra = auto?.appended.get(f);
      if (extra) engineTexts.set(sfcScriptPath(f), engineTexts.get(sfcScriptPath(f))! + extra);
    }
    for (const [f, text] of auto?.virtual ?? []) engineTexts.set(f, text);
    const index = buildProject([...relevant.map(sfcScriptPath), ...(auto?.virtual.keys() ?? [])], engineTexts, config);
    // The app's pages and components too: a record field they name is read (engine/project-reads.ts).
    const pages: string[] = [];
    for (const p of options.paths.length ? options.paths : ["."]) {
      const abs = path.resolve(cwd, p);
      if (existsSync(abs) && statSync(abs).isDirectory()) pages.push(...(await walkSources(abs, (name) => PAGE_RE.test(name), listing)));
    }
    const analysis = analyzeProject(index, (f) => displayName(sfcPath(f)), { frozen, blocked, unseenUses: auto?.unseen, adapterRoot: options.adapter === false ? undefined : root, projectFiles: [...files, ...pages], projectBytes: kept, markDetails: markDetailsReader(), writesBeside: true });
    analysed = new Map([...analysis.files].map(([f, a]) => [sfcPath(f), a]));
    for (const f of relevant) {
      const a = analysed.get(f);
      const extra = auto?.appended.get(f);
      if (!a || !extra) continue;
      const back = withoutAppended(a.output, extra);
      if (back !== undefined) a.output = back;
      else {
        a.output = SFC_RE.test(f) ? masked.get(sfcScriptPath(f))! : texts.get(f)!;
        skips.push({ file: f, why: "unreadable", detail: "its rewrite would change the imports its auto-imported names stand for; left as it was (migrate its marked calls by hand)" });
      }
    }
    for (const f of relevant) {
      const a = analysed.get(f);
      if (!a || !SFC_RE.test(f)) continue;
      const back = unmask(texts.get(f)!, masked.get(sfcScriptPath(f))!, a.output);
      if (back !== undefined) a.output = back;
      else {
        a.output = texts.get(f)!;
        skips.push({ file: f, why: "unreadable", detail: "its rewrite would change text outside its <script> block; left as it was (migrate its marked calls by hand)" });
      }
    }
    adapters = analysis.adapters ?? new Map();
    beside = analysis.beside ?? new Map();
    for (const [f, why] of frozen) if (analysed.get(f)?.edits.length) skips.push({ file: f, why: "read-only", detail: why });
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
  // Files whose new text could not be written: their marks did not land, so their details are not recorded.
  const unwritten = new Set<string>();
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
    if (changed && options.write) {
      try {
        // The file's own mode is kept; a file deleted since it was read is not brought back (stat fails).
        await writeFileAtomic(file, boms.has(file) ? BOM + a.output : a.output, { mode: (await stat(file)).mode & 0o7777 });
      } catch (error) {
        skips.push({ file, why: "unreadable", detail: `could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
        outcome.changed = false;
        unwritten.add(file);
      }
    }
    outcomes.push(outcome);
    findings.push(...a.findings);
    summary.callSites += a.callSites;
    summary.rewritten += a.rewritten;
    if (changed) summary.filesChanged++;
    if (a.findings.length) summary.filesWithFindings++;
    for (const f of a.findings) summary.byCategory[f.category]++;
  }
  // Every problem of each marked site, for the runs that read the marks back (mark-details.ts).
  if (options.write) {
    const marks = new Map<string, MarkDetail[]>();
    for (const f of relevant) {
      const a = analysed.get(f);
      if (a?.marks && !a.parseError && !unwritten.has(f)) marks.set(f, a.marks);
    }
    try {
      await writeMarkDetails(root, marks);
    } catch (error) {
      // The marks are in the files; only their details are missing (a later audit says what the lines say).
      skips.push({ file: path.join(root, MARK_DETAILS), why: "unreadable", detail: `could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  // The boundary adapter the rewritten files import: written (or shown) once, regenerated in place.
  if (adapters.size && outcomes.some((o) => o.changed)) {
    const { adapterModule } = await import("./adapter/index.ts");
    const { writeTextIfChanged } = await import("./adapter/write.ts");
    for (const [file, variant] of adapters) {
      const { text } = adapterModule({ ...variant, fileName: path.basename(file) });
      const old = existsSync(file) ? readFileSync(file, "utf8") : "";
      if (old === text) continue;
      const rel = displayName(file);
      const outcome: FileOutcome = { file: rel, changed: true, findings: 0 };
      if (createTwoFilesPatch) outcome.diff = createTwoFilesPatch(old ? `a/${rel}` : "/dev/null", `b/${rel}`, old, text, undefined, undefined, { context: 3 });
      if (options.write) await writeTextIfChanged(file, text);
      outcomes.push(outcome);
      summary.filesChanged++;
    }
  }
  // Files beside the sources the rewrite changes with them (an action's action.yml: engine/action-inputs.ts);
  // not where a source file could not be written (its base did not flip on disk).
  for (const [file, change] of unwritten.size ? [] : beside) {
    const rel = displayName(file);
    const outcome: FileOutcome = { file: rel, changed: true, findings: 0 };
    if (createTwoFilesPatch) outcome.diff = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, change.before, change.after, undefined, undefined, { context: 3 });
    if (options.write) await writeFileAtomic(file, change.after, { mode: (await stat(file)).mode & 0o7777 });
    outcomes.push(outcome);
    summary.filesChanged++;
  }
  // Names the rewrite added to import.meta.env, declared in the project's ImportMetaEnv interface.
  const metaEnv = new Map<string, string[]>();
  for (const file of relevant) {
    const out = analysed.get(file)?.output;
    if (out !== undefined && out !== texts.get(file) && out.includes("import.meta.env")) metaEnv.set(file, addedMetaEnvNames(texts.get(file)!, out));
  }
  for (const change of await declareMetaEnv(metaEnv, (options.paths.length ? options.paths : ["."]).map((p) => path.resolve(cwd, p)), listing)) {
    const rel = displayName(change.file);
    if (options.write && !options.force && !(await writable(change.file))) {
      skips.push({ file: change.file, why: "read-only", detail: `${rel} is read-only (pass --force to write it): it must declare ${change.names.join(", ")} in ImportMetaEnv` });
      continue;
    }
    const outcome: FileOutcome = { file: rel, changed: true, findings: 0 };
    if (createTwoFilesPatch) outcome.diff = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, change.before, change.after, undefined, undefined, { context: 3 });
    if (options.write) await writeFileAtomic(change.file, change.after, { mode: (await stat(change.file)).mode & 0o7777 });
    outcomes.push(outcome);
    summary.filesChanged++;
  }
  for (const skip of skips.sort((x, y) => x.file.localeCompare(y.file))) {
    const f = skipFinding(displayName(skip.file), skip);
    findings.push(f);
    summary.byCategory.review++;
    if (!outcomes.some((o) => o.file === f.file)) summary.filesWithFindings++;
  }
  if (bundles.size) {
    const { scanTextFile } = await import("./text-files.ts");
    for (const [file, { bundler, text }] of bundles) {
      const found = scanTextFile(displayName(file), text, bundleKind(bundler));
      if (!found.length) continue;
      outcomes.push({ file: displayName(file), changed: false, findings: found.length });
      for (const f of found) summary.byCategory[f.category]++;
      summary.filesWithFindings++;
      findings.push(...found);
    }
    findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }
  const textSkipped = options.textFiles ? await addTextFindings(options.paths, cwd, root, outcomes, findings, summary, listing) : undefined;
  const skipped = [...skips.map((s) => ({ file: displayName(s.file), why: s.why })), ...(textSkipped ?? [])];
  summary.findings = findings.length;
  summary.leftForReview = summary.byCategory.review + summary.byCategory["no-equivalent"];
  return { root, files: outcomes, findings, parseErrors, ...(skipped.length && { skipped }), summary };
}

/** The text-file audit's findings, merged in file order (a stable sort keeps each file's own order). */
async function addTextFindings(paths: string[], cwd: string, root: string, outcomes: FileOutcome[], findings: Finding[], summary: RunSummary, listing: TreeListing): Promise<{ file: string; why: string }[]> {
  const { auditTextFiles, collectTextFiles } = await import("./text-files.ts");
  const text = await auditTextFiles(await collectTextFiles(paths, cwd, listing), root);
  summary.files += text.scanned;
  summary.filesWithFindings += text.filesWithFindings.length;
  for (const file of text.filesWithFindings) outcomes.push({ file, changed: false, findings: text.findings.filter((f) => f.file === file).length });
  for (const f of text.findings) summary.byCategory[f.category]++;
  findings.push(...text.findings);
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return text.skipped;
}
