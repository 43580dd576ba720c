// Reads and pre-filters a large tree's sources (codemod/tree-scan.ts) in a worker thread when the
// CLI runs built (dist/): from the first seed on (a file naming the v1 host or the v2 base: the
// engine will be needed), the main thread loads TypeScript and parses and binds the standard
// library (project-index.ts warmCompiler) while the worker reads the rest, on a second core. A
// tree with no seed never loads the compiler, as before. A small tree, one core, or the TypeScript
// sources (tsx, the tests: there is no built worker file) read on the calling thread, with the same
// code and the same result, and load the compiler after the scan as before (a warm-up there would
// only add the throwaway project's cost). V2_BRIDGE_SCAN_THREAD=0 turns the worker off (to compare the two).
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { scanFiles, type ScanResult } from "./tree-scan.ts";

/** Below this many sources, starting a thread (~30 ms) costs more than the overlap saves. */
const WORKER_MIN_FILES = 2000;

export interface ScanHandle {
  /** Resolves true at the worker's first seed (load the compiler now, beside it), false when the scan ends with none or ran on this thread. */
  warmNow: Promise<boolean>;
  result: Promise<ScanResult>;
}

/** The built worker, beside this module's chunk (dist/chunks/ → dist/codemod/scan-worker.js); undefined when running the sources. */
function workerFile(): URL | undefined {
  if (process.env.V2_BRIDGE_SCAN_THREAD === "0" || !import.meta.url.endsWith(".js") || os.availableParallelism() < 2) return undefined;
  for (const rel of ["../codemod/scan-worker.js", "./scan-worker.js"]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

type Message = { type: "progress"; done: number; total: number } | { type: "seed" } | { type: "done"; scan: ScanResult };

export function startScan(files: string[], maxBytes: number, onProgress?: (done: number, total: number) => void): ScanHandle {
  const file = files.length >= WORKER_MIN_FILES ? workerFile() : undefined;
  if (!file) {
    const scan = scanFiles(files, maxBytes, { onProgress });
    return { warmNow: Promise.resolve(false), result: Promise.resolve(scan) };
  }
  const worker = new Worker(file, { workerData: { files, maxBytes } });
  let seeded!: (yes: boolean) => void;
  const seededPromise = new Promise<boolean>((r) => (seeded = r));
  const result = new Promise<ScanResult>((resolve, reject) => {
    worker.on("message", (m: Message) => {
      if (m.type === "progress") onProgress?.(m.done, m.total);
      else if (m.type === "seed") seeded(true);
      else {
        onProgress?.(files.length, files.length * 2);
        // Moved bytes arrive as Uint8Array views: the engine reads them as Buffers (no copy).
        for (const [f, bytes] of m.scan.kept) m.scan.kept.set(f, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        resolve({ ...m.scan, files });
      }
    });
    worker.on("error", reject);
    worker.on("exit", (code) => reject(new Error(`the scan's worker thread exited (${code}) before its result`)));
  });
  result.then(
    () => seeded(false),
    () => seeded(false),
  );
  return { warmNow: seededPromise, result };
}
