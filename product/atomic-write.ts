// The one way the product replaces a file: the rewritten sources, the boundary adapter, the
// gateway's state (salt, usage store), the reference-document cache and V8's code cache.
// A reader sees the old file or the new one, never a part; a failed write leaves the old file and
// no temporary file behind. How: a temporary file in the same directory (so the rename stays on
// one filesystem), written whole (Node's writeFile loops on short writes, so a full disk or a file
// size limit is an error, not a shorter file), flushed, given its mode, then renamed over the file.
// Not write-file-atomic: its single fs.write ignores the count written, so on a short write it
// renames a truncated file over the good one (reproduced with `ulimit -f`; still so in 8.0.0).
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { chmod, open, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /** Permission bits of the result. Default: the replaced file's; a new file gets 0o666 less the umask. */
  mode?: number;
  /** Flush to disk before the rename (default true). Off only for caches a crash may lose. */
  fsync?: boolean;
}

/**
 * Beside the file and hidden, so watchers and globs in a user's project pass it by. Opened with
 * O_EXCL, so a clash fails instead of sharing a file (no node:crypto: this loads at every CLI start).
 */
function tmpName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.v2-bridge-${process.pid}-${Math.random().toString(36).slice(2, 12)}.tmp`);
}

/** The mode to give the result: explicit, else the replaced file's, else none (the umask decides). */
function modeFor(existing: { mode: number } | undefined, options: AtomicWriteOptions): number | undefined {
  return options.mode ?? (existing ? existing.mode & 0o7777 : undefined);
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const mode = modeFor(await stat(file).catch(() => undefined), options);
  const tmp = tmpName(file);
  const handle = await open(tmp, "wx", mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data, typeof data === "string" ? "utf8" : undefined);
      if (options.fsync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, file);
  } catch (error) {
    await unlink(tmp).catch(() => {});
    throw error;
  }
}

/** The same, synchronous: for writes at process exit, where nothing asynchronous runs any more. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  let existing: { mode: number } | undefined;
  try {
    existing = statSync(file);
  } catch {
    existing = undefined;
  }
  const mode = modeFor(existing, options);
  const tmp = tmpName(file);
  const fd = openSync(tmp, "wx", mode ?? 0o666);
  try {
    try {
      writeFileSync(fd, data);
      if (options.fsync !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw error;
  }
}
