// The tree scan on two threads, once the engine is known to be needed. The calling thread scans in
// file order until the first seed (a file naming the v1 host or the v2 base); a tree with none never
// starts a thread nor loads the compiler. From that seed on, when enough files are left, a worker
// thread scans the rest (scan-worker.ts) while this thread loads TypeScript and parses and binds the
// standard library (`warm`), which it would otherwise do after the scan: the two overlap on a second
// core (~0.6 s each on the monorepo bench). The result is the same as one scan of every file in
// order (the parts are appended in order; a worker that fails has its part scanned here instead).
// Without a built worker file (the TypeScript sources: tsx, the tests) or a second core, the whole
// scan runs here. Nor when the machine has no idle core (the last minute's load average, which counts
// this process's own runs too, at or over the cores less half a core): the worker then waits for a
// core instead of overlapping, and only adds its own cost (~0.4 s CPU on the monorepo bench at
// load 18, for no wall time saved).
// V2_BRIDGE_SCAN_THREAD=0 turns the worker off; =1 uses it for any tree and any load (tests).
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { appendScan, emptyScan, scanFrom, type ScanEvents, type ScanResult } from "./tree-scan.ts";

/** Below this many files left after the first seed, starting a thread (~50 ms) and the warm-up cost more than the overlap saves. */
const HANDOFF_MIN_FILES = 2000;

/** The built worker, beside this module's chunk (dist/chunks/ → dist/codemod/scan-worker.js); undefined when running the sources. */
function workerFile(env: NodeJS.ProcessEnv): URL | undefined {
  if (env.V2_BRIDGE_SCAN_THREAD === "0" || !import.meta.url.endsWith(".js")) return undefined;
  if (env.V2_BRIDGE_SCAN_THREAD !== "1" && !idleCore()) return undefined;
  for (const rel of ["../codemod/scan-worker.js", "./scan-worker.js"]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** Whether a second core is free for the worker: at least two, and the 1-minute load average below their count less half a core (no load average, as on Windows: free). */
export function idleCore(cores = os.availableParallelism(), load = os.loadavg()[0]!): boolean {
  return cores >= 2 && load < cores - 0.5;
}

type Message = { type: "progress"; done: number } | { type: "done"; scan: ScanResult };

/** The scan of `files[from..]` in a worker thread. */
function scanInWorker(url: URL, files: string[], keptBytes: number, maxBytes: number, onProgress: ScanEvents["onProgress"], from: number, total: number): Promise<ScanResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: { files, keptBytes, maxBytes } });
    worker.on("message", (m: Message) => {
      if (m.type === "progress") onProgress?.(from + m.done, total * 2);
      else {
        // Moved bytes arrive as Uint8Array views of the moved slabs: the engine reads them as Buffers (no copy).
        for (const [f, bytes] of m.scan.kept) m.scan.kept.set(f, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        resolve({ ...m.scan, files });
      }
    });
    worker.on("error", reject);
    worker.on("exit", (code) => reject(new Error(`the scan's worker thread exited (${code}) before its result`)));
  });
}

/** Scans every file (tree-scan.ts); `warm` runs on this thread while a worker scans the files after the first seed. */
export async function scanTree(files: string[], maxBytes: number, events: ScanEvents, warm: () => Promise<void>, env = process.env): Promise<ScanResult> {
  const head = scanFrom({ out: emptyScan(files), next: 0, keptBytes: 0 }, maxBytes, events, true);
  const left = files.length - head.next;
  const url = left > 0 && head.out.seeds.size && (left >= HANDOFF_MIN_FILES || env.V2_BRIDGE_SCAN_THREAD === "1") ? workerFile(env) : undefined;
  if (!url) return scanFrom(head, maxBytes, events).out;
  const rest = scanInWorker(url, files.slice(head.next), head.keptBytes, maxBytes, events.onProgress, head.next, files.length);
  rest.catch(() => {}); // awaited below, after the warm-up
  await warm();
  try {
    return appendScan(head.out, await rest);
  } catch {
    return scanFrom(head, maxBytes, events).out;
  }
}
