// The boundary adapter is written inside what the client package compiles: a tsconfig with
// `rootDir: "src"` (or an `include` that leaves out the package root) must still build after the
// rewrite. Before, the module went to the package root and was imported as `../v2-bridge-adapter`:
// TS6059 ("not under rootDir"), or left out of the build. Each project is compiled with its own
// tsconfig after `rewrite --write`.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { cleanup, copyCase } from "./fixture-helpers.ts";

const CASE = "adapter/rootdir-src";
const temps: string[] = [];
afterAll(() => temps.forEach(cleanup));

/** tsc diagnostics of the project as its tsconfig.json describes it. */
function build(dir: string): string[] {
  const file = path.join(dir, "tsconfig.json");
  const read = ts.readConfigFile(file, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, file);
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => `${d.file ? path.relative(dir, d.file.fileName) : ""} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

async function rewritten(tsconfig?: object): Promise<string> {
  const dir = copyCase(CASE);
  temps.push(dir);
  if (tsconfig) writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  await runCodemod({ paths: [dir], write: true });
  return dir;
}

const base = { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"], types: [], strict: true, outDir: "dist" };

describe("the adapter module inside the package's compile root", { timeout: 180_000 }, () => {
  it("rootDir src: written under src and the project builds", async () => {
    const dir = await rewritten();
    expect(existsSync(path.join(dir, "src/v2-bridge-adapter.ts"))).toBe(true);
    expect(existsSync(path.join(dir, "v2-bridge-adapter.ts"))).toBe(false);
    expect(build(dir)).toEqual([]);
    // A second run finds it where it is and changes nothing.
    const again = await runCodemod({ paths: [dir], write: true, diff: true });
    expect(again.files.filter((f) => f.changed).map((f) => f.file)).toEqual([]);
  });

  it("include src/**/*.ts without rootDir: written under src", async () => {
    const dir = await rewritten({ compilerOptions: base, include: ["src/**/*.ts"] });
    expect(existsSync(path.join(dir, "src/v2-bridge-adapter.ts"))).toBe(true);
    expect(build(dir)).toEqual([]);
  });

  it("a tsconfig compiling the whole package: written at the package root", async () => {
    const dir = await rewritten({ compilerOptions: base });
    expect(existsSync(path.join(dir, "v2-bridge-adapter.ts"))).toBe(true);
    expect(build(dir)).toEqual([]);
  });
});
