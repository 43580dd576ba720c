// A position a mark quotes (`its base (api.ts:3 "…")`, `reads v1 record field templateId (input.ts:115)`)
// names the line of the file `rewrite --write` leaves, though marks and rewrites above it moved it:
// a human reading the mark in the written file finds the thing at that line. Before, it was the line
// of the file as read (two to four lines off below the inserted marks). Real files on disk.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { casePairs, cleanup, copyCase } from "./fixture-helpers.ts";

const POSITION = /([\w.-]+\.[cm]?[jt]sx?):(\d+)\b/g;
const temps: string[] = [];
afterAll(() => temps.forEach(cleanup));

/** Every position quoted in the marks of a case after `rewrite --write`, with the written line it names. */
async function quoted(name: string): Promise<{ mark: string; at: string; line: string }[]> {
  const tmp = copyCase(name);
  temps.push(tmp);
  await runCodemod({ paths: [tmp], write: true });
  const files = new Map(casePairs(name).map((p) => [path.basename(p.rel), readFileSync(path.join(tmp, p.rel), "utf8").split("\n")]));
  const out: { mark: string; at: string; line: string }[] = [];
  for (const lines of files.values()) {
    for (const mark of lines.filter((l) => l.includes("TODO(v2-migration)"))) {
      for (const m of mark.matchAll(POSITION)) out.push({ mark: mark.trim().slice(0, 80), at: m[0], line: files.get(m[1]!)?.[Number(m[2]) - 1] ?? "(no such line)" });
    }
  }
  return out;
}

describe("positions quoted in marks", () => {
  it("name lines of the written files, across files", async () => {
    const found = await quoted("factories/two-callers-one-unfollowed");
    // (A short mark quotes the positions of its first problem only: four here.)
    expect(found.length).toBeGreaterThanOrEqual(4);
    for (const q of found) {
      // The kept bases (registry.ts, jobs.ts) and the call that keeps them v1 (client.ts).
      const wanted = q.at.startsWith("client.ts") ? /fetch\(`\$\{opts\.baseUrl\}\/pods\/\$\{id\}\/stop`/ : /podsClient\(\{ baseUrl: "https:\/\/rest\.runpod\.io\/v1"/;
      expect(q.line, `${q.at} in ${q.mark}`).toMatch(wanted);
    }
  });

  it("name lines of the written file below several inserted marks", async () => {
    const found = await quoted("records/destructured-axios-answer");
    expect(found.length).toBe(2);
    expect(found.map((q) => q.line.trim())).toEqual(["remember(data);", "return pod.templateId;"]);
  });
});
