// Runs the tree scan (codemod/tree-scan.ts) in a worker thread when the CLI runs built (dist/), so
// that on a machine with two cores or more the walk and ~19,000 reads overlap the main thread's
// loading of TypeScript and parsing of the standard library types (project-index.ts
// warmCompiler). From the TypeScript sources (tsx, the tests) there is no built worker file: the
// scan runs on the calling thread, with the same code and the same result.
// V2_BRIDGE_SCAN_THREAD=0 turns the worker off (to compare the two).
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { checkPathsExist, scanTree, type ScanResult } from "./tree-scan.ts";
import { TreeListing, listingFromPlain, type PlainListing } from "./walk.ts";

export interface ScanHandle {
  /**
   * Whether to load the compiler now: at once beside a worker (the main thread is idle until the
   * scan ends; a tree that turns out to name neither base pays that load on the other core), or,
   * on the calling thread, after the scan and only when it found a seed.
   */
  warm: Promise<boolean>;
  result: Promise<{ scan: ScanResult; listing: TreeListing }>;
}

/** The built worker, beside this module's chunk (dist/chunks/ → dist/codemod/scan-worker.js); undefined when running the sources. */
function workerFile(): URL | undefined {
  // One core: the worker would only take turns with the main thread.
  if (process.env.V2_BRIDGE_SCAN_THREAD === "0" || !import.meta.url.endsWith(".js") || os.availableParallelism() < 2) return undefined;
  for (const rel of ["../codemod/scan-worker.js", "./scan-worker.js"]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

export function startScan(paths: string[], cwd: string, maxBytes: number, onProgress?: (done: number, total: number) => void): ScanHandle {
  const file = workerFile();
  if (!file) {
    const listing = new TreeListing();
    const scan = scanTree(paths, cwd, maxBytes, listing, { onProgress });
    return { warm: Promise.resolve(scan.seeds.size > 0), result: Promise.resolve({ scan, listing }) };
  }
  checkPathsExist(paths, cwd); // before the compiler loads, not after
  const worker = new Worker(file, { workerData: { paths, cwd, maxBytes } });
  const result = new Promise<{ scan: ScanResult; listing: TreeListing }>((resolve, reject) => {
    worker.on("message", (m: { type: "progress"; done: number; total: number } | { type: "done"; scan: ScanResult; listing: PlainListing } | { type: "error"; message: string }) => {
      if (m.type === "progress") onProgress?.(m.done, m.total);
      else if (m.type === "error") reject(new Error(m.message));
      else {
        const total = m.scan.files.length;
        if (total) onProgress?.(total, total * 2);
        // Cloned bytes arrive as Uint8Array: the engine reads them as Buffers (no copy).
        for (const [f, bytes] of m.scan.kept) m.scan.kept.set(f, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        resolve({ scan: m.scan, listing: listingFromPlain(m.listing) });
      }
    });
    worker.on("error", reject);
    worker.on("exit", (code) => reject(new Error(`the scan's worker thread exited (${code}) before its result`)));
  });
  // A failure arriving while the caller loads the compiler is reported when it awaits the result, not as an unhandled rejection.
  result.catch(() => {});
  return { warm: Promise.resolve(true), result };
}
