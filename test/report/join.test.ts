// The join of mapping table + audits + usage, edge case by edge case.
import { describe, expect, it } from "vitest";
import { buildReport, mappingTable, siteHref, UNIDENTIFIED } from "../../report/index.ts";
import { audit, finding, smallTable, usage, usageClient, usageOp } from "./helpers.ts";

const now = new Date("2026-11-10T12:30:00Z");

describe("report join", () => {
  it("empty inputs: no rows, every table operation clear, zero totals", () => {
    const m = buildReport(smallTable, [], null, { now });
    expect(m.operations).toEqual([]);
    expect(m.clients).toEqual([]);
    expect(m.burndown).toEqual([]);
    expect(m.code.latest).toBeNull();
    expect(m.traffic).toBeNull();
    expect(m.clearOperations.map((o) => o.key)).toEqual(["ListPods", "StartPod", "ResetPod", "GetTemplate"]);
    expect(m.totals).toMatchObject({ codeSites: 0, liveRequests: 0, liveClients: 0, operationsInUse: 0, tableOperations: 4 });
    expect(m.generatedAt).toBe("2026-11-10T12:30:00.000Z");
    // The no-equivalent operation is still listed at the top, at zero.
    expect(m.attention).toMatchObject([{ key: "ResetPod", codeSites: 0, liveCalls: 0, advice: "stop then start" }]);
  });

  it("an empty audit and an empty usage snapshot are inputs, not absences", () => {
    const m = buildReport(smallTable, [audit("2026-11-10T00:00:00Z", [])], usage([], []), { now });
    expect(m.code.latest).not.toBeNull();
    expect(m.traffic).not.toBeNull();
    expect(m.operations).toEqual([]);
    expect(m.burndown).toMatchObject([{ total: 0 }]);
  });

  it("operations with code but no traffic, traffic but no code, and both", () => {
    const a = audit("2026-11-10T00:00:00Z", [
      finding({ operation: "StartPod", file: "src/b.ts", line: 9, category: "auto" }),
      finding({ operation: "StartPod", file: "src/a.ts", line: 3, category: "review" }),
      finding({ operation: "ListPods", category: "review" }),
    ]);
    const u = usage([usageOp("ListPods", 7, 2), usageOp("GetTemplate", 3)], [usageClient("k_1", { ListPods: 4, GetTemplate: 3 }), usageClient("k_2", { ListPods: 3 })]);
    const m = buildReport(smallTable, [a], u, { now });
    const row = (k: string) => m.operations.find((r) => r.key === k)!;

    expect(row("StartPod")).toMatchObject({ known: true, code: { auto: 1, review: 1, "no-equivalent": 0, total: 2 }, traffic: null, listedClients: 0 });
    // Sites sorted by file then line.
    expect(row("StartPod").sites.map((s) => `${s.file}:${s.line}`)).toEqual(["src/a.ts:3", "src/b.ts:9"]);
    expect(row("GetTemplate")).toMatchObject({ code: { total: 0 }, traffic: { count: 3, clients: 1 }, clientFingerprints: ["k_1"] });
    expect(row("ListPods")).toMatchObject({ code: { review: 1, total: 1 }, traffic: { count: 7, clients: 2 }, clientFingerprints: ["k_1", "k_2"], listedClients: 2 });
    // Table order for mapped operations.
    expect(m.operations.map((r) => r.key)).toEqual(["ListPods", "StartPod", "GetTemplate"]);
    expect(m.clearOperations.map((o) => o.key)).toEqual(["ResetPod"]);
    expect(m.totals).toMatchObject({ codeSites: 3, byCategory: { auto: 1, review: 2, "no-equivalent": 0 }, liveRequests: 10, operationsInUse: 3, operationsInCode: 2, operationsInTraffic: 2 });
  });

  it("no-equivalent operations come first and carry the mapping table's advice", () => {
    const a = audit("2026-11-10T00:00:00Z", [finding({ operation: "ResetPod", category: "no-equivalent" }), finding({ operation: "ListPods" })]);
    const u = usage([usageOp("ResetPod", 2)], [usageClient("k_1", { ResetPod: 2 })]);
    const m = buildReport(smallTable, [a], u, { now });
    expect(m.operations[0]!.key).toBe("ResetPod");
    expect(m.attention[0]).toMatchObject({ key: "ResetPod", codeSites: 1, liveCalls: 2, liveClients: 1, message: "reset has no v2 equivalent", advice: "stop then start" });
    expect(m.clients[0]!.operations[0]).toMatchObject({ key: "ResetPod", noEquivalent: true });
  });

  it("no-equivalent call sites of mapped operations (a v1 filter v2 lacks) are grouped by reason", () => {
    const a = audit("2026-11-10T00:00:00Z", [
      finding({ operation: "ListPods", category: "no-equivalent", reason: "filter X gone", advice: "filter yourself", file: "a.ts" }),
      finding({ operation: "ListPods", category: "no-equivalent", reason: "filter X gone", advice: "filter yourself", file: "b.ts" }),
      finding({ operation: "ListPods", category: "no-equivalent", reason: "filter Y gone", advice: "other", file: "c.ts" }),
    ]);
    const m = buildReport(smallTable, [a], null, { now });
    expect(m.attention.map((x) => [x.key, x.title, x.codeSites])).toEqual([
      ["ListPods", "filter X gone", 2],
      ["ListPods", "filter Y gone", 1],
      ["ResetPod", "Reset a pod has no v2 equivalent", 0],
    ]);
    expect(m.attention[0]!.advice).toBe("filter yourself");
  });

  it("unknown operation keys from the audit or the gateway get flagged rows and a note, never dropped", () => {
    const a = audit("2026-11-10T00:00:00Z", [finding({ operation: "FrobnicatePod", v1: { method: "POST", path: "/pods/{podId}/frob" } })]);
    const u = usage([usageOp("TeleportPod", 1)], [usageClient("k_9", { TeleportPod: 1 })]);
    const m = buildReport(smallTable, [a], u, { now });
    expect(m.operations.map((r) => [r.key, r.known, r.status])).toEqual([
      ["FrobnicatePod", false, "unknown"],
      ["TeleportPod", false, "unknown"],
    ]);
    expect(m.operations[0]!.v1).toEqual({ method: "POST", path: "/pods/{podId}/frob" });
    expect(m.clients[0]!.operations).toMatchObject([{ key: "TeleportPod", known: false }]);
    expect(m.notes.join("\n")).toMatch(/audit names operations that are not in the mapping table: FrobnicatePod/);
    expect(m.notes.join("\n")).toMatch(/gateway reported operations that are not in the mapping table: TeleportPod/);
    // Unknown keys do not count as table operations in use.
    expect(m.totals.operationsInUse).toBe(0);
  });

  it("call sites without an operation: matched by v1 route when given, else '(unidentified)' last", () => {
    const a = audit("2026-11-10T00:00:00Z", [
      finding({ operation: null, v1: { method: "GET", path: "/templates/{templateId}" } }),
      finding({ operation: null, v1: null, reason: "v1 base URL only" }),
      finding({ operation: "ListPods" }),
    ]);
    const m = buildReport(smallTable, [a], null, { now });
    expect(m.operations.map((r) => r.key)).toEqual(["ListPods", "GetTemplate", UNIDENTIFIED]);
    expect(m.operations.at(-1)).toMatchObject({ known: false, code: { total: 1 } });
    expect(m.notes).toEqual([]);
  });

  it("unknown clients: anonymous fingerprint, no user agent, same key with two user agents, evicted clients", () => {
    const u = usage(
      [usageOp("ListPods", 9, 3)],
      [usageClient("anonymous", { ListPods: 2 }, ""), usageClient("k_1", { ListPods: 4 }, "a/1"), usageClient("k_1", { ListPods: 3 }, "b/2")],
      2,
    );
    const m = buildReport(smallTable, [], u, { now });
    expect(m.clients.map((c) => [c.fingerprint, c.userAgent, c.anonymous, c.count])).toEqual([
      ["k_1", "a/1", false, 4],
      ["k_1", "b/2", false, 3],
      ["anonymous", null, true, 2],
    ]);
    const row = m.operations[0]!;
    expect(row.clientFingerprints).toEqual(["anonymous", "k_1"]);
    expect(row.listedClients).toBe(3);
    expect(m.totals).toMatchObject({ liveClients: 5, evictedClients: 2 });
    expect(m.notes.some((n) => n.includes("stopped tracking 2 client"))).toBe(true);
    expect(m.notes.some((n) => n.includes("counted 5 clients but listed 3"))).toBe(true);
  });

  it("burn-down: audits ordered by generatedAt whatever the input order; the newest is the code state", () => {
    const newest = audit("2026-11-10T09:30:00Z", [finding({ operation: "StartPod" })]);
    const oldest = audit("2026-10-01T09:30:00Z", [
      finding({ operation: "StartPod" }),
      finding({ operation: "ListPods", category: "review" }),
      finding({ operation: "ResetPod", category: "no-equivalent" }),
    ]);
    const middle = audit("2026-10-20T09:30:00Z", [finding({ operation: "StartPod" }), finding({ operation: "ListPods", category: "review" })]);
    const m = buildReport(smallTable, [newest, oldest, middle], null, { now });
    expect(m.burndown.map((p) => [p.label, p.total, p.byCategory.review, p.byCategory["no-equivalent"]])).toEqual([
      ["2026-10-01 09:30", 3, 1, 1],
      ["2026-10-20 09:30", 2, 1, 0],
      ["2026-11-10 09:30", 1, 0, 0],
    ]);
    expect(m.code.latest?.generatedAt).toBe("2026-11-10T09:30:00Z");
    expect(m.operations.map((r) => r.key)).toEqual(["StartPod"]);
  });

  it("notes audits of different roots and a summary that disagrees with the findings", () => {
    const a1 = audit("2026-10-01T00:00:00Z", [], "/srv/one");
    const a2 = audit("2026-11-01T00:00:00Z", [finding({ operation: "StartPod" })], "/srv/two");
    a2.summary.findings = 5;
    const m = buildReport(smallTable, [a1, a2], null, { now });
    expect(m.notes.join("\n")).toMatch(/different roots/);
    expect(m.notes.join("\n")).toMatch(/summary counts 5 findings but lists 1/);
  });

  it("links call sites under the audit root, or under --link-base; file names are URL-encoded", () => {
    expect(siteHref("/srv/app", "src/a b.ts", 3)).toBe("file:///srv/app/src/a%20b.ts");
    expect(siteHref("/srv/app/", "src/<x>.ts", 3)).toBe("file:///srv/app/src/%3Cx%3E.ts");
    expect(siteHref("C:\\work\\app", "src\\a.ts", 3)).toBe("file:///C%3A/work/app/src/a.ts");
    expect(siteHref("/srv/app", "src/a.ts", 7, "https://git.example/repo/blob/main")).toBe("https://git.example/repo/blob/main/src/a.ts#L7");
    expect(siteHref("/srv/app", "src/a.ts", 7, "javascript:alert(1)//")).toBeNull();
    expect(siteHref("", "src/a.ts", 7)).toBeNull();
  });

  it("works with the real mapping table: ResetPod is the no-equivalent case at the top", () => {
    const table = mappingTable();
    const m = buildReport(table, [], usage([usageOp("StartPod", 1)], [usageClient("k_1", { StartPod: 1 })]), { now });
    expect(m.totals.tableOperations).toBe(table.length);
    expect(m.attention[0]).toMatchObject({ key: "ResetPod", v1: { method: "POST", path: "/pods/{podId}/reset" } });
    expect(m.attention[0]!.advice).toMatch(/stop then \/start/);
    expect(m.operations.map((r) => r.key)).toEqual(["StartPod"]);
    expect(m.clearOperations).toHaveLength(table.length - 1);
  });
});
