// The scan of a tree before anything is parsed: list the sources (one walk, .gitignore applied),
// then read each one once and run the text pre-filter on its bytes, in one synchronous loop (no
// compiler, no engine: a tree with no seed never loads them).
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { AUTO_IMPORT_TELLTALE, mightCallApiBuffer, mightUseV1Buffer } from "./prefilter.ts";
import { bundlerOf } from "./bundles.ts";
import { decodeUtf8, SequentialReader, Slabs, type Skipped } from "./source-files.ts";
import { specifiersOf } from "./import-specifiers.ts";
import type { TreeListing } from "./walk.ts";

export const SOURCE_EXTENSIONS = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];
const SOURCE_RE = new RegExp(`\\.(${SOURCE_EXTENSIONS.join("|")}|vue|svelte)$`);
/** A file that imports, requires or re-exports anything (it may reach a v1 base through it). */
const MAY_IMPORT = /\b(?:import|require|export)\b/;
/** The pre-filter's reads kept for the engine's searches of every file (project-reads.ts), up to this many bytes in all. */
const KEPT_BYTES = 64 * 1_048_576;

/** The source files under `paths` (files given by name too), sorted; throws on a path that does not exist. */
export function listSources(paths: string[], cwd: string, listing: TreeListing): string[] {
  const out = new Set<string>();
  for (const p of paths.length ? paths : ["."]) {
    const abs = path.resolve(cwd, p);
    if (!existsSync(abs)) throw new Error(`no such file or directory: ${p}`);
    if (statSync(abs).isFile()) {
      if (SOURCE_RE.test(abs) && !abs.endsWith(".d.ts")) out.add(abs);
      continue;
    }
    for (const f of listing.files(abs, (name) => SOURCE_RE.test(name) && !name.endsWith(".d.ts"))) out.add(f);
  }
  return [...out].sort();
}

export interface ScanResult {
  files: string[];
  /** Import specifiers of every readable file that imports anything. */
  specifiers: Map<string, string[]>;
  /** Files naming the v1 host or the v2 base, or carrying a mark (valid UTF-8). */
  seeds: Set<string>;
  skips: Skipped[];
  /** Skipped files whose imports are still known: what they import may be used unseen. */
  opaque: Map<string, string[]>;
  /** Files calling names only an auto-importing build binds (codemod/auto-imports.ts). */
  telltales: Set<string>;
  /** A bundler's output naming the v1 host: audited by text, never rewritten (bundles.ts). */
  bundles: Map<string, { bundler: string; text: string }>;
  /** The bytes read, up to KEPT_BYTES in all, for the engine's searches of every file. */
  kept: Map<string, Buffer>;
}

export interface ScanEvents {
  onProgress?: (done: number, total: number) => void;
}

/** Where a scan of part of the file list stands: what it found so far, the next file, the bytes counted against KEPT_BYTES. */
export interface ScanState {
  out: ScanResult;
  next: number;
  keptBytes: number;
}

export function emptyScan(files: string[]): ScanResult {
  return { files, specifiers: new Map(), seeds: new Set(), skips: [], opaque: new Map(), telltales: new Set(), bundles: new Map(), kept: new Map() };
}

/** Pass 1: every source read once (synchronously: ~19,000 small files cost several times more through promises), the pre-filter on raw bytes. */
export function scanFiles(files: string[], maxBytes: number, events: ScanEvents = {}): ScanResult {
  return scanFrom({ out: emptyScan(files), next: 0, keptBytes: 0 }, maxBytes, events).out;
}

/**
 * Scans `state.out.files` from `state.next` on, in order, into `state.out`; with `untilSeed`, stops
 * after the first file that is a seed (the caller may hand the rest to another thread: scan-handoff.ts).
 */
export function scanFrom(state: ScanState, maxBytes: number, events: ScanEvents = {}, untilSeed = false): ScanState {
  const { out } = state;
  const files = out.files;
  const total = files.length;
  const reader = new SequentialReader(maxBytes);
  const slabs = new Slabs();
  let keptBytes = state.keptBytes;
  let i = state.next;
  while (i < total) {
    const file = files[i++]!;
    const read = reader.read(file);
    if (i % 64 === 0 || i === total) events.onProgress?.(i, total * 2);
    if (!read.ok) {
      out.skips.push(read.skip);
      continue;
    }
    // The reader's buffer is reused by the next read: what is kept is copied, the rest only looked at here.
    let buf = read.buf;
    if ((keptBytes += buf.length) <= KEPT_BYTES) out.kept.set(file, (buf = slabs.keep(buf)));
    const latin1 = buf.toString("latin1");
    const bundler = bundlerOf(latin1);
    if (bundler) {
      if (mightUseV1Buffer(buf)) out.bundles.set(file, { bundler, text: buf.toString("utf8") });
      continue;
    }
    const specs = MAY_IMPORT.test(latin1) ? specifiersOf(latin1) : [];
    if (AUTO_IMPORT_TELLTALE.test(latin1)) out.telltales.add(file);
    if (mightCallApiBuffer(buf)) {
      const decoded = decodeUtf8(file, buf);
      if ("skip" in decoded) {
        out.skips.push(decoded.skip);
        if (specs.length) out.opaque.set(file, specs);
        continue;
      }
      out.seeds.add(file);
      if (specs.length) out.specifiers.set(file, specs);
      if (untilSeed) break;
      continue;
    }
    if (specs.length) out.specifiers.set(file, specs);
  }
  return { out, next: i, keptBytes };
}

/** `rest` (the scan of the files after `head`'s) appended to `head`, in file order: the same result as one scan of all of them. */
export function appendScan(head: ScanResult, rest: ScanResult): ScanResult {
  for (const [f, v] of rest.specifiers) head.specifiers.set(f, v);
  for (const f of rest.seeds) head.seeds.add(f);
  head.skips.push(...rest.skips);
  for (const [f, v] of rest.opaque) head.opaque.set(f, v);
  for (const f of rest.telltales) head.telltales.add(f);
  for (const [f, v] of rest.bundles) head.bundles.set(f, v);
  for (const [f, v] of rest.kept) head.kept.set(f, v);
  return head;
}
