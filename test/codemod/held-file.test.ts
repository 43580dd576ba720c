// Two plans whose edits overlap. Where the overlapping edits are a call site's, only that site is
// held (site-holds.ts): it stays whole on v1 with its bases, marked with the overlap, and the file's
// other sites migrate. Where no site owns them (an edit no plan made), the whole file is held: only its
// marks are written, its calls stay whole on v1, the bases they use stay v1 in every file, and the
// advice says what is true. The overlap is simulated (the engine's own plans nest where they can),
// by reporting one edit of pods.ts as a conflict; real files on disk, the CLI's runner.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Edit } from "../../codemod/types.ts";
import { HELD_PODS, writeHeldCase } from "./held-case.ts";

const isMark = (e: Edit) => e.start === e.end && /^[ \t]*\/\/ TODO\(v2-migration\)/.test(e.text);
/** Which edit of pods.ts the mock reports as overlapping: one no plan made, or the rewrite of the stop call's URL. */
const overlapping = { pick: (_: Edit[]): Edit | undefined => undefined };

vi.mock("../../codemod/engine/apply-edits.ts", async (original) => {
  const real = await original<typeof import("../../codemod/engine/apply-edits.ts")>();
  return {
    ...real,
    applyEdits: (file: string, text: string, edits: Edit[]) => {
      const applied = real.applyEdits(file, text, edits);
      const conflict = file.endsWith("pods.ts") ? overlapping.pick(edits) : undefined;
      return conflict ? { ...applied, conflicts: [conflict] } : applied;
    },
  };
});

const { runCodemod } = await import("../../codemod/project.ts");
const { countMarks } = await import("../../codemod/engine/todo-marks.ts");

const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-held-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a file whose edits overlap", () => {
  it("where no site owns the overlap: gets its marks, keeps its calls and their base on v1, and is told the truth", async () => {
    // An edit no plan made; once the file is held, only its marks are planned there and nothing overlaps.
    overlapping.pick = (edits) => (edits.some((e) => !isMark(e)) ? { file: edits[0]!.file, start: 0, end: 0, text: "", old: "" } : undefined);
    const pods = HELD_PODS;
    writeHeldCase(dir);
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

  it("where a site owns the overlap: holds that site and its base, and the file's other sites migrate", async () => {
    const sub = path.join(dir, "sites");
    mkdirSync(sub);
    overlapping.pick = (edits) => edits.find((e) => !isMark(e) && e.old.includes("/stop"));
    const base = 'export const API = "https://rest.runpod.io/v1";\n';
    const pods = [
      'import { API } from "./base";',
      "export const stopPod = (id: string) => fetch(`${API}/pods/${id}/stop`, { method: \"POST\" });",
      "export async function deletePod(id: string) { await fetch(`${API}/pods/${id}`, { method: \"DELETE\" }); }",
      "export const deleteVolume = (id: string) => fetch(`https://rest.runpod.io/v1/networkvolumes/${id}`, { method: \"DELETE\" });",
      "",
    ].join("\n");
    writeFileSync(path.join(sub, "base.ts"), base);
    writeFileSync(path.join(sub, "pods.ts"), pods);
    await runCodemod({ paths: [sub], write: true });
    const podsOut = readFileSync(path.join(sub, "pods.ts"), "utf8");
    const baseOut = readFileSync(path.join(sub, "base.ts"), "utf8");
    const code = podsOut.split("\n").filter((l) => !l.includes("TODO(v2-migration)"));
    // The held call and the call sharing its base stay whole v1 calls on a v1 base.
    expect(code.slice(0, 3)).toEqual(pods.split("\n").slice(0, 3));
    expect(baseOut).toContain('"https://rest.runpod.io/v1"');
    // The call on its own base migrates.
    expect(code[3]).toBe("export const deleteVolume = (id: string) => fetch(`https://api.runpod.io/v2/network-volumes/${id}`, { method: \"DELETE\" });");
    // The held call's mark names the overlap; the other kept call's names its base.
    expect(podsOut).toMatch(/StopPod \(review\): kept on v1: two rewrites planned in this file overlap here \(at pods\.ts:\d+\)/);
    expect(podsOut).toMatch(/DeletePod \(review\): kept on v1: its base/);
    expect(countMarks(podsOut)).toBe(2);
    // The audit after the rewrite (the same plans overlap again) sees exactly the marked sites and the base's mark.
    const audit = await runCodemod({ paths: [sub] });
    expect(audit.findings.length).toBe(countMarks(podsOut) + countMarks(baseOut));
  });
});
