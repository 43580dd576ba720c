// `v2-bridge verify` on clients built on each HTTP library a Node team uses: the same small pod
// client written for v1 and for v2 (test/fixtures/verify/libraries), over node:https, undici,
// axios, got and node-fetch. Each must be redirected (v1 → gateway, v2 → sandbox), recorded with
// its call site, and the two runs must agree. A library that is not installed is skipped with the
// package to add.
import { cpSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { runVerify } from "../../verify/index.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { cleanupProjects, FIXTURES, project } from "./helpers.ts";

const LIBRARIES = path.join(FIXTURES, "verify", "libraries");
const requireHere = createRequire(path.join(REPO_ROOT, "package.json"));
// A package's own folder (got's "exports" does not expose its package.json to resolve()).
const installed = (name: string) => existsSync(path.join(REPO_ROOT, "node_modules", name, "package.json"));

/** The project before (v1 client) and after (v2 client), each with the library's transport. */
function pair(library: string): { before: string; after: string } {
  const make = (version: "v1" | "v2") => {
    const dir = project();
    cpSync(path.join(LIBRARIES, version, "client.mjs"), path.join(dir, "client.mjs"));
    cpSync(path.join(LIBRARIES, "transports", `${library}.mjs`), path.join(dir, "transport.mjs"));
    return dir;
  };
  return { before: make("v1"), after: make("v2") };
}

const CASES: { library: string; via: "http" | "undici"; builtIn?: boolean }[] = [
  { library: "https", via: "http", builtIn: true },
  { library: "undici", via: "undici", builtIn: true },
  { library: "axios", via: "http" },
  { library: "got", via: "http" },
  { library: "node-fetch", via: "http" },
];

describe.skipIf(missingReference)(refSuite("verify: clients on each HTTP library"), { timeout: 120_000 }, () => {
  afterAll(cleanupProjects);

  for (const { library, via, builtIn } of CASES) {
    const missing = !builtIn && !installed(library);
    it.skipIf(missing)(`${library}${missing ? ` (skipped: not installed; add it with npm install --save-dev ${library})` : ""}: redirected, recorded at its call site, equivalent`, async () => {
      const { before, after } = pair(library);
      const report = await runVerify({ command: ["node", "client.mjs"], root: before, cwd: before, after, compareOutput: true });
      expect(report.runs.before.stderrTail).toBeUndefined();
      expect(report.runs.after.stderrTail).toBeUndefined();
      // Five calls each: the original's all to v1 (through the gateway), the rewrite's all to v2.
      expect(report.runs.before.calls).toEqual({ v1: 5, v2: 0 });
      expect(report.runs.after.calls).toEqual({ v1: 0, v2: 5 });
      expect(report.coverage.operations.map((o) => [o.operation, o.before, o.after])).toEqual([
        ["createPod", 1, 1],
        ["deletePod", 1, 1],
        ["listPods", 2, 2],
        ["podAction(stop)", 1, 1],
      ]);
      expect([report.verdict, report.differences, report.notes]).toEqual(["equivalent", [], []]);
      expect(report.coverage.v1Operations.map((o) => o.operation)).toEqual(["CreatePod", "DeletePod", "ListPods", "StopPod"]);
      // The door each library goes through, and the client's own lines as the site: the transport's
      // send() and the client line that called it (the library's frames left out). Node's own
      // clients call synchronously, so the site is always there; a library that calls later, after
      // its own awaits, may leave no client frame on the stack (then the site is unknown, never wrong).
      for (const run of [report.runs.before, report.runs.after]) {
        expect(run.trace.map((t) => t.via)).toEqual(Array(5).fill(via));
        for (const t of run.trace) if (builtIn || t.site) expect(t.site?.chain.join(" ← ")).toMatch(/(^|← )client\.mjs:\d+/);
      }
      if (builtIn) expect(report.runs.before.trace.map((t) => t.site!.chain.find((c) => c.startsWith("client.mjs"))!.split(":")[1])).toEqual(["5", "6", "7", "8", "9"]);
    });
  }
});
