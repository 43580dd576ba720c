// The generated adapter as a file in a client project: it type-checks under the strictest common
// compiler settings with no dependency, it runs in Node as ESM and CommonJS, regenerating it gives
// the same bytes (also from a fresh process), and writing it is atomic and touches nothing on a rerun.
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, chmodSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { adapterCall, adapterImport, adapterModule, writeAdapter, type AdapterOptions } from "../../codemod/adapter/index.ts";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { loadAdapter } from "./adapter-load.ts";

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `adapter-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const strictest: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  skipLibCheck: false,
};

function diagnostics(files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

/** A client file using every conversion through the lines the engine writes. */
function clientSource(adapterFile: string, clientFile: string, moduleKind: "esm" | "cjs"): string {
  return [
    adapterImport(clientFile, adapterFile, moduleKind, { explicitExtension: moduleKind === "esm" }),
    `const body = ${adapterCall("requestBody", "CreateNetworkVolume", "{ name: 'n', size: 10, dataCenterId: 'EU-RO-1' }")};`,
    `const record = ${adapterCall("record", "GetNetworkVolume", "JSON.parse('{}')")};`,
    `const list: string[] = ${adapterCall("list", "ListPods", "JSON.parse('{}')")}.map((p: { id: string }) => p.id);`,
    `const records = ${adapterCall("recordList", "ListNetworkVolumes", "JSON.parse('{}')")};`,
    `const message: string = ${adapterCall("problem", "GetPod", "JSON.parse('{}')")}.message;`,
    `${moduleKind === "esm" ? "export" : "export ="} { body, record, list, records, message };`,
    "",
  ].join("\n");
}

describe("the generated TypeScript type-checks with no dependency", () => {
  it("ES module (NodeNext, type module) under strict and friends, with a client using every call", () => {
    const dir = tempDir("tsc-esm");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const { fileName, text } = adapterModule({ language: "ts", moduleKind: "esm" });
    mkdirSync(path.join(dir, "src", "routes"), { recursive: true });
    const adapterFile = path.join(dir, "src", fileName);
    const clientFile = path.join(dir, "src", "routes", "client.ts");
    writeFileSync(adapterFile, text);
    writeFileSync(clientFile, clientSource(adapterFile, clientFile, "esm"));
    expect(readFileSync(clientFile, "utf8")).toContain('from "../v2-bridge-adapter.js"');
    const options = { ...strictest, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
    expect(diagnostics([adapterFile, clientFile], options)).toEqual([]);
  });

  it("CommonJS (`export =`, `import … = require`) under the same settings", () => {
    const dir = tempDir("tsc-cjs");
    const { text } = adapterModule({ language: "ts", moduleKind: "cjs" });
    const adapterFile = path.join(dir, "v2-bridge-adapter.ts");
    const clientFile = path.join(dir, "client.ts");
    writeFileSync(adapterFile, text);
    writeFileSync(clientFile, clientSource(adapterFile, clientFile, "cjs"));
    expect(readFileSync(clientFile, "utf8")).toContain('import v2Adapter = require("./v2-bridge-adapter");');
    const options = { ...strictest, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
    expect(diagnostics([adapterFile, clientFile], options)).toEqual([]);
  });
});

describe("the generated JavaScript runs in Node", () => {
  const probe = (binding: string) =>
    `console.log(JSON.stringify([${binding}.toV2Body.CreateNetworkVolume({ name: "n", size: 0, dataCenterId: "EU-RO-1", extra: 1 }), ${binding}.toV1List({ networkVolumes: [{ id: "v", dataCenter: "X", size: 10, type: "STANDARD" }] }, "ListNetworkVolumes"), ${binding}.v1Message({ title: "Bad", detail: "no", errors: ["a"] }, 400)]));`;
  const expected = () => {
    const a = loadAdapter(adapterModule({ language: "ts", moduleKind: "esm" }).text);
    return JSON.stringify([
      a.toV2Body.CreateNetworkVolume!({ name: "n", size: 0, dataCenterId: "EU-RO-1", extra: 1 }),
      a.toV1List({ networkVolumes: [{ id: "v", dataCenter: "X", size: 10, type: "STANDARD" }] }, "ListNetworkVolumes"),
      a.v1Message({ title: "Bad", detail: "no", errors: ["a"] }, 400),
    ]);
  };

  it.each([
    ["esm", "main.mjs"],
    ["cjs", "main.cjs"],
  ] as const)("%s, as the TypeScript flavour computes", (moduleKind, main) => {
    const dir = tempDir(`node-${moduleKind}`);
    const { fileName, text } = adapterModule({ language: "js", moduleKind });
    expect(fileName).toBe(moduleKind === "esm" ? "v2-bridge-adapter.js" : "v2-bridge-adapter.cjs");
    // An ES module .js needs a type-module package; the .cjs file is CommonJS anywhere.
    if (moduleKind === "esm") writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(path.join(dir, fileName), text);
    writeFileSync(path.join(dir, main), `${adapterImport(path.join(dir, main), path.join(dir, fileName), moduleKind)}\n${probe("v2Adapter")}\n`);
    const out = execFileSync(process.execPath, [path.join(dir, main)], { encoding: "utf8" }).trim();
    expect(out).toBe(expected());
  });
});

describe("a record conversion on an answer without a record", () => {
  // @actions/http-client's getJson answers `{ statusCode, result }` with `result: null` on a 404, and
  // v1 code reads `result?.id`: the conversion hands null (and undefined) back as it is, as the
  // gateway converts no missing body; a record converts, anything else is still refused.
  it.each([
    ["ts", "esm"],
    ["js", "cjs"],
  ] as const)("%s %s: null and undefined pass, a record converts", (language, moduleKind) => {
    const a = loadAdapter(adapterModule({ language, moduleKind }).text);
    for (const [resource, convert] of Object.entries(a.toV1Record)) {
      expect(convert(null), resource).toBeNull();
      expect(convert(undefined), resource).toBeUndefined();
      expect(() => convert("not found"), resource).toThrow(/expected a v2 /);
    }
    expect(a.toV1Record.networkVolume!({ id: "v", name: "cache", size: 20, dataCenter: "EU-RO-1", type: "STANDARD" })).toMatchObject({ id: "v", name: "cache", size: 20, dataCenterId: "EU-RO-1" });
  });
});

describe("regeneration is byte-identical", () => {
  const variants: AdapterOptions[] = [
    { language: "ts", moduleKind: "esm" },
    { language: "ts", moduleKind: "cjs" },
    { language: "js", moduleKind: "esm" },
    { language: "js", moduleKind: "cjs" },
  ];

  it("in one process, and from a fresh one", () => {
    const digest = (t: string) => createHash("sha256").update(t).digest("hex");
    const here = variants.map((v) => digest(adapterModule(v).text));
    expect(variants.map((v) => digest(adapterModule(v).text))).toEqual(here);
    const script = `import { adapterModule } from "./codemod/adapter/index.ts"; import { createHash } from "node:crypto";
console.log(JSON.stringify(${JSON.stringify(variants)}.map((v) => createHash("sha256").update(adapterModule(v).text).digest("hex"))));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual(here);
  }, 30_000);

  it("carries the header: made by v2-bridge from its table, its version, do not edit, how to regenerate", () => {
    const { text } = adapterModule({ language: "ts", moduleKind: "esm" });
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    const head = text.split("\n").slice(0, 4).join("\n");
    expect(head).toContain(`Generated by v2-bridge ${pkg.version} from its mapping table`);
    expect(head).toContain("Do not edit: regenerate with `v2-bridge rewrite`.");
    expect(text).not.toMatch(/\bimport\b.*\bfrom\b|\brequire\(/); // no dependency
  });
});

describe("writeAdapter", () => {
  it("writes the module, leaves an identical one alone, replaces an edited one atomically keeping its mode", async () => {
    const root = tempDir("write");
    const options = { language: "ts", moduleKind: "esm", dir: "src/lib" } as const;
    const first = await writeAdapter(root, options);
    const file = path.join(root, "src", "lib", "v2-bridge-adapter.ts");
    expect(first).toEqual({ file, written: true });
    expect(readFileSync(file, "utf8")).toBe(adapterModule(options).text);

    const before = statSync(file);
    const again = await writeAdapter(root, options);
    expect(again.written).toBe(false);
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);

    writeFileSync(file, readFileSync(file, "utf8").replace("putV1(out", "put(out"));
    chmodSync(file, 0o600);
    expect((await writeAdapter(root, options)).written).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(adapterModule(options).text);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["v2-bridge-adapter.ts"]);
    await expect(writeAdapter(root, { ...options, dir: "../elsewhere" })).rejects.toThrow(/outside the project/);
  });
});

describe("where rewrite writes the module", () => {
  it("at the nearest package root of the file that uses it, so a monorepo package imports nothing from outside itself", async () => {
    const { runCodemod } = await import("../../codemod/project.ts");
    const dir = mkdtempSync(path.join(os.tmpdir(), "adapter-monorepo-"));
    try {
      const pkg = path.join(dir, "packages", "hosting");
      mkdirSync(path.join(pkg, "src"), { recursive: true });
      writeFileSync(path.join(dir, "package.json"), '{ "name": "monorepo", "private": true }\n');
      writeFileSync(path.join(pkg, "package.json"), '{ "name": "hosting", "type": "module" }\n');
      writeFileSync(
        path.join(pkg, "src", "volumes.ts"),
        [
          'const BASE = "https://rest.runpod.io/v1";',
          "export interface Volume { id: string; name: string; dataCenterId: string }",
          "export async function listVolumes(): Promise<Volume[]> {",
          "  const res = await fetch(`${BASE}/networkvolumes`);",
          "  return (await res.json()) as Volume[];",
          "}",
          "",
        ].join("\n"),
      );
      await runCodemod({ paths: [dir], write: true });
      const text = readFileSync(path.join(pkg, "src", "volumes.ts"), "utf8");
      expect(text).toContain('from "../v2-bridge-adapter"');
      expect(statSync(path.join(pkg, "v2-bridge-adapter.ts")).isFile()).toBe(true);
      expect(readdirSync(dir)).not.toContain("v2-bridge-adapter.ts");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
