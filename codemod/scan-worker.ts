// The tree scan's worker thread (scan-handoff.ts): scans the files it is given (the rest of the
// tree after the first seed), posts progress and the result, its kept bytes moved rather than
// copied (they are views into a few slabs, each its own ArrayBuffer), then ends.
import { parentPort, workerData } from "node:worker_threads";
import { emptyScan, scanFrom } from "./tree-scan.ts";

const { files, keptBytes, maxBytes } = workerData as { files: string[]; keptBytes: number; maxBytes: number };
const port = parentPort!;
const { out } = scanFrom({ out: emptyScan(files), next: 0, keptBytes }, maxBytes, {
  onProgress: (done) => done % 1024 === 0 && port.postMessage({ type: "progress", done }),
});
const slabs = new Set([...out.kept.values()].map((b) => b.buffer as ArrayBuffer));
port.postMessage({ type: "done", scan: { ...out, files: [] } }, [...slabs]);
