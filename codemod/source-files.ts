// Reading a tree that may be hostile: a file that cannot be read, is too large (a generated
// bundle), or is not UTF-8 is skipped with a finding of its own, and every other file is still
// processed. Bytes are decoded only when they are valid UTF-8, so what is written back is the
// same bytes everywhere but the edits (a byte-order mark is taken off for the analysis and put
// back on write: see `bom`).
import { access, stat } from "node:fs/promises";
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import type { Finding } from "./types.ts";

/** Files over this size are skipped unless --max-file-size says otherwise (2 MiB: hand-written code is far smaller). */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1_048_576;

/** `2097152`, `512k`, `2m`, `1g` (binary units) → bytes. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?$/i.exec(text.trim());
  if (!m) throw new Error(`not a size: ${text} (use bytes, or a number with k, m or g)`);
  const unit = (m[2] ?? "b")[0]!.toLowerCase();
  const factor = unit === "k" ? 1024 : unit === "m" ? 1_048_576 : unit === "g" ? 1_073_741_824 : 1;
  return Math.floor(Number(m[1]) * factor);
}

export type SkipReason = "unreadable" | "too-large" | "not-utf8" | "read-only";

export interface Skipped {
  file: string;
  why: SkipReason;
  detail: string;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export type ReadResult = { ok: true; buf: Buffer } | { ok: false; skip: Skipped };

/**
 * Reads a file within the size limit (checked on the open handle, before reading); never throws.
 * Synchronous underneath: on a tree of tens of thousands of small files, promise-based calls (a
 * thread-pool round trip for each of open, stat, read and close) cost several times more.
 */
export async function readBounded(file: string, maxBytes: number): Promise<ReadResult> {
  return readBoundedSync(file, maxBytes);
}

/** readBounded without the promise: the tree scan reads ~19,000 files in one loop (codemod/tree-scan.ts). */
export function readBoundedSync(file: string, maxBytes: number): ReadResult {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const { size } = fstatSync(fd);
    if (size > maxBytes) return { ok: false, skip: { file, why: "too-large", detail: `${size} bytes, over the ${maxBytes}-byte limit (--max-file-size); generated bundles are not rewritten` } };
    return { ok: true, buf: readOpened(fd, size) };
  } catch (error) {
    return { ok: false, skip: { file, why: "unreadable", detail: (error as NodeJS.ErrnoException).code ?? (error as Error).message } };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads many files in turn (the tree scan's ~19,000) through one reused buffer: no fstat and no fresh
 * allocation per file. Each new page of memory costs a page fault, which is dear on this kind of VM
 * (~25 µs): reading into fresh Buffers cost the bench's scan ~0.25 s more than one reused buffer.
 * Bounded as readBoundedSync is, but the size is learnt by reading (at most `maxBytes + 1` bytes of a
 * file over the limit are read; fstat only then, for the skip's detail); never throws.
 */
export class SequentialReader {
  private buf: Buffer;

  constructor(private readonly maxBytes: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.min(maxBytes + 1, 256 * 1024));
  }

  /** The file's bytes in the reader's own buffer, which the next read overwrites: copy what must outlive it. */
  read(file: string): ReadResult {
    let fd: number | undefined;
    try {
      fd = openSync(file, "r");
      let done = 0;
      for (let n; ; done += n) {
        if (done === this.buf.length) {
          if (done > this.maxBytes) break;
          const grown = Buffer.allocUnsafeSlow(Math.min(this.maxBytes + 1, done * 2));
          this.buf.copy(grown, 0, 0, done);
          this.buf = grown;
        }
        if ((n = readSync(fd, this.buf, done, this.buf.length - done, null)) === 0) break;
      }
      if (done > this.maxBytes) {
        const size = Math.max(fstatSync(fd).size, done);
        return { ok: false, skip: { file, why: "too-large", detail: `${size} bytes, over the ${this.maxBytes}-byte limit (--max-file-size); generated bundles are not rewritten` } };
      }
      return { ok: true, buf: this.buf.subarray(0, done) };
    } catch (error) {
      return { ok: false, skip: { file, why: "unreadable", detail: (error as NodeJS.ErrnoException).code ?? (error as Error).message } };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}

/**
 * Copies of many small buffers packed into 1 MiB slabs (one allocation per slab, not per file; a large
 * one gets its own). Each slab is its own ArrayBuffer, never Node's shared pool: a worker thread can
 * hand the copies over without copying them again (scan-worker.ts).
 */
export class Slabs {
  private slab = Buffer.alloc(0);
  private at = 0;

  keep(bytes: Buffer): Buffer {
    const SLAB = 1_048_576;
    if (bytes.length > SLAB / 4) {
      const own = Buffer.allocUnsafeSlow(bytes.length);
      bytes.copy(own);
      return own;
    }
    if (this.at + bytes.length > this.slab.length) (this.slab = Buffer.allocUnsafeSlow(SLAB)), (this.at = 0);
    bytes.copy(this.slab, this.at);
    return this.slab.subarray(this.at, (this.at += bytes.length));
  }
}

/** The `size` bytes fstat gave (fewer at an early end), as readFileSync(fd) reads them, without its second fstat of the file. */
function readOpened(fd: number, size: number): Buffer {
  if (size === 0) return readFileSync(fd); // a special file that reports no size: read to its end
  const buf = Buffer.allocUnsafe(size);
  let done = 0;
  for (let n; done < size && (n = readSync(fd, buf, done, size - done, null)) > 0; ) done += n;
  return done < size ? buf.subarray(0, done) : buf;
}

/** The UTF-8 byte-order mark, as text: what a rewrite puts back in front of a file that had one. */
export const BOM = "\uFEFF";

/**
 * The text of a UTF-8 file without its byte-order mark (the decoder drops it, and positions,
 * columns and inserted lines are computed without it) and whether it had one, or a skip when its
 * bytes are not UTF-8 (they would not survive a rewrite).
 */
export function decodeUtf8(file: string, buf: Buffer): { text: string; bom: boolean } | { skip: Skipped } {
  try {
    return { text: strictUtf8.decode(buf), bom: buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf };
  } catch {
    return { skip: { file, why: "not-utf8", detail: "the file is not valid UTF-8; left alone so none of its bytes are re-encoded" } };
  }
}

/** Whether the run may replace a file (a read-only file is refused unless forced). */
export async function writable(file: string): Promise<boolean> {
  try {
    await access(file, constants.W_OK);
    const { mode } = await stat(file);
    return (mode & 0o222) !== 0;
  } catch {
    return false;
  }
}

/** A skipped file as a finding, so the audit and its CI gate see it. */
export function skipFinding(display: string, skip: Skipped): Finding {
  const advice =
    skip.why === "read-only"
      ? "make it writable or pass --force, then run rewrite again"
      : skip.why === "too-large"
        ? "raise --max-file-size if it is hand-written code, otherwise exclude it (.gitignore)"
        : skip.why === "not-utf8"
          ? "convert it to UTF-8 (or migrate it by hand), then run again"
          : "check its permissions and run again";
  return { file: display, line: 1, column: 1, operation: null, v1: null, v2: null, category: "review", reason: `not processed (${skip.why}): ${skip.detail}`, advice, snippet: "", subject: "file" };
}
