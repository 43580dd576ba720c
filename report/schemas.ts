// JSON Schemas of the report's two inputs, validated on load (fixed contracts):
// - the static audit (`v2-bridge audit --format json`),
// - the gateway's usage snapshot (`GET /_bridge/usage`).
// Both are open for extra properties (producers may add fields) but strict on what the report reads.
import _Ajv from "ajv";
import _addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";

// ajv and ajv-formats are CommonJS with a `default` export; under NodeNext ESM unwrap it once.
const Ajv = ((_Ajv as any).default ?? _Ajv) as typeof _Ajv.default;
const addFormats = ((_addFormats as any).default ?? _addFormats) as typeof _addFormats.default;

const count = { type: "integer", minimum: 0 } as const;
const isoTime = { type: "string", format: "date-time" } as const;
const method = { type: "string", minLength: 1 } as const;
const route = {
  type: "object",
  required: ["method", "path"],
  properties: { method, path: { type: "string" } },
} as const;
const nullableRoute = { anyOf: [route, { type: "null" }] } as const;

export const auditSchema = {
  $id: "v2-bridge/audit.json",
  title: "v2-bridge static audit",
  type: "object",
  required: ["tool", "version", "generatedAt", "root", "summary", "findings"],
  properties: {
    tool: { const: "v2-bridge" },
    version: { const: 1 },
    generatedAt: isoTime,
    root: { type: "string" },
    summary: {
      type: "object",
      required: ["files", "filesWithFindings", "findings", "byCategory"],
      properties: {
        files: count,
        filesWithFindings: count,
        findings: count,
        byCategory: {
          type: "object",
          required: ["auto", "review", "no-equivalent"],
          properties: { auto: count, review: count, "no-equivalent": count },
        },
      },
    },
    findings: {
      type: "array",
      items: {
        type: "object",
        required: ["file", "line", "column", "operation", "v1", "v2", "category", "reason", "advice", "snippet"],
        properties: {
          file: { type: "string", minLength: 1 },
          line: { type: "integer", minimum: 1 },
          column: { type: "integer", minimum: 0 },
          operation: { type: ["string", "null"] },
          v1: nullableRoute,
          v2: nullableRoute,
          category: { enum: ["auto", "review", "no-equivalent"] },
          reason: { type: "string" },
          advice: { type: "string" },
          snippet: { type: "string" },
        },
      },
    },
  },
} as const;

const seen = {
  type: "object",
  required: ["count", "firstSeen", "lastSeen"],
  properties: { count, firstSeen: isoTime, lastSeen: isoTime },
} as const;

export const usageSchema = {
  $id: "v2-bridge/usage.json",
  title: "v2-bridge gateway usage snapshot",
  type: "object",
  required: ["generatedAt", "since", "totals", "operations", "clients"],
  properties: {
    generatedAt: isoTime,
    since: isoTime,
    totals: {
      type: "object",
      required: ["requests", "clients", "evictedClients"],
      properties: { requests: count, clients: count, evictedClients: count },
    },
    operations: {
      type: "array",
      items: {
        type: "object",
        required: ["key", "v1", "count", "clients", "firstSeen", "lastSeen", "statuses"],
        properties: {
          key: { type: "string", minLength: 1 },
          v1: nullableRoute,
          count,
          clients: count,
          firstSeen: isoTime,
          lastSeen: isoTime,
          statuses: { type: "object", propertyNames: { pattern: "^[1-5][0-9][0-9]$" }, additionalProperties: count },
        },
      },
    },
    clients: {
      type: "array",
      items: {
        type: "object",
        required: ["fingerprint", "count", "firstSeen", "lastSeen", "operations"],
        properties: {
          fingerprint: { type: "string", minLength: 1 },
          userAgent: { type: ["string", "null"] },
          count,
          firstSeen: isoTime,
          lastSeen: isoTime,
          operations: { type: "object", additionalProperties: seen },
          drops: { type: "object", additionalProperties: { type: "object", additionalProperties: count } },
        },
      },
    },
    drops: {
      type: "array",
      items: {
        type: "object",
        required: ["key", "field", "count", "clients"],
        properties: { key: { type: "string", minLength: 1 }, field: { type: "string", minLength: 1 }, count, clients: count },
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validateAuditFn: ValidateFunction = ajv.compile(auditSchema);
const validateUsageFn: ValidateFunction = ajv.compile(usageSchema);

/** Human-readable Ajv errors: `/findings/3/line must be integer`, at most `max` of them. */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 5): string[] {
  const lines = (errors ?? []).map((e) => {
    const where = e.instancePath || "(top level)";
    const extra =
      e.keyword === "enum" ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")})`
      : e.keyword === "const" ? ` (${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)})`
      : "";
    return `${where} ${e.message ?? "is invalid"}${extra}`;
  });
  const unique = [...new Set(lines)];
  return unique.length > max ? [...unique.slice(0, max), `… and ${unique.length - max} more`] : unique;
}

export type SchemaCheck = { ok: true } | { ok: false; errors: string[] };

export function checkAudit(data: unknown): SchemaCheck {
  return validateAuditFn(data) ? { ok: true } : { ok: false, errors: describeErrors(validateAuditFn.errors) };
}

export function checkUsage(data: unknown): SchemaCheck {
  return validateUsageFn(data) ? { ok: true } : { ok: false, errors: describeErrors(validateUsageFn.errors) };
}
