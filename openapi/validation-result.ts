// What a validation answers: ok, or the reasons it failed in words a caller can act on.
import type { ErrorObject } from "ajv";

export type ValidationResult = { ok: true } | { ok: false; errors: string[] };

export const OK: ValidationResult = { ok: true };
export function fail(errors: string[]): ValidationResult {
  return { ok: false, errors: errors.length ? errors : ["invalid"] };
}

/** Human-readable, de-duplicated Ajv messages, e.g. "/gpu/count must be >= 1". */
export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  const out: string[] = [];
  for (const e of errors ?? []) {
    // Branch-selection noise from if/then and anyOf/oneOf adds nothing a caller can act on.
    if (e.keyword === "if") continue;
    let message = e.message ?? "is invalid";
    const p = e.params as Record<string, any>;
    switch (e.keyword) {
      case "additionalProperties":
        message = `must NOT have additional property '${p.additionalProperty}'`;
        break;
      case "unevaluatedProperties":
        message = `must NOT have unevaluated property '${p.unevaluatedProperty}'`;
        break;
      case "required":
        message = `must have required property '${p.missingProperty}'`;
        break;
      case "enum":
        message = `must be one of: ${(p.allowedValues ?? []).map((v: unknown) => JSON.stringify(v)).join(", ")}`;
        break;
      case "const":
        message = `must be ${JSON.stringify(p.allowedValue)}`;
        break;
    }
    const text = e.instancePath ? `${e.instancePath} ${message}` : message;
    if (!out.includes(text)) out.push(text);
  }
  return out;
}
