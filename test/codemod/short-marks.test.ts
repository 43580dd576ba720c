// A mark is one short line naming its site's first problem (`(+K more)` for the others); every
// problem with its advice is in the audit's JSON, also for a mark the audit after the rewrite can
// only read back (its site now calls v2): the rewrite keeps the details in .v2-bridge/. Marks of
// earlier versions (every problem, then `; advice: …`) are read, counted and shortened in place.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { auditJson } from "../../codemod/report.ts";
import { countMarks, TODO_LINE } from "../../codemod/engine/todo-marks.ts";
import { MARK_DETAILS } from "../../codemod/mark-details.ts";
import { cleanup, copyCase } from "./fixture-helpers.ts";

// CreatePod with a spread body, a GPU type list and `interruptible` (three problems, migrated with
// them marked), and an endpoint update v2 takes only whole (one problem).
const CASE = "bodies/spread-and-variables-cjs";
const FILE = "deploy.cjs";
const temps: string[] = [];
afterAll(() => temps.forEach(cleanup));

const marksOf = (text: string) => text.split("\n").filter((l) => TODO_LINE.test(l)).map((l) => l.trim());
const audit = async (dir: string) => auditJson(await runCodemod({ paths: [dir] })).findings;

describe("short marks", () => {
  it("one short line a site; every problem and its advice in the audit JSON after rewrite --write", async () => {
    const dir = copyCase(CASE);
    temps.push(dir);
    const dry = await runCodemod({ paths: [dir] });
    const planned = dry.findings.find((f) => f.operation === "CreatePod")!;
    expect(planned.problems?.length).toBe(3);

    await runCodemod({ paths: [dir], write: true });
    const text = readFileSync(path.join(dir, FILE), "utf8");
    const create = marksOf(text).find((l) => l.includes(" CreatePod "))!;
    expect(create).toMatch(/^\/\/ TODO\(v2-migration\) CreatePod \(review\): .{1,100} \(\+2 more\)$/);
    for (const mark of marksOf(text)) expect(mark).not.toContain("advice");

    const findings = await audit(dir);
    expect(findings.length).toBe(countMarks(text));
    const after = findings.find((f) => f.operation === "CreatePod")!;
    // The same problems, each with its advice, as the run that wrote the mark found them.
    expect(after.problems).toEqual(planned.problems);
    for (const p of after.problems!) {
      expect(after.reason).toContain(p.reason);
      expect(after.advice).toContain(p.advice);
      expect(p.advice.length).toBeGreaterThan(0);
    }
    // The details are the tool's own state: not a text file the audit reports.
    expect(existsSync(path.join(dir, MARK_DETAILS))).toBe(true);
    expect(findings.some((f) => f.file.includes(".v2-bridge"))).toBe(false);

    // Without them (not committed, deleted), the audit still counts the mark and says what its line says.
    rmSync(path.join(dir, ".v2-bridge"), { recursive: true });
    const bare = (await audit(dir)).find((f) => f.operation === "CreatePod")!;
    expect(bare.reason).toMatch(/\(\+2 more\)$/);
    expect(bare.advice).toContain("docs/codemod.md");
  }, 120_000);

  it("a second rewrite --write leaves the details unchanged (positions as the written marks quote them)", async () => {
    // The base's mark quotes settings.js:N, a line the marks inserted above it move.
    const dir = copyCase("urls/config-loader-cached");
    temps.push(dir);
    await runCodemod({ paths: [dir], write: true });
    const first = readFileSync(path.join(dir, MARK_DETAILS), "utf8");
    expect(first).toMatch(/settings\.js:20/);
    await runCodemod({ paths: [dir], write: true });
    expect(readFileSync(path.join(dir, MARK_DETAILS), "utf8")).toBe(first);
  }, 120_000);

  it("a second rewrite --write leaves the details unchanged when the base's file shares its name with another", async () => {
    // The call's mark quotes the base in src/index.ts (src/errors/index.ts is an index.ts too); the
    // base's own mark moves it a line down.
    const dir = copyCase("urls/base-in-shared-file-name");
    temps.push(dir);
    await runCodemod({ paths: [dir], write: true });
    const first = readFileSync(path.join(dir, MARK_DETAILS), "utf8");
    await runCodemod({ paths: [dir], write: true });
    expect(readFileSync(path.join(dir, MARK_DETAILS), "utf8")).toBe(first);
    // The line the base has in the written file, in a name only that file has.
    expect(first).toContain("its base (src/index.ts:5 ");
  }, 120_000);

  it("reads a long mark of an earlier version, counts it, and shortens it in place once", async () => {
    const dir = copyCase(CASE);
    temps.push(dir);
    await runCodemod({ paths: [dir], write: true });
    const file = path.join(dir, FILE);
    const short = readFileSync(file, "utf8");
    const details = JSON.parse(readFileSync(path.join(dir, MARK_DETAILS), "utf8")).files[FILE] as { mark: string; sites: { reason: string; advice: string }[][] }[];
    // What an earlier version wrote for the same sites: every problem, then the advice.
    const long = short
      .split("\n")
      .map((l) => {
        const m = TODO_LINE.exec(l);
        const d = m && details.find((x) => x.mark === l.trim());
        if (!m || !d) return l;
        const site = d.sites[0]!;
        return `${/^\s*/.exec(l)![0]}// TODO(v2-migration) ${m[1]} (${m[2]}): ${site.map((p) => p.reason).join(", ")}; advice: ${site.length > 1 ? "see each reason in docs/mapping.md (audit --format json has the details)" : site[0]!.advice}`;
      })
      .join("\n");
    expect(long).not.toBe(short);
    writeFileSync(file, long);
    rmSync(path.join(dir, ".v2-bridge"), { recursive: true });

    // Read and counted as they are.
    const before = await audit(dir);
    expect(before.length).toBe(countMarks(long));
    expect(before.find((f) => f.operation === "CreatePod")!.advice).toContain("see each reason");

    // The next rewrite shortens each in place (none is added), and a second one changes nothing.
    await runCodemod({ paths: [dir], write: true });
    const rewritten = readFileSync(file, "utf8");
    expect(marksOf(rewritten).length).toBe(marksOf(long).length);
    for (const mark of marksOf(rewritten)) {
      expect(mark).not.toContain("; advice:");
      expect(mark.length).toBeLessThan(160);
    }
    expect(rewritten.split("\n").filter((l) => !TODO_LINE.test(l))).toEqual(long.split("\n").filter((l) => !TODO_LINE.test(l)));
    const again = await runCodemod({ paths: [dir], write: true, diff: true });
    expect(again.files.filter((f) => f.changed)).toEqual([]);
    // Nothing lost: the audit has what the long marks said.
    const after = await audit(dir);
    expect(after.length).toBe(countMarks(rewritten));
    expect(after.map((f) => f.reason).sort()).toEqual(before.map((f) => f.reason).sort());
  }, 120_000);
  it("a marked site's details also list the record reads its rewrite would have changed", async () => {
    const dir = copyCase("records/marked-site-lists-read-changes");
    temps.push(dir);
    await runCodemod({ paths: [dir], write: true });
    const get = (await audit(dir)).find((f) => f.operation === "GetPod")!;
    const reasons = (get.problems ?? []).map((p) => p.reason);
    expect(reasons[0]).toMatch(/costPerHr/);
    for (const field of ["desiredStatus", "lastStartedAt", "publicIp"]) expect(reasons.some((r) => r.includes(`record field ${field} `))).toBe(true);
  });
});
