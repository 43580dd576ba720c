// Small builders for report inputs in tests (shapes per formats/audit.ts and formats/usage.ts).
import type { Audit, AuditFinding, Category, TableOperation, Usage, UsageClient, UsageOperation } from "../../report/index.ts";

export function finding(over: Partial<AuditFinding> & { operation: string | null }): AuditFinding {
  return {
    file: "src/a.ts",
    line: 1,
    column: 1,
    v1: null,
    v2: null,
    category: "auto",
    reason: "r",
    advice: "a",
    snippet: "s",
    ...over,
  };
}

export function audit(generatedAt: string, findings: AuditFinding[], root = "/srv/app"): Audit {
  const byCategory: Record<Category, number> = { auto: 0, review: 0, "no-equivalent": 0 };
  for (const f of findings) byCategory[f.category]++;
  return {
    tool: "v2-bridge",
    version: 1,
    generatedAt,
    root,
    summary: { files: 10, filesWithFindings: new Set(findings.map((f) => f.file)).size, findings: findings.length, byCategory },
    findings,
  };
}

export function usageOp(key: string, count: number, clients = 1, lastSeen = "2026-11-10T10:00:00.000Z"): UsageOperation {
  return { key, v1: { method: "GET", path: `/${key}` }, count, clients, firstSeen: "2026-11-01T00:00:00.000Z", lastSeen, statuses: { "200": count } };
}

export function usageClient(fingerprint: string, ops: Record<string, number>, userAgent: string | null = "agent/1"): UsageClient {
  const count = Object.values(ops).reduce((a, b) => a + b, 0);
  return {
    fingerprint,
    userAgent,
    count,
    firstSeen: "2026-11-01T00:00:00.000Z",
    lastSeen: "2026-11-10T10:00:00.000Z",
    operations: Object.fromEntries(
      Object.entries(ops).map(([k, n]) => [k, { count: n, firstSeen: "2026-11-01T00:00:00.000Z", lastSeen: "2026-11-10T10:00:00.000Z" }]),
    ),
  };
}

export function usage(operations: UsageOperation[], clients: UsageClient[], evictedClients = 0): Usage {
  return {
    generatedAt: "2026-11-10T12:00:00.000Z",
    since: "2026-11-01T00:00:00.000Z",
    totals: { requests: operations.reduce((n, o) => n + o.count, 0), clients: clients.length + evictedClients, evictedClients },
    operations,
    clients,
  };
}

/** A four-operation table, enough to see ordering and the no-equivalent handling. */
export const smallTable: TableOperation[] = [
  { key: "ListPods", summary: "List pods", v1: { method: "GET", path: "/pods" }, v2: { method: "GET", path: "/v2/pods" }, status: "mapped" },
  { key: "StartPod", summary: "Start a pod", v1: { method: "POST", path: "/pods/{podId}/start" }, v2: { method: "POST", path: "/v2/pods/{id}/action" }, status: "mapped" },
  {
    key: "ResetPod",
    summary: "Reset a pod",
    v1: { method: "POST", path: "/pods/{podId}/reset" },
    v2: null,
    status: "no-equivalent",
    decision: { policy: "reject", message: "reset has no v2 equivalent", advice: "stop then start" },
  },
  { key: "GetTemplate", summary: "Get a template", v1: { method: "GET", path: "/templates/{templateId}" }, v2: { method: "GET", path: "/v2/templates/{id}" }, status: "mapped" },
];
