// Rewritten TypeScript type-checks as well as the client did: every TypeScript fixture project is
// compiled (strict, the standard library, DOM and Node types, as a client project would be) as it
// was written and as the rewrite leaves it, and no rewrite may add a tsc error at a line that had
// none. Lines are matched through a line diff: an unchanged line is itself, a changed line is the
// lines it replaced, an added line (a mark, a base constant) had none. A statement under a
// TODO(v2-migration) mark is the human's to finish (as in typecheck.test.ts): its errors are told.
import { existsSync, readFileSync } from "node:fs";
import { adapterModule } from "../../codemod/adapter/index.ts";
import path from "node:path";
import { diffLines } from "diff";
import ts from "typescript";
import { byChunks, checkCases } from "./grouped-check.ts";
import { describe, expect, it } from "vitest";
import { FIXTURES, adapterPaths, casePairs, fixtureCases } from "./fixture-helpers.ts";

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  typeRoots: [path.resolve("node_modules/@types")],
  strict: true,
  noEmit: true,
  allowJs: true,
  checkJs: false,
  skipLibCheck: true,
  jsx: ts.JsxEmit.Preserve,
  allowImportingTsExtensions: true,
};

/**
 * Added errors known to come from rewrites outside the request-body forms, reported to their
 * owners: case → text of the rewritten line. Only these lines are excused, and only when asked.
 */
const REPORTED: Record<string, string[]> = {
  // list unwrap destructures undici's `body.json()`, typed `Promise<unknown>` (issue 18, list-unwrap)
  "libraries/got-ky-undici": ["const { endpoints } = await body.json();"],
};

/** Library files (lib.dom, @types/node) parsed once for every program. */
const shared = new Map<string, ts.SourceFile>();

/** tsc diagnostics of each case's project (the files given, at their paths), as 0-based line → messages, per file. */
function diagnosticsByLine(projects: Map<string, Map<string, string>>): Map<string, Map<string, Map<number, string[]>>> {
  // One program for the cases that cannot tell it from their own (grouped-check.ts says when).
  const checked = checkCases([...projects].map(([name, files]) => ({ name, files })), OPTIONS, shared);
  const all = new Map<string, Map<string, Map<number, string[]>>>();
  for (const [name, files] of projects) {
    const out = new Map<string, Map<number, string[]>>();
    for (const d of checked.get(name)!) {
      if (!d.file || d.start === undefined || !files.has(path.resolve(d.file.fileName))) continue;
      const line = d.file.getLineAndCharacterOfPosition(d.start).line;
      const byLine = out.get(path.resolve(d.file.fileName)) ?? new Map<number, string[]>();
      byLine.set(line, [...(byLine.get(line) ?? []), `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`]);
      out.set(path.resolve(d.file.fileName), byLine);
    }
    all.set(name, out);
  }
  return all;
}

/** For each line of `after`, the lines of `before` it stands for (none for an added line). */
export function lineOrigins(before: string, after: string): number[][] {
  const origins: number[][] = [];
  let old = 0;
  let removed: number[] = [];
  for (const change of diffLines(before, after)) {
    const count = change.count ?? change.value.split("\n").length - (change.value.endsWith("\n") ? 1 : 0);
    if (change.removed) {
      removed = Array.from({ length: count }, (_, i) => old + i);
      old += count;
    } else if (change.added) {
      for (let i = 0; i < count; i++) origins.push(removed);
      removed = [];
    } else {
      for (let i = 0; i < count; i++) origins.push([old + i]);
      old += count;
      removed = [];
    }
  }
  return origins;
}

/** Lines of the statements under a TODO(v2-migration) mark. */
function markedLines(text: string, file: string): Set<number> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node) => {
    if (ts.isStatement(node) && text.slice(node.pos, node.getStart(sf)).includes("TODO(v2-migration)")) {
      const [from, to] = [sf.getLineAndCharacterOfPosition(node.getStart(sf)).line, sf.getLineAndCharacterOfPosition(node.end).line];
      for (let l = from; l <= to; l++) lines.add(l);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return lines;
}

/** A case's files as written and as the rewrite leaves them, both at the input's paths. */
function versions(name: string): { before: Map<string, string>; after: Map<string, string> } {
  const pairs = casePairs(name).filter((p) => /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/.test(p.input));
  // Both versions compile at the input's paths, so imports between the case's files resolve alike.
  const before = new Map(pairs.map((p) => [path.resolve(p.input), readFileSync(p.input, "utf8")]));
  const after = new Map(pairs.map((p) => [path.resolve(p.input), readFileSync(p.output, "utf8")]));
  // The boundary adapter the rewrite writes at the run's root (beside the inputs), generated as the CLI would.
  if ([...after.values()].some((t) => t.includes("v2-bridge-adapter"))) {
    const root = existsSync(path.join(FIXTURES, name, "input")) ? path.join(FIXTURES, name, "input") : path.join(FIXTURES, name);
    for (const at of adapterPaths(after, root)) after.set(at, adapterModule({ language: "ts", moduleKind: "esm" }).text);
  }
  return { before, after };
}

/** Errors of the rewritten project at lines whose original lines had none. */
function addedErrors(name: string, before: Map<string, string>, after: Map<string, string>, was: Map<string, Map<number, string[]>>, now: Map<string, Map<number, string[]>>): string[] {
  const added: string[] = [];
  for (const p of casePairs(name)) {
    if (!/\.(ts|tsx|mts|cts)$/.test(p.input)) continue;
    const file = path.resolve(p.input);
    const origins = lineOrigins(before.get(file)!, after.get(file)!);
    const afterLines = after.get(file)!.split("\n");
    const marked = markedLines(after.get(file)!, file);
    for (const [line, messages] of now.get(file) ?? []) {
      if ((origins[line] ?? []).some((l) => was.get(file)?.has(l)) || marked.has(line)) continue;
      if (REPORTED[name]?.includes(afterLines[line]!.trim())) continue;
      added.push(`${p.rel}:${line + 1}: ${afterLines[line]!.trim()}\n    ${messages.join("\n    ")}`);
    }
  }
  return added;
}

describe("a rewrite adds no tsc error at a line that had none", () => {
  const cases = fixtureCases().filter((name) => casePairs(name).some((p) => /\.(ts|tsx|mts|cts)$/.test(p.input)));

  it("covers the TypeScript fixture projects, the `as const` scaler type among them", () => {
    expect(cases.length).toBeGreaterThan(20);
    expect(cases).toContain("bodies/as-const-scaler-type");
  });

  // The cases' two versions are compiled 40 cases at a time, the "before" projects together and the
  // "after" ones together where grouped-check.ts shows that gives each case its own diagnostics.
  const results = byChunks(cases, 40, (names) => {
    const projects = new Map(names.map((name) => [name, versions(name)]));
    const was = diagnosticsByLine(new Map([...projects].map(([name, v]) => [name, v.before])));
    const now = diagnosticsByLine(new Map([...projects].map(([name, v]) => [name, v.after])));
    return new Map(names.map((name) => [name, { ...projects.get(name)!, was: was.get(name)!, now: now.get(name)! }]));
  });

  // The first case of a chunk compiles the chunk: more than the default 30 s on a loaded 2-core machine.
  it.each(cases)("%s", { timeout: 300_000 }, (name) => {
    const { before, after, was, now } = results(name);
    expect(addedErrors(name, before, after, was, now)).toEqual([]);
  });

  it("maps lines through the rewrite: unchanged, replaced, added", () => {
    expect(lineOrigins("a\nb\nc\n", "a\n// mark\nB\nc\n")).toEqual([[0], [1], [1], [2]]);
    expect(lineOrigins("a\nb\n", "// mark\na\nb\n")).toEqual([[], [0], [1]]);
  });
});
