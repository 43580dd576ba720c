// Edits: made from a node of their file (text-edit.ts), applied only where they fit (apply-edits.ts),
// nested when an outer edit keeps the text an inner one changes; marks name uses by short, whole
// expressions (expression-name.ts).
import { describe, expect, it } from "vitest";
import { Project, SyntaxKind } from "ts-morph";
import { applyEdits } from "../../codemod/engine/apply-edits.ts";
import { insertAt, replaceNode, textEdit } from "../../codemod/engine/text-edit.ts";
import { shortExpression } from "../../codemod/engine/expression-name.ts";
import type { Edit } from "../../codemod/types.ts";

const A = "/p/a.ts";
const B = "/p/b.ts";
const at = (file: string, text: string, start: number, end: number, replacement: string): Edit => ({ file, start, end, text: replacement, old: text.slice(start, end) });

describe("applyEdits", () => {
  const src = 'const list = await rp<Array<{ id: string; dataCenterId: string }>>("GET", "/networkvolumes");\n';
  const typeArg = src.indexOf("Array<");
  const typeEnd = src.indexOf(">>") + 1;
  const field = src.indexOf("dataCenterId");

  it("refuses an edit made for another file, and leaves the text alone", () => {
    const foreign: Edit = { file: B, start: field, end: field + 12, text: "(RUNPOD_V1_BASE + \"/\")", old: "apiRoot" };
    const r = applyEdits(A, src, [foreign]);
    expect(r.refused).toEqual([foreign]);
    expect(r.output).toBe(src);
  });

  it("refuses an edit whose range no longer holds the text the planner saw", () => {
    const stale: Edit = { file: A, start: field, end: field + 12, text: "dataCenter", old: "dataCenterXX" };
    const ok = at(A, src, src.indexOf('"/networkvolumes"') + 1, src.indexOf('"/networkvolumes"') + 16, "/network-volumes");
    const r = applyEdits(A, src, [stale, ok]);
    expect(r.refused).toEqual([stale]);
    expect(r.output).toContain("dataCenterId");
  });

  it("applies the edits inside a range to the copy an edit makes of it (a base moved into a parameter default)", () => {
    const fn = "function route(env: Env, path: string) {\n  return new URL(path, env.API_BASE ?? FALLBACK);\n}\n";
    const base = fn.indexOf("env.API_BASE ??");
    const baseEnd = fn.indexOf(");\n}");
    const setter = at(A, fn, base, base + "env.API_BASE".length, "runpodV2Base(env.API_BASE)");
    const param = fn.indexOf("path: string") + "path: string".length;
    const declared: Edit = { ...at(A, fn, param, param, `, runpodBase = ${fn.slice(base, baseEnd)}`), copies: { start: base, end: baseEnd } };
    const moved = at(A, fn, base, baseEnd, "runpodBase");
    for (const edits of [[setter, declared, moved], [moved, declared, setter]]) {
      const r = applyEdits(A, fn, edits);
      expect(r.conflicts).toEqual([]);
      expect(r.output).toContain("path: string, runpodBase = runpodV2Base(env.API_BASE) ?? FALLBACK) {");
      expect(r.output).toContain("new URL(path, runpodBase);");
    }
    // Without the copy, the setter inside the moved range is a conflict.
    expect(applyEdits(A, fn, [setter, { ...declared, copies: undefined }, moved]).conflicts).toEqual([setter]);
  });

  it("applies an edit inside another that keeps the text it replaces (a list unwrap around a field rename)", () => {
    const wrap = at(A, src, typeArg, typeEnd, `{ networkVolumes: ${src.slice(typeArg, typeEnd)} }`);
    const rename = at(A, src, field, field + "dataCenterId".length, "dataCenter");
    for (const edits of [[wrap, rename], [rename, wrap]]) {
      const r = applyEdits(A, src, edits);
      expect(r.conflicts).toEqual([]);
      expect(r.output).toContain("rp<{ networkVolumes: Array<{ id: string; dataCenter: string }> }>(");
    }
  });

  it("reports overlapping edits that cannot nest as conflicts", () => {
    const replaced = at(A, src, typeArg, typeEnd, "unknown[]");
    const rename = at(A, src, field, field + 12, "dataCenter");
    expect(applyEdits(A, src, [replaced, rename]).conflicts).toEqual([rename]);
    const partial = at(A, src, field - 4, field + 4, "x");
    expect(applyEdits(A, src, [rename, partial]).conflicts).toHaveLength(1);
    const sameRange = at(A, src, field, field + 12, "other");
    expect(applyEdits(A, src, [rename, sameRange]).conflicts).toEqual([sameRange]);
  });

  it("keeps insertions at an edit's ends outside it, collapses identical edits, and writes CRLF in a CRLF file", () => {
    const crlf = "a();\r\nb();\r\n";
    const r = applyEdits(A, crlf, [at(A, crlf, 6, 6, "// mark\n"), at(A, crlf, 6, 9, "c()"), at(A, crlf, 6, 9, "c()"), at(A, crlf, 9, 9, "!")]);
    expect(r).toEqual({ output: "a();\r\n// mark\r\nc()!;\r\n", conflicts: [], refused: [] });
  });
});

describe("insertions at one position", () => {
  const src = "// a file with no imports\nconst API = 1;\n";

  it("put an import line before a declaration planned earlier at the same place (a file with no imports)", () => {
    const helper = at(A, src, 0, 0, "function v1Status(x: any): any {\n  return x;\n}\n\n");
    const base = at(A, src, 0, 0, "const RUNPOD_V1_BASE = \"https://rest.runpod.io/v1\";\n");
    const adapter: Edit = { ...at(A, src, 0, 0, 'import * as v2Adapter from "./v2-bridge-adapter";\n'), import: true };
    const r = applyEdits(A, src, [helper, base, adapter]);
    expect(r.output.startsWith('import * as v2Adapter from "./v2-bridge-adapter";\nfunction v1Status')).toBe(true);
    expect(r.output.indexOf("RUNPOD_V1_BASE")).toBeGreaterThan(r.output.indexOf("v1Status"));
  });

  it("keep their planned order where none is an import", () => {
    const one = at(A, src, 0, 0, "// one\n");
    const two = at(A, src, 0, 0, "// two\n");
    expect(applyEdits(A, src, [two, one]).output).toBe(`// two\n// one\n${src}`);
  });
});

describe("text edits", () => {
  const project = new Project({ useInMemoryFileSystem: true });
  const sf = project.createSourceFile("/p/x.ts", 'const BASE = "https://rest.runpod.io/v1";\n');
  const literal = sf.getFirstDescendantByKindOrThrow(SyntaxKind.StringLiteral);

  it("carry their file and the text they replace", () => {
    expect(replaceNode(literal, '"https://api.runpod.io/v2"')).toEqual({ file: "/p/x.ts", start: literal.getStart(), end: literal.getEnd(), text: '"https://api.runpod.io/v2"', old: '"https://rest.runpod.io/v1"' });
    expect(insertAt(sf, 0, "// x\n")).toMatchObject({ file: "/p/x.ts", old: "" });
  });

  it("cannot be made outside the file", () => {
    expect(() => textEdit(literal, 10, 400, "x")).toThrow(/outside x\.ts/);
  });
});

describe("edits of a shorthand property's value", () => {
  const project = new Project({ useInMemoryFileSystem: true });
  const text = "send(url, { method: 'POST', body, headers });\n";
  const sf = project.createSourceFile("/p/s.ts", text);
  const prop = sf.getFirstDescendantByKindOrThrow(SyntaxKind.ShorthandPropertyAssignment);
  const name = prop.getNameNode();
  const wrap = (open: string, close: string) => [textEdit(name, name.getStart(), name.getStart(), open), textEdit(name, name.getEnd(), name.getEnd(), close)];
  const run = (edits: Edit[]) => applyEdits("/p/s.ts", text, edits).output;

  it("write the key once, however many edits wrap or replace the value", () => {
    expect(run(wrap("adapter(", ")"))).toContain("{ method: 'POST', body: adapter(body), headers }");
    expect(run([...wrap("outer(", ")"), ...wrap("inner(", ")")])).toContain("body: outer(inner(body)), headers");
    // Only a close (`.then(…)` after the value): the key still goes before it.
    expect(run([textEdit(name, name.getEnd(), name.getEnd(), ".then(f)")])).toContain("body: body.then(f), headers");
    expect(run([replaceNode(name, "converted")])).toContain("body: converted, headers");
  });

  it("leave an edit made at the property (a key rename) and one after it alone", () => {
    expect(run([textEdit(prop, prop.getStart(), prop.getEnd(), "json: body")])).toContain("{ method: 'POST', json: body, headers }");
    const obj = sf.getFirstDescendantByKindOrThrow(SyntaxKind.ObjectLiteralExpression);
    expect(run([textEdit(obj, prop.getEnd(), prop.getEnd(), ", extra: 1")])).toContain("body, extra: 1, headers");
  });
});

describe("shortExpression", () => {
  const project = new Project({ useInMemoryFileSystem: true });
  const sf = project.createSourceFile(
    "/p/y.ts",
    [
      "const a = {",
      "  runpod: {",
      "    apiKey: process.env.RUNPOD_API_KEY,",
      "    // TODO(v2-migration) base (review): …",
      "    baseUrl: process.env.RUNPOD_URL || 'https://rest.runpod.io/v1',",
      "  },",
      "};",
      "const b = axios.create({ baseURL: settings.providers.gpu.endpoint, timeout: 1 });",
      "const c = x /* note */ + y;",
      "const d = API;",
    ].join("\n"),
  );
  const init = (name: string) => sf.getVariableDeclarationOrThrow(name).getInitializerOrThrow();

  it("names a short expression on one line by its text", () => {
    expect(shortExpression(init("d"))).toBe("API");
  });

  it("names a long or multi-line expression by its shape, never by a cut or by a comment inside it", () => {
    const inner = init("a").getFirstDescendantByKindOrThrow(SyntaxKind.ObjectLiteralExpression);
    expect(shortExpression(inner)).toBe("{ apiKey: …, baseUrl: … }");
    expect(shortExpression(init("a"))).toBe("{ runpod: … }");
    expect(shortExpression(init("b"))).toBe("axios.create(…)");
    expect(shortExpression(init("c"))).toBe("x + y");
  });
});
