// The last guard before writing: a rewrite that would leave a file unparseable (a pass's bug; the
// shorthand-property wrap of session 26 was one) is never written. The file is held like one whose
// edits overlap: only its marks are written, its calls and the bases they use stay v1, and the
// marks say why. The bug is simulated by breaking pods.ts's output; real files, the CLI's runner.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Edit } from "../../codemod/types.ts";
import { HELD_PODS, writeHeldCase } from "./held-case.ts";

vi.mock("../../codemod/engine/apply-edits.ts", async (original) => {
  const real = await original<typeof import("../../codemod/engine/apply-edits.ts")>();
  const isMark = (e: Edit) => e.start === e.end && /^[ \t]*\/\/ TODO\(v2-migration\)/.test(e.text);
  return {
    ...real,
    applyEdits: (file: string, text: string, edits: Edit[]) => {
      const applied = real.applyEdits(file, text, edits);
      return file.endsWith("pods.ts") && edits.some((e) => !isMark(e)) ? { ...applied, output: applied.output.replace("fetch(", "fetch({ method, ") } : applied;
    },
  };
});

const { runCodemod } = await import("../../codemod/project.ts");
const { countMarks } = await import("../../codemod/engine/todo-marks.ts");
const { syntaxErrorOf } = await import("../../codemod/engine/output-parses.ts");
const { Project } = await import("../../codemod/ts-morph.ts");

const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-unparseable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a rewrite that would not parse", () => {
  it("is never written: the file keeps its v1 calls, marked, and its base stays v1", async () => {
    const pods = HELD_PODS;
    writeHeldCase(dir);
    const result = await runCodemod({ paths: [dir], write: true });
    const podsOut = readFileSync(path.join(dir, "pods.ts"), "utf8");
    expect(podsOut.split("\n").filter((l) => !l.includes("TODO(v2-migration)")).join("\n")).toBe(pods);
    const baseOut = readFileSync(path.join(dir, "base.ts"), "utf8");
    expect(baseOut).toContain('"https://rest.runpod.io/v1"');
    expect(countMarks(podsOut)).toBe(2);
    expect(podsOut).toMatch(/rewrite of pods\.ts would not parse/);
    expect(result.findings.filter((f) => f.file === "pods.ts")).toHaveLength(2);
    const audit = await runCodemod({ paths: [dir] });
    expect(audit.findings.length).toBe(countMarks(podsOut) + countMarks(baseOut));
  });

  it("syntaxErrorOf names the first syntax error, parsed as the original file was", () => {
    const sf = new Project({ useInMemoryFileSystem: true }).createSourceFile("/x.tsx", "export const a = <div />;\n");
    expect(syntaxErrorOf(sf, "export const a = <div />;\n")).toBeUndefined();
    expect(syntaxErrorOf(sf, "const o = { a: 1, f(x), b };\n")).toMatch(/^1:\d+ /);
  });
});
