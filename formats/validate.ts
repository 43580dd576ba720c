// Validation of the file formats against their schemas (Ajv, strict, with formats), with errors
// a person can act on: `/findings/3/line must be integer`.
import _Ajv from "ajv";
import _addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Audit } from "./audit.ts";
import { UsageSnapshot } from "./usage.ts";

// ajv and ajv-formats are CommonJS with a `default` export; under NodeNext ESM unwrap it once.
const Ajv = ((_Ajv as any).default ?? _Ajv) as typeof _Ajv.default;
const addFormats = ((_addFormats as any).default ?? _addFormats) as typeof _addFormats.default;

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validateAuditFn: ValidateFunction = ajv.compile(Audit);
const validateUsageFn: ValidateFunction = ajv.compile(UsageSnapshot);

/** Human-readable Ajv errors, at most `max` of them. */
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
