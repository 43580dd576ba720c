// The tree scan's worker thread (codemod/start-scan.ts): scans, posts progress and the result (with the listing as plain data), then ends.
import { parentPort, workerData } from "node:worker_threads";
import { scanTree } from "./tree-scan.ts";
import { TreeListing, listingToPlain } from "./walk.ts";

const { paths, cwd, maxBytes } = workerData as { paths: string[]; cwd: string; maxBytes: number };
const port = parentPort!;
try {
  const listing = new TreeListing();
  const scan = scanTree(paths, cwd, maxBytes, listing, {
    onProgress: (done, total) => done % 512 === 0 && port.postMessage({ type: "progress", done, total }),
  });
  // The kept bytes are views into a few large buffers: moved to the main thread, not copied.
  const arenas = new Set([...scan.kept.values()].map((b) => b.buffer as ArrayBuffer));
  port.postMessage({ type: "done", scan, listing: listingToPlain(listing) }, [...arenas]);
} catch (error) {
  port.postMessage({ type: "error", message: (error as Error).message });
}
