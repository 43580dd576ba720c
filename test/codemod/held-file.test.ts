// A file whose planned edits cannot all be applied (two plans overlap) is held: only its marks are
// written, its calls stay whole on v1, the bases they use stay v1 in every file, and the advice says
// what is true. The overlap is simulated here (the engine's own plans nest where they can), by
// reporting the first rewrite edit of pods.ts as a conflict; real files on disk, the CLI's runner.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Edit } from "../../codemod/types.ts";

vi.mock("../../codemod/engine/apply-edits.ts", async (original) => {
  const real = await original<typeof import("../../codemod/engine/apply-edits.ts")>();
  const isMark = (e: Edit) => e.start === e.end && /^[ \t]*\/\/ TODO\(v2-migration\)/.test(e.text);
  return {
    ...real,
    applyEdits: (file: string, text: string, edits: Edit[]) => {
      const applied = real.applyEdits(file, text, edits);
      const rewrite = edits.find((e) => !isMark(e));
      return file.endsWith("pods.ts") && rewrite ? { ...applied, conflicts: [rewrite] } : applied;
    },
  };
});

const { runCodemod } = await import("../../codemod/project.ts");
const { countMarks } = await import("../../codemod/engine/todo-marks.ts");

const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-held-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a file whose edits overlap", () => {
  it("gets its marks, keeps its calls and their base on v1, and is told the truth", async () => {
    const base = 'export const API = "https://rest.runpod.io/v1";\n';
    const pods = [
      'import { API } from "./base";',
      "export const stopPod = (id: string) => fetch(`${API}/pods/${id}/stop`, { method: \"POST\" });",
      "export const getPod = (id: string) => fetch(`${API}/pods/${id}`);",
      "",
    ].join("\n");
    writeFileSync(path.join(dir, "base.ts"), base);
    writeFileSync(path.join(dir, "pods.ts"), pods);
    const result = await runCodemod({ paths: [dir], write: true });
    const podsOut = readFileSync(path.join(dir, "pods.ts"), "utf8");
    const baseOut = readFileSync(path.join(dir, "base.ts"), "utf8");
    // The calls are whole v1 calls on a v1 base: nothing half-migrated, nothing sent to v2.
    expect(podsOut.split("\n").filter((l) => !l.includes("TODO(v2-migration)")).join("\n")).toBe(pods);
    expect(baseOut).toContain('"https://rest.runpod.io/v1"');
    // Each site is marked in the file, and the marks name the overlap, not a read-only file.
    expect(countMarks(podsOut)).toBe(2);
    expect(podsOut).toMatch(/two rewrites planned in pods\.ts overlap/);
    const advice = result.findings.map((f) => f.advice).join("\n");
    expect(advice).not.toMatch(/writable|--force/);
    expect(result.findings.filter((f) => f.file === "pods.ts")).toHaveLength(2);
    // The audit after the rewrite sees exactly the marked sites.
    const audit = await runCodemod({ paths: [dir] });
    expect(audit.findings.length).toBe(countMarks(podsOut) + countMarks(baseOut));
  });
});
