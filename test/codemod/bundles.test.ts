// A bundler's output (esbuild, webpack, ncc, Parcel, Rollup) is audited by text and never rewritten:
// the next build overwrites it, and analysing it as code cost minutes on a real tree (bundles.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { bundlerOf } from "../../codemod/bundles.ts";

const SOURCE = `const BASE = "https://rest.runpod.io/v1";
export async function stopPod(id: string) {
  const res = await fetch(\`\${BASE}/pods/\${id}/stop\`, { method: "POST" });
  return res.ok;
}
`;
// esbuild's runtime helpers come first, then the bundled modules (here the same client, compiled).
const ESBUILD = `#!/usr/bin/env node
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports; };

// src/client.ts
var BASE = "https://rest.runpod.io/v1";
async function stopPod(id) {
  const res = await fetch(\`\${BASE}/pods/\${id}/stop\`, { method: "POST" });
  return res.ok;
}
export { stopPod };
`;
const WEBPACK = `/******/ (() => { // webpackBootstrap
/******/ 	var __webpack_modules__ = ({});
/******/ 	function __webpack_require__(moduleId) { return __webpack_modules__[moduleId]; }
const api = "https://rest.runpod.io/v1/pods";
module.exports = () => fetch(api);
/******/ })();
`;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-bundles-"));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe("bundles", () => {
  it("names the bundler from a file's first bytes, and not hand-written code", () => {
    expect(bundlerOf(ESBUILD)).toBe("esbuild");
    expect(bundlerOf(WEBPACK)).toBe("webpack");
    expect(bundlerOf("var __nccwpck_require__ = {};")).toBe("ncc");
    expect(bundlerOf(SOURCE)).toBeUndefined();
    // One helper-like line in hand-written code is not a bundle.
    expect(bundlerOf(`var __defProp = Object.defineProperty;\n${SOURCE}`)).toBeUndefined();
  });

  it("rewrite migrates the sources and leaves the bundles byte for byte; audit reports the bundles' v1 addresses by text", async () => {
    const dir = tree({ "src/client.ts": SOURCE, "dist/server.mjs": ESBUILD, "build/main.js": WEBPACK });
    const result = await runCodemod({ paths: [dir], write: true });
    expect(readFileSync(path.join(dir, "src/client.ts"), "utf8")).toContain("/pods/${id}/action");
    expect(readFileSync(path.join(dir, "dist/server.mjs"), "utf8")).toBe(ESBUILD);
    expect(readFileSync(path.join(dir, "build/main.js"), "utf8")).toBe(WEBPACK);
    const audit = await runCodemod({ paths: [dir] });
    const inBundles = audit.findings.filter((f) => !f.file.startsWith("src/"));
    expect(inBundles.map((f) => [f.file, f.line])).toEqual([
      ["build/main.js", 4],
      ["dist/server.mjs", 9],
    ]);
    for (const f of inBundles) expect(f.reason).toMatch(/in a bundle built by (esbuild|webpack) \(rebuild it from the migrated sources\)/);
    expect(inBundles.find((f) => f.file === "build/main.js")!.reason).toContain("ListPods");
    expect(audit.files.find((f) => f.file === "dist/server.mjs")?.changed).toBe(false);
  });
});
