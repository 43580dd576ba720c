// The tree scan's worker thread (codemod/start-scan.ts): reads and pre-filters the files it is
// given, posts progress, the first seed and the result, then ends.
import { parentPort, workerData } from "node:worker_threads";
import { scanFiles } from "./tree-scan.ts";

const { files, maxBytes } = workerData as { files: string[]; maxBytes: number };
const port = parentPort!;
const scan = scanFiles(files, maxBytes, {
  onProgress: (done, total) => done % 512 === 0 && port.postMessage({ type: "progress", done, total }),
  onSeed: () => port.postMessage({ type: "seed" }),
});
// The kept bytes are views into a few large buffers: moved to the main thread, not copied.
const arenas = new Set([...scan.kept.values()].map((b) => b.buffer as ArrayBuffer));
port.postMessage({ type: "done", scan: { ...scan, files: [] } }, [...arenas]);
