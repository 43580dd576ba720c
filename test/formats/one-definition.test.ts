// Each file format has one definition (formats/): the producers' types are derived from the schema
// and the readers validate against the same schema, so the two cannot drift apart.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Finding } from "../../codemod/types.ts";
import type { AuditJson } from "../../codemod/report.ts";
import { Audit, AuditFinding } from "../../formats/audit.ts";
import type { UsageSnapshot } from "../../formats/usage.ts";
import { checkAudit, checkUsage } from "../../formats/validate.ts";
import type { UsageSnapshot as GatewaySnapshot } from "../../gateway/usage/usage.ts";
import { UsageStore } from "../../gateway/usage/usage.ts";
import type { Audit as ReportAudit, Usage as ReportUsage } from "../../report/index.ts";
import { REPO_ROOT } from "../../openapi/reference.ts";

const SOURCE_DIRS = ["gateway", "report", "codemod", "cli", "mappings", "sandbox"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith(".ts") ? [full] : [];
  });
}

describe("one definition per file format", () => {
  it("producers and readers use the schema's types", () => {
    expectTypeOf<Finding>().toEqualTypeOf<AuditFinding>();
    expectTypeOf<ReportAudit>().toEqualTypeOf<Audit>();
    expectTypeOf<AuditJson>().toExtend<Audit>();
    expectTypeOf<GatewaySnapshot>().toEqualTypeOf<UsageSnapshot>();
    expectTypeOf<ReportUsage>().toEqualTypeOf<UsageSnapshot>();
  });

  it("the finding keeps its shape", () => {
    expect(Object.keys(AuditFinding.properties)).toEqual(["file", "line", "column", "operation", "v1", "v2", "category", "reason", "advice", "snippet", "subject", "problems"]);
    // `subject` and `problems` are optional: audits written before they were recorded stay valid.
    expect(AuditFinding.required).toEqual(Object.keys(AuditFinding.properties).filter((k) => k !== "subject" && k !== "problems"));
  });

  it("no second hand-written schema or interface for either format", () => {
    const duplicates: string[] = [];
    for (const file of SOURCE_DIRS.flatMap((d) => sources(path.join(REPO_ROOT, d)))) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/^\s*export\s+interface\s+(Audit|AuditFinding|Finding|Usage|UsageSnapshot|UsageOperation|UsageClient)\b/gm)) duplicates.push(`${path.relative(REPO_ROOT, file)}: interface ${m[1]}`);
      for (const m of text.matchAll(/"v2-bridge\/(audit|usage)\.json"|required:\s*\[\s*"(?:file|generatedAt)"/g)) duplicates.push(`${path.relative(REPO_ROOT, file)}: schema ${m[0]}`);
    }
    expect(duplicates).toEqual([]);
  });

  it("what the gateway writes is what the report accepts", () => {
    const store = new UsageStore(10, 10);
    store.record({ key: "ListPods", v1: { method: "GET", path: "/pods" } }, "k_0123456789ab", "agent/1", 200);
    expect(checkUsage(store.snapshot())).toEqual({ ok: true });
    expect(checkUsage({ ...store.snapshot(), clients: [{ fingerprint: "", count: -1 }] })).toMatchObject({ ok: false });
  });

  it("audit methods are the mapping table's upper-case HTTP methods", () => {
    const audit = {
      tool: "v2-bridge",
      version: 1,
      generatedAt: "2026-11-20T00:00:00Z",
      root: "/srv",
      summary: { files: 1, filesWithFindings: 1, findings: 1, byCategory: { auto: 1, review: 0, "no-equivalent": 0 } },
      findings: [{ file: "a.ts", line: 1, column: 0, operation: "ListPods", v1: { method: "GET", path: "/pods" }, v2: { method: "GET", path: "/v2/pods" }, category: "auto", reason: "", advice: "", snippet: "" }],
    };
    expect(checkAudit(audit)).toEqual({ ok: true });
    audit.findings[0]!.v1.method = "FETCH";
    const check = checkAudit(audit);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.errors).toContainEqual(expect.stringMatching(/^\/findings\/0\/v1\/method must be equal to one of the allowed values \("GET", "POST"/));
  });
});
