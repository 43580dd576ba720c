// Unit tests of the codemod's modules, one block per module; the fixture suites cover them together.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closure, readPathsConfig, specifiersOf, textResolver } from "../../codemod/project-index.ts";
import { decodeUtf8, parseSize, readBounded, skipFinding } from "../../codemod/source-files.ts";
import { countMarks, markText, TODO_LINE } from "../../codemod/engine/todo-marks.ts";
import { byRisk, shortReason } from "../../codemod/engine/mark-problems.ts";
import { v2TemplateNames } from "../../codemod/engine/rewrites/openapi-fetch.ts";
import { differingFields } from "../../codemod/engine/rewrites/record-field-read.ts";
import { analyzeSource } from "../../codemod/single-file.ts";
import { lensNamed, operations } from "../../mappings/index.ts";
import { writtenAt } from "../../codemod/engine/nodes.ts";
import { Project, SyntaxKind } from "../../codemod/ts-morph.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

describe("project-index", () => {
  it("reads import, require, dynamic import and re-export specifiers from text", () => {
    expect(specifiersOf(`import a from "./a";\nimport type { B } from '../b.js';\nconst c = require("./c");\nexport * from "./d";\nconst e = await import("./e");\nimport "./f";`)).toEqual(["./a", "../b.js", "./c", "./d", "./e", "./f"]);
  });

  it("parses what can reach a seed: importers transitively, and everything they import", () => {
    const f = (n: string) => `/p/${n}.ts`;
    const specifiers = new Map([
      [f("service"), ["./base", "./http"]],
      [f("tools"), ["./service"]],
      [f("http"), ["./util"]],
      [f("unrelated"), ["./util"]],
    ]);
    const known = new Set(["base", "service", "tools", "http", "util", "unrelated"].map(f));
    const files = closure({ specifiers, seeds: new Set([f("base")]), root: "/p" }, textResolver(known, undefined));
    expect(files).toEqual(["base", "http", "service", "tools", "util"].map(f));
  });

  it("resolves tsconfig paths aliases, index files and NodeNext .js specifiers", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-units-"));
    temps.push(dir);
    writeFileSync(path.join(dir, "tsconfig.json"), '{ // comments are allowed\n "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }');
    const config = readPathsConfig(dir);
    const known = new Set([path.join(dir, "src/lib/config.ts"), path.join(dir, "src/api/index.ts"), path.join(dir, "src/x.ts")]);
    const resolve = textResolver(known, config);
    const from = path.join(dir, "src/app.ts");
    expect(resolve(from, "@/lib/config")).toBe(path.join(dir, "src/lib/config.ts"));
    expect(resolve(from, "./api")).toBe(path.join(dir, "src/api/index.ts"));
    expect(resolve(from, "./x.js")).toBe(path.join(dir, "src/x.ts"));
    expect(resolve(from, "lodash")).toBeUndefined();
  });

  it("follows tsconfig extends for paths (relative to the file declaring them), and SvelteKit's $lib without the generated file", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-units-"));
    temps.push(dir);
    mkdirSync(path.join(dir, "cfg"));
    writeFileSync(path.join(dir, "cfg/base.json"), '{ "compilerOptions": { "paths": { "~api/*": ["../src/api/*"] } } }');
    writeFileSync(path.join(dir, "tsconfig.json"), '{ "extends": "./cfg/base.json" }');
    const known = new Set([path.join(dir, "src/api/client.ts"), path.join(dir, "src/lib/x.ts")]);
    const from = path.join(dir, "src/app.ts");
    let resolve = textResolver(known, readPathsConfig(dir));
    expect(resolve(from, "~api/client")).toBe(path.join(dir, "src/api/client.ts"));
    expect(resolve(from, "$lib/x")).toBeUndefined(); // not a SvelteKit app
    writeFileSync(path.join(dir, "tsconfig.json"), '{ "extends": "./.svelte-kit/tsconfig.json" }'); // absent
    resolve = textResolver(known, readPathsConfig(dir));
    expect(resolve(from, "$lib/x")).toBe(path.join(dir, "src/lib/x.ts"));
  });
});

describe("source-files", () => {
  it("parses sizes with binary units and refuses nonsense", () => {
    expect(parseSize("2097152")).toBe(2_097_152);
    expect(parseSize("512k")).toBe(524_288);
    expect(parseSize("2m")).toBe(2_097_152);
    expect(parseSize("1GiB")).toBe(1_073_741_824);
    expect(() => parseSize("lots")).toThrow(/not a size/);
  });

  it("decodes only valid UTF-8 and reads within the size limit", async () => {
    expect(decodeUtf8("a.ts", Buffer.from("café ✓"))).toEqual({ text: "café ✓", bom: false });
    expect(decodeUtf8("a.ts", Buffer.from("\uFEFFcafé ✓"))).toEqual({ text: "café ✓", bom: true });
    expect("skip" in decodeUtf8("a.ts", Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe(true);
    const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-units-"));
    temps.push(dir);
    writeFileSync(path.join(dir, "big.ts"), "x".repeat(100));
    const read = await readBounded(path.join(dir, "big.ts"), 10);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(skipFinding("big.ts", read.skip)).toMatchObject({ category: "review", reason: expect.stringMatching(/^not processed \(too-large\)/) });
    expect((await readBounded(path.join(dir, "missing.ts"), 10)).ok).toBe(false);
  });
});

describe("todo-marks", () => {
  it("writes marks the reader parses back, with semicolons kept out of the reason", () => {
    const line = markText("StartPod", "review", [{ reason: "a; b\nc", advice: "do x" }]);
    const m = TODO_LINE.exec(`  ${line}`);
    expect(m?.slice(1)).toEqual(["StartPod", "review", undefined, "a, b c", undefined]);
    // Two sites of one statement with one problem: one line, counted twice.
    const twice = markText("ResetPod", "no-equivalent", [{ reason: "no reset in v2", advice: "stop then start" }], 2);
    expect(twice).toContain("(no-equivalent) ×2: ");
    // A mark of an earlier version (every problem, then the advice) is still read and counted.
    const older = "// TODO(v2-migration) GetPod (review) ×2: reads v1 record field costPerHr (a.ts:3), which v2 does not have, the list is not unwrapped; advice: see each reason";
    expect(TODO_LINE.exec(older)?.slice(1)).toEqual(["GetPod", "review", "2", "reads v1 record field costPerHr (a.ts:3), which v2 does not have, the list is not unwrapped", "see each reason"]);
    expect(countMarks(`${line}\n  ${twice}\n${older}\nconst x = 1;`)).toBe(5);
  });

  it("names the riskiest problem first, in one short line, and counts the others", () => {
    const problems = byRisk([
      { reason: "the body is a FormData, and v2 takes only JSON bodies", advice: "send JSON" },
      { reason: "kept on v1: its base stays v1", advice: "fix the base", risk: "elsewhere" },
      { reason: "reads v1 record field costPerHr (input.ts:12), which is cost + status + gpu + cpu + cloud in v2 with other values (converter hourlyRate), and more", brief: "reads v1 record field costPerHr (input.ts:12), which v2 computes otherwise (converter hourlyRate)", advice: "read cost", risk: "silent" },
      { reason: "pod reset has no v2 equivalent", advice: "stop then start", risk: "loss" },
    ]);
    expect(problems.map((p) => p.risk ?? "fails")).toEqual(["silent", "fails", "loss", "elsewhere"]);
    const line = markText("GetPod", "review", problems);
    expect(line).toBe("// TODO(v2-migration) GetPod (review): reads v1 record field costPerHr (input.ts:12), which v2 computes otherwise (converter hourlyRate) (+3 more)");
    expect(line).not.toContain("advice");
  });

  it("cuts a long reason at a clause, the same way whatever line numbers it quotes", () => {
    const long = "v1 base kept: a call on it that stays v1 (input.ts:15) cannot be given a base of its own: submit is declared with a function type (Submit), which a base parameter would not fit";
    expect(shortReason(long)).toBe("v1 base kept: a call on it that stays v1 (input.ts:15) cannot be given a base of its own");
    expect(shortReason(long.replace("input.ts:15", "input.ts:1234"))).toBe("v1 base kept: a call on it that stays v1 (input.ts:1234) cannot be given a base of its own");
    const words = "x".repeat(30) + " " + "y".repeat(50) + " " + "z".repeat(40);
    expect(shortReason(words)).toBe(`${"x".repeat(30)} ${"y".repeat(50)}…`);
    expect(shortReason("short enough")).toBe("short enough");
  });
});

describe("rewrites", () => {
  it("openapi-fetch templates take the v2 parameter names", () => {
    const start = operations.find((o) => o.key === "StartPod")!;
    expect(v2TemplateNames("/pods/{podId}/action", start)).toBe("/pods/{id}/action");
  });

  it("lists the record fields that differ in v2 from the lens", () => {
    const fields = differingFields(lensNamed("pod-record")!.fields);
    expect(fields).toContain("desiredStatus→status");
    expect(fields.some((f) => f.startsWith("id→"))).toBe(false);
  });
});

describe("do no harm (single file)", () => {
  it("keeps a base v1, with a mark naming the use it could not follow, and keeps its calls on v1", () => {
    const src = [
      'const API = "https://rest.runpod.io/v1";',
      "export async function stop(id: string) {",
      "  await fetch(`${API}/pods/${id}/stop`, { method: \"POST\" });",
      "}",
      "export const describe = () => console.log(API);",
    ].join("\n");
    const out = analyzeSource(src, { fileName: "/virtual/a.ts" });
    expect(out.output).toContain('"https://rest.runpod.io/v1"');
    expect(out.output).toContain("/pods/${id}/stop");
    // Line 5 as read; line 7 of the output, below the two marks.
    expect(out.output).toMatch(/v1 base kept: the codemod could not follow this use to a v1 call: a\.ts:7 \(API\)/);
    expect(out.output.split("\n")[6]).toBe("export const describe = () => console.log(API);");
    expect(out.findings.map((f) => f.category)).toEqual(["review", "review"]);
  });

  it("follows a base held in a config object declared `as const`", () => {
    const src = ['export const urls = { base: "https://rest.runpod.io/v1" } as const;', "export const stop = (id: string) => fetch(`${urls.base}/pods/${id}/stop`, { method: \"POST\" });"].join("\n");
    const out = analyzeSource(src, { fileName: "/virtual/c.ts" });
    expect(out.output).toContain('"https://api.runpod.io/v2"');
    expect(out.output).toContain("/pods/${id}/action");
  });

  it("flips the base when every use reaches a planned site", () => {
    const src = ['const API = "https://rest.runpod.io/v1";', "export const stop = (id: string) => fetch(`${API}/pods/${id}/stop`, { method: \"POST\" });"].join("\n");
    const out = analyzeSource(src, { fileName: "/virtual/b.ts" });
    expect(out.output).toContain('"https://api.runpod.io/v2"');
    expect(out.output).toContain("/pods/${id}/action");
    expect(out.findings.map((f) => f.category)).toEqual(["auto"]);
  });
});

describe("nodes", () => {
  it("tells a write of a name from a comparison that ends in `=`", () => {
    const sf = new Project({ useInMemoryFileSystem: true }).createSourceFile("w.ts", "let x = 0; const o: any = {};\nx = 1; x += 2; x ??= 3; x++; --x; delete o.k;\nx <= 3; x >= 3; x === 3; x != 3; -x; f(x);");
    const uses = sf.getDescendantsOfKind(SyntaxKind.Identifier).filter((i) => i.getText() === "x" || (i.getText() === "o" && i.getParent()?.getKind() === SyntaxKind.PropertyAccessExpression));
    const at = (n: (typeof uses)[number]) => (n.getText() === "o" ? n.getParent()! : n);
    expect(uses.slice(1).map((u) => writtenAt(at(u)))).toEqual([true, true, true, true, true, true, false, false, false, false, false, false]);
  });
});
