// JSON Schema validation driven by a published OpenAPI document: operation matching for
// concrete paths, request bodies (closed at the top level), query parameters and responses.
// Shared by the sandbox (request strictness) and by tests (response contracts).
//
// The whole document is registered with Ajv once under a private id; every schema we validate
// against is a JSON-pointer $ref into it, so the document's own "#/components/..." refs resolve
// exactly as written. Validators compile lazily and are cached per (operation, status, media).
import _Ajv2020 from "ajv/dist/2020.js";
import _AjvDraft7 from "ajv";
import _addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import type { OpenApiDocument } from "./reference.ts";
import { escapePointer, resolveRef } from "./document-refs.ts";
import { operationMatcher, serverBasePaths, type OperationMatch } from "./operation-match.ts";
import { coerceQueryValue } from "./query-coerce.ts";
import { hoistConditionals, normaliseOpenApi30 } from "./schema-normalise.ts";
import { OK, fail, formatErrors, type ValidationResult } from "./validation-result.ts";

// ajv and ajv-formats are CommonJS with a `default` export; under NodeNext ESM the default import
// is the module object, so unwrap it once here.
const Ajv2020 = ((_Ajv2020 as any).default ?? _Ajv2020) as typeof _Ajv2020.default;
const AjvDraft7 = ((_AjvDraft7 as any).default ?? _AjvDraft7) as typeof _AjvDraft7.default;
const addFormats = ((_addFormats as any).default ?? _addFormats) as typeof _addFormats.default;

type AjvInstance = InstanceType<typeof Ajv2020> | InstanceType<typeof AjvDraft7>;

export type { ValidationResult } from "./validation-result.ts";
export type { OperationMatch } from "./operation-match.ts";
export { formatErrors } from "./validation-result.ts";

export type QueryInput = Record<string, string | string[] | number | boolean | undefined | null>;

export interface OpenApiValidator {
  /** The (possibly normalised) document this validator was built from. */
  readonly document: OpenApiDocument;
  /** Find the documented operation for a concrete request path; literal segments beat {params}. */
  matchOperation(method: string, concretePath: string): OperationMatch | null;
  /** Validate a parsed request body. The top-level object is closed for v2 (unknown keys rejected). */
  validateRequestBody(method: string, pathTemplate: string, body: unknown): ValidationResult;
  /** Validate documented query parameters (presence, type, enum, bounds). Unknown ones are ignored. */
  validateQuery(method: string, pathTemplate: string, query: QueryInput): ValidationResult;
  /**
   * Validate a response: picks the exact status, then `default`. Documented responses without
   * content must have an empty body (undefined, null or ""). For JSON media pass the parsed body,
   * for text media the raw string.
   */
  validateResponse(
    method: string,
    pathTemplate: string,
    status: number,
    contentType: string | null | undefined,
    body: unknown,
  ): ValidationResult;
  /** True when the operation documents a request body. */
  hasRequestBody(method: string, pathTemplate: string): boolean;
}

export type ValidatorOptions = {
  /** Reject unknown top-level request-body properties (default: true for v2, false for v1). */
  closedRequestBodies?: boolean;
};

const DOC_ID = "openapi-doc";
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** Validators for an OpenAPI 3.1 document (JSON Schema 2020-12). */
export function createV2Validator(doc: OpenApiDocument, options: ValidatorOptions = {}): OpenApiValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
  return buildValidator(doc, ajv, { closed: options.closedRequestBodies ?? true, basePaths: serverBasePaths(doc) });
}

/** Validators for an OpenAPI 3.0.x document (draft-07-ish; `nullable` is translated). */
export function createV1Validator(doc: OpenApiDocument, options: ValidatorOptions = {}): OpenApiValidator {
  const normalised = normaliseOpenApi30(doc);
  const ajv = new AjvDraft7({ strict: false, allErrors: true, validateSchema: false, unevaluated: true });
  return buildValidator(normalised, ajv, {
    closed: options.closedRequestBodies ?? false,
    basePaths: serverBasePaths(doc),
  });
}

// ---------------------------------------------------------------------------------------------

function buildValidator(
  doc: OpenApiDocument,
  ajv: AjvInstance,
  opts: { closed: boolean; basePaths: string[] },
): OpenApiValidator {
  addFormats(ajv as any);
  for (const name of ["float", "double"]) ajv.addFormat(name, { type: "number", validate: () => true });
  for (const name of ["int32", "int64"]) ajv.addFormat(name, { type: "number", validate: () => true });
  for (const name of ["currency", "binary", "byte", "password"]) ajv.addFormat(name, () => true);
  ajv.addSchema(hoistConditionals(doc) as any, DOC_ID);

  const matchOperation = operationMatcher(doc, opts.basePaths);
  const cache = new Map<string, ValidateFunction>();

  function compilePointer(key: string, pointer: string, wrap?: (ref: { $ref: string }) => object): ValidateFunction {
    let fn = cache.get(key);
    if (!fn) {
      const ref = { $ref: `${DOC_ID}#${pointer}` };
      fn = ajv.compile(wrap ? wrap(ref) : ref);
      cache.set(key, fn);
    }
    return fn;
  }

  function operation(method: string, pathTemplate: string) {
    const pathItem = doc.paths?.[pathTemplate];
    const m = method.toLowerCase();
    const op = pathItem?.[m];
    if (!pathItem || !op || !HTTP_METHODS.has(m)) return null;
    return { pathItem, op, pointer: `/paths/${escapePointer(pathTemplate)}/${m}` };
  }

  function requestBodyInfo(method: string, pathTemplate: string) {
    const found = operation(method, pathTemplate);
    if (!found || !found.op.requestBody) return null;
    const resolved = resolveRef(doc, found.op.requestBody, `${found.pointer}/requestBody`);
    return { ...resolved, opPointer: found.pointer };
  }

  // What a request of one operation is checked against, worked out on its first request: the
  // gateway validates every v1 request, and resolving references and building JSON pointers on each
  // one showed in its profile (docs/performance.md). Only documented operations are kept (null is
  // not cached), so the maps stay as small as the document whatever paths arrive.
  type BodyPlan = { body: false } | { body: true; required: boolean; fn: ValidateFunction | null };
  const bodyPlans = new Map<string, BodyPlan>();
  function bodyPlan(method: string, pathTemplate: string): BodyPlan | null {
    const key = `${method} ${pathTemplate}`;
    let plan = bodyPlans.get(key);
    if (plan !== undefined) return plan;
    if (!operation(method, pathTemplate)) return null;
    const info = requestBodyInfo(method, pathTemplate);
    if (!info) plan = { body: false };
    else {
      const content = info.value.content ?? {};
      const media = content["application/json"] ? "application/json" : Object.keys(content).find((k) => k.includes("json"));
      const fn =
        !media || !content[media]?.schema
          ? null
          : compilePointer(`req ${method} ${pathTemplate}`, `${info.pointer}/content/${escapePointer(media)}/schema`, (ref) =>
              opts.closed ? { ...ref, unevaluatedProperties: false } : ref,
            );
      plan = { body: true, required: !!info.value.required, fn };
    }
    bodyPlans.set(key, plan);
    return plan;
  }

  function validateRequestBody(method: string, pathTemplate: string, body: unknown): ValidationResult {
    const plan = bodyPlan(method, pathTemplate);
    if (plan === null) return fail([`no documented operation ${method.toUpperCase()} ${pathTemplate}`]);
    if (!plan.body) return body === undefined || body === null || body === "" ? OK : fail(["this operation takes no request body"]);
    if (body === undefined) return plan.required ? fail(["request body is required"]) : OK;
    if (!plan.fn) return OK;
    return plan.fn(body) ? OK : fail(formatErrors(plan.fn.errors));
  }

  interface QueryParam {
    name: string;
    required: boolean;
    schema: any;
    explode: boolean;
    fn: ValidateFunction;
  }
  const queryPlans = new Map<string, QueryParam[]>();
  function queryPlan(method: string, pathTemplate: string): QueryParam[] | null {
    const key = `${method} ${pathTemplate}`;
    const known = queryPlans.get(key);
    if (known !== undefined) return known;
    const found = operation(method, pathTemplate);
    if (!found) return null;
    const plan: QueryParam[] = [];
    const params = [
      ...(found.pathItem.parameters ?? []).map((p: any, i: number) => ({ p, ptr: `/paths/${escapePointer(pathTemplate)}/parameters/${i}` })),
      ...(found.op.parameters ?? []).map((p: any, i: number) => ({ p, ptr: `${found.pointer}/parameters/${i}` })),
    ];
    for (const { p, ptr } of params) {
      const { value: param, pointer } = resolveRef(doc, p, ptr);
      if (param?.in !== "query" || !param.schema) continue;
      plan.push({
        name: param.name,
        required: !!param.required,
        schema: resolveRef(doc, param.schema, `${pointer}/schema`).value,
        explode: param.explode !== false && param.style !== "spaceDelimited",
        fn: compilePointer(`query ${pointer}`, `${pointer}/schema`),
      });
    }
    queryPlans.set(key, plan);
    return plan;
  }

  function validateQuery(method: string, pathTemplate: string, query: QueryInput): ValidationResult {
    const plan = queryPlan(method, pathTemplate);
    if (plan === null) return fail([`no documented operation ${method.toUpperCase()} ${pathTemplate}`]);
    let errors: string[] | undefined;
    for (const param of plan) {
      const raw = query[param.name];
      if (raw === undefined || raw === null) {
        if (param.required) (errors ??= []).push(`query parameter '${param.name}' is required`);
        continue;
      }
      if (!param.fn(coerceQueryValue(raw, param.schema, param.explode))) {
        for (const e of formatErrors(param.fn.errors)) (errors ??= []).push(`query parameter '${param.name}'${e.startsWith("/") ? e : " " + e}`);
      }
    }
    return errors ? fail(errors) : OK;
  }

  function validateResponse(
    method: string,
    pathTemplate: string,
    status: number,
    contentType: string | null | undefined,
    body: unknown,
  ): ValidationResult {
    const found = operation(method, pathTemplate);
    if (!found) return fail([`no documented operation ${method.toUpperCase()} ${pathTemplate}`]);
    const responses = found.op.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => responses[k] !== undefined);
    if (!key) {
      return fail([`status ${status} is not documented for ${method.toUpperCase()} ${pathTemplate} (documented: ${Object.keys(responses).join(", ")})`]);
    }
    const { value: response, pointer } = resolveRef(doc, responses[key], `${found.pointer}/responses/${escapePointer(key)}`);
    const content: Record<string, any> = response?.content ?? {};
    const mediaTypes = Object.keys(content);
    const empty = body === undefined || body === null || body === "";
    if (mediaTypes.length === 0) {
      return empty ? OK : fail([`response ${key} of ${method.toUpperCase()} ${pathTemplate} has no documented content, but a body was sent`]);
    }
    const actual = (contentType ?? "").split(";")[0].trim().toLowerCase();
    const media =
      mediaTypes.find((m) => m.toLowerCase() === actual) ??
      mediaTypes.find((m) => m.endsWith("/*") && actual.startsWith(m.slice(0, -1).toLowerCase())) ??
      mediaTypes.find((m) => m === "*/*");
    if (!media) {
      return fail([`content type '${actual || "(none)"}' is not documented for response ${key} (expected ${mediaTypes.join(" or ")})`]);
    }
    if (!content[media]?.schema) return OK;
    const fn = compilePointer(`res ${method} ${pathTemplate} ${key} ${media}`, `${pointer}/content/${escapePointer(media)}/schema`);
    return fn(body) ? OK : fail(formatErrors(fn.errors));
  }

  return {
    document: doc,
    matchOperation,
    validateRequestBody,
    validateQuery,
    validateResponse,
    hasRequestBody: (method, pathTemplate) => bodyPlan(method, pathTemplate)?.body === true,
  };
}
