// The report counts call sites, not base strings: a client whose ten v1 calls all go through a
// factory-made helper shows ten sites on nine operations before the rewrite, and after
// `rewrite --write` only the sites that carry marks.
import { describe, expect, it, afterAll } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { auditJson } from "../../codemod/report.ts";
import { buildReport, mappingTable } from "../../report/index.ts";
import { cleanup, copyCase } from "./fixture-helpers.ts";

const temps: string[] = [];
afterAll(() => temps.forEach(cleanup));

describe("report over call sites reached through helpers", () => {
  it("counts every helper call site before the rewrite and only the marked ones after it", async () => {
    const dir = copyCase("factories/create-request-ts");
    temps.push(dir);
    const before = auditJson(await runCodemod({ paths: [dir] }), new Date("2026-11-20T00:00:00Z"));
    expect(before.findings).toHaveLength(10);
    expect(before.findings.every((f) => f.operation !== null)).toBe(true);

    const rewritten = await runCodemod({ paths: [dir], write: true });
    const marked = rewritten.findings.filter((f) => f.category !== "auto").length;
    const after = auditJson(await runCodemod({ paths: [dir] }), new Date("2026-11-21T00:00:00Z"));
    expect(after.findings).toHaveLength(marked);

    const model = buildReport(mappingTable(), [before as any, after as any], null, { now: new Date("2026-11-22T00:00:00Z") });
    expect(model.burndown.map((p) => p.total)).toEqual([10, marked]);
    const inCode = model.operations.filter((r) => r.code.total > 0).map((r) => r.key);
    expect(inCode.length).toBe(new Set(after.findings.map((f) => f.operation)).size);
    expect(model.totals.codeSites).toBe(marked);
  });
});
