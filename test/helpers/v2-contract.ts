// Contract checks for tests: does a fetch Response match the published v2 document for its
// method, path and status? Reads the body once and hands it back parsed.
import { loadV2 } from "../../openapi/reference.ts";
import { createV2Validator, type OpenApiValidator } from "../../openapi/validator.ts";

let cached: OpenApiValidator | undefined;

/** The shared v2 validator (built lazily from the reference document). */
export function v2Validator(): OpenApiValidator {
  cached ??= createV2Validator(loadV2());
  return cached;
}

export type CheckedResponse<T = any> = {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON media types, the raw text otherwise, undefined when empty. */
  body: T;
  text: string;
  operationId: string | undefined;
  pathTemplate: string;
};

/**
 * Asserts that `res` (the answer to `method` on `res.url`, or on `options.path`) matches the v2
 * document: a documented operation, a documented status (or `default`), the documented media
 * type and a body valid against the schema. Throws an Error listing every violation.
 */
export async function expectV2Response<T = any>(
  res: Response,
  method: string,
  options: { path?: string; validator?: OpenApiValidator } = {},
): Promise<CheckedResponse<T>> {
  const validator = options.validator ?? v2Validator();
  const path = options.path ?? new URL(res.url).pathname;
  const match = validator.matchOperation(method, path);
  if (!match) throw new Error(`v2 contract: ${method.toUpperCase()} ${path} is not a documented v2 operation`);
  const text = await res.text();
  const contentType = res.headers.get("content-type");
  let body: unknown = text === "" ? undefined : text;
  if (text !== "" && contentType && /[/+]json\b/i.test(contentType)) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`v2 contract: ${method.toUpperCase()} ${path} → ${res.status}: body is not JSON: ${text.slice(0, 200)}`);
    }
  }
  const result = validator.validateResponse(method, match.pathTemplate, res.status, contentType, body);
  if (!result.ok) {
    throw new Error(
      `v2 contract: ${method.toUpperCase()} ${path} (${match.operationId}) → ${res.status} ${contentType ?? ""} violates the document:\n  - ` +
        result.errors.join("\n  - ") +
        `\nbody: ${text.slice(0, 500)}`,
    );
  }
  return { status: res.status, headers: res.headers, body: body as T, text, operationId: match.operationId, pathTemplate: match.pathTemplate };
}
