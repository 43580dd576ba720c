// The rewritten fixtures type-check against minimal v2 client types (test/fixtures/codemod/
// v2-types.d.ts), and those types reject a v1-shaped body, so the check means something.
import { existsSync, readFileSync } from "node:fs";
import { adapterModule } from "../../codemod/adapter/index.ts";
import path from "node:path";
import ts from "typescript";
import { byChunks, checkCases } from "./grouped-check.ts";
import { memoryHost } from "./memory-host.ts";
import { describe, expect, it } from "vitest";
import { FIXTURES, adapterPaths, casePairs, fixtureCases } from "./fixture-helpers.ts";

const TYPES = path.join(FIXTURES, "v2-types.d.ts");

/** Library files (lib.es2023) parsed once for every program. */
const shared = new Map<string, ts.SourceFile>();

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  types: [],
  strict: true,
  noEmit: true,
  jsx: ts.JsxEmit.Preserve,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
};

/** The errors of one project (the files given, with the v2 types), outside marked statements. */
function errorsOf(files: Map<string, string>, diagnostics: readonly ts.Diagnostic[]): string[] {
  const all = new Set([...files.keys(), TYPES]);
  return diagnostics
    .filter((d) => !d.file || all.has(path.resolve(d.file.fileName)))
    .filter((d) => !d.file || d.start === undefined || !markedRanges(d.file).some(([from, to]) => d.start! >= from && d.start! < to))
    .map((d) => `${d.file ? path.relative(FIXTURES, d.file.fileName) : ""}: ${unionsInOrder(ts.flattenDiagnosticMessageText(d.messageText, "\n"))}`);
}

/**
 * A message with the members of each quoted union in one order: the checker prints a union in the
 * order it created its members' types, which depends on the other cases compiled in the same
 * program (`'Body | JsonBody'` in one chunk, `'JsonBody | Body'` in another), not on the case.
 */
function unionsInOrder(message: string): string {
  return message.replace(/'([^'\n]*)'/g, (_m, type: string) => `'${type.split(" | ").sort().join(" | ")}'`);
}

function typecheck(files: Map<string, string>): string[] {
  const all = new Map(files);
  all.set(TYPES, readFileSync(TYPES, "utf8"));
  const program = ts.createProgram([...all.keys()], OPTIONS, memoryHost(OPTIONS, all, shared));
  return errorsOf(files, ts.getPreEmitDiagnostics(program));
}

/** The errors of each project, in as few programs as give each its own (grouped-check.ts). */
function typecheckEach(projects: Map<string, Map<string, string>>): Map<string, string[]> {
  const checked = checkCases([...projects].map(([name, files]) => ({ name, files })), OPTIONS, shared, [TYPES]);
  return new Map([...projects].map(([name, files]) => [name, errorsOf(files, checked.get(name)!)]));
}

/** Statements under a TODO(v2-migration) mark: what a human must still decide may stay v1-shaped. */
function markedRanges(sf: ts.SourceFile): [number, number][] {
  const out: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStatement(node) && sf.text.slice(node.pos, node.getStart(sf)).includes("TODO(v2-migration)")) out.push([node.pos, node.end]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("rewritten fixtures type-check against v2 types", () => {
  // Marked sites keep compiling code (a mark is a comment); every TypeScript output is checked.
  // helper-request-callsites: the helper takes `body?: any` and serialises it itself, so a type
  // check proves nothing about its call sites (the client-app e2e run covers that shape).
  const checked = fixtureCases().filter((name) =>
    name !== "helpers/request-callsites" &&
    casePairs(name).every((p) => /\.(ts|tsx)$/.test(p.output)),
  );

  /** A case's outputs, with the boundary adapter the rewrite writes at the run's root, generated as the CLI would. */
  const outputs = (name: string) => {
    const files = new Map(casePairs(name).map((p) => [p.output, readFileSync(p.output, "utf8")]));
    if ([...files.values()].some((t) => t.includes("v2-bridge-adapter"))) {
      const root = existsSync(path.join(FIXTURES, name, "output")) ? path.join(FIXTURES, name, "output") : path.join(FIXTURES, name);
      for (const at of adapterPaths(files, root)) files.set(at, adapterModule({ language: "ts", moduleKind: "esm" }).text);
    }
    return files;
  };
  // The cases' inputs (at the outputs' paths) and outputs are compiled 40 cases at a time, all inputs
  // together and all outputs together where grouped-check.ts shows that gives each its own diagnostics.
  const results = byChunks(checked, 40, (names) => {
    const before = typecheckEach(new Map(names.map((name) => [name, new Map(casePairs(name).map((p) => [p.output, readFileSync(p.input, "utf8")]))])));
    const after = typecheckEach(new Map(names.map((name) => [name, outputs(name)])));
    return new Map(names.map((name) => [name, { before: before.get(name)!, after: after.get(name)! }]));
  });

  // The first case of a chunk compiles the chunk: more than the default 30 s on a loaded 2-core machine.
  it.each(checked)("%s", { timeout: 300_000 }, (name) => {
    // Calls left whole in v1 shape keep the errors their input already had against v2 types (the
    // same file, the same message); the rewrite must add none.
    const { before, after } = results(name);
    const was = new Set(before);
    expect(after.filter((e) => !was.has(e))).toEqual([]);
  });

  it("covers the TypeScript cases", () => {
    expect(checked).toEqual(expect.arrayContaining(["lists/fetch-list-pods", "libraries/axios-instance-baseurl", "lifecycle/start-stop", "libraries/got-ky-undici", "lists/jsx-component", "bodies/update-post-to-patch", "factories/create-request-ts", "classes/private-call-method", "wrappers/fetch-with-retry"]));
  });

  it("rejects v1-shaped bodies (the types are honest)", () => {
    const v1 = `
      import axios from "axios";
      import got from "got";
      const API = "https://api.runpod.io/v2";
      export async function a() {
        await fetch(API + "/pods", { method: "POST", body: JSON.stringify({ name: "x", imageName: "nginx", gpuTypeIds: ["A"], gpuCount: 1 }) });
        await axios.post(API + "/network-volumes", { name: "v", size: 10, dataCenterId: "EU-RO-1" });
        await got.patch(API + "/serverless/e", { json: { workersMin: 0, workersMax: 2 } });
      }`;
    const errors = typecheck(new Map([[path.join(FIXTURES, "__v1-shaped.ts"), v1]]));
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect(errors.join("\n")).toMatch(/imageName|dataCenterId|workersMin/);
  });

  it("accepts the v1 input of a case only where nothing changes in types (sanity: inputs fail)", () => {
    const input = casePairs("bodies/create-pod-flat-to-nested")[0]!.input;
    expect(typecheck(new Map([[input, readFileSync(input, "utf8")]])).length).toBeGreaterThan(0);
  });
});
