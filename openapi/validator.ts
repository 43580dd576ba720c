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
import type { ErrorObject, ValidateFunction } from "ajv";
import type { OpenApiDocument } from "./reference.ts";

// ajv and ajv-formats are CommonJS with a `default` export; under NodeNext ESM the default import
// is the module object, so unwrap it once here.
const Ajv2020 = ((_Ajv2020 as any).default ?? _Ajv2020) as typeof _Ajv2020.default;
const AjvDraft7 = ((_AjvDraft7 as any).default ?? _AjvDraft7) as typeof _AjvDraft7.default;
const addFormats = ((_addFormats as any).default ?? _addFormats) as typeof _addFormats.default;

type AjvInstance = InstanceType<typeof Ajv2020> | InstanceType<typeof AjvDraft7>;

export type ValidationResult = { ok: true } | { ok: false; errors: string[] };

export type OperationMatch = {
  pathTemplate: string;
  operationId: string | undefined;
  params: Record<string, string>;
};

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

  const templates = Object.keys(doc.paths ?? {}).map((template) => ({
    template,
    segments: splitPath(template),
  }));
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

  function matchOperation(method: string, concretePath: string): OperationMatch | null {
    const m = method.toLowerCase();
    const pathOnly = concretePath.split("?")[0];
    const candidates = [pathOnly];
    for (const base of opts.basePaths) {
      if (base && (pathOnly === base || pathOnly.startsWith(base + "/"))) candidates.push(pathOnly.slice(base.length) || "/");
    }
    for (const candidate of candidates) {
      const segments = splitPath(candidate);
      let best: { template: string; score: number[]; params: Record<string, string> } | null = null;
      for (const t of templates) {
        if (t.segments.length !== segments.length) continue;
        if (!doc.paths[t.template]?.[m]) continue;
        const params: Record<string, string> = {};
        const score: number[] = [];
        let ok = true;
        for (let i = 0; i < segments.length; i++) {
          const ts = t.segments[i];
          const param = /^\{(.+)\}$/.exec(ts);
          if (param) {
            if (segments[i] === "") { ok = false; break; }
            params[param[1]] = safeDecode(segments[i]);
            score.push(0);
          } else if (ts === segments[i]) {
            score.push(1);
          } else {
            ok = false;
            break;
          }
        }
        if (ok && (!best || compareScore(score, best.score) > 0)) best = { template: t.template, score, params };
      }
      if (best) {
        return { pathTemplate: best.template, operationId: doc.paths[best.template][m]?.operationId, params: best.params };
      }
    }
    return null;
  }

  function requestBodyInfo(method: string, pathTemplate: string) {
    const found = operation(method, pathTemplate);
    if (!found || !found.op.requestBody) return null;
    const resolved = resolveRef(doc, found.op.requestBody, `${found.pointer}/requestBody`);
    return { ...resolved, opPointer: found.pointer };
  }

  function validateRequestBody(method: string, pathTemplate: string, body: unknown): ValidationResult {
    const found = operation(method, pathTemplate);
    if (!found) return fail([`no documented operation ${method.toUpperCase()} ${pathTemplate}`]);
    const info = requestBodyInfo(method, pathTemplate);
    if (!info) {
      return body === undefined || body === null || body === "" ? OK : fail(["this operation takes no request body"]);
    }
    if (body === undefined) return info.value.required ? fail(["request body is required"]) : OK;
    const content = info.value.content ?? {};
    const media = content["application/json"] ? "application/json" : Object.keys(content).find((k) => k.includes("json"));
    if (!media || !content[media]?.schema) return OK;
    const pointer = `${info.pointer}/content/${escapePointer(media)}/schema`;
    const fn = compilePointer(`req ${method} ${pathTemplate}`, pointer, (ref) =>
      opts.closed ? { ...ref, unevaluatedProperties: false } : ref,
    );
    return fn(body) ? OK : fail(formatErrors(fn.errors));
  }

  function validateQuery(method: string, pathTemplate: string, query: QueryInput): ValidationResult {
    const found = operation(method, pathTemplate);
    if (!found) return fail([`no documented operation ${method.toUpperCase()} ${pathTemplate}`]);
    const errors: string[] = [];
    const params = [
      ...(found.pathItem.parameters ?? []).map((p: any, i: number) => ({ p, ptr: `/paths/${escapePointer(pathTemplate)}/parameters/${i}` })),
      ...(found.op.parameters ?? []).map((p: any, i: number) => ({ p, ptr: `${found.pointer}/parameters/${i}` })),
    ];
    for (const { p, ptr } of params) {
      const { value: param, pointer } = resolveRef(doc, p, ptr);
      if (param?.in !== "query" || !param.schema) continue;
      const raw = query[param.name];
      if (raw === undefined || raw === null) {
        if (param.required) errors.push(`query parameter '${param.name}' is required`);
        continue;
      }
      const schema = resolveRef(doc, param.schema, `${pointer}/schema`).value;
      const value = coerceQueryValue(raw, schema, param.explode !== false && param.style !== "spaceDelimited");
      const fn = compilePointer(`query ${pointer}`, `${pointer}/schema`);
      if (!fn(value)) {
        for (const e of formatErrors(fn.errors)) errors.push(`query parameter '${param.name}'${e.startsWith("/") ? e : " " + e}`);
      }
    }
    return errors.length ? fail(errors) : OK;
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
    hasRequestBody: (method, pathTemplate) => requestBodyInfo(method, pathTemplate) !== null,
  };
}

// ---------------------------------------------------------------------------------------------

const OK: ValidationResult = { ok: true };
function fail(errors: string[]): ValidationResult {
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

function compareScore(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function splitPath(p: string): string[] {
  return p.replace(/^\/+/, "").split("/");
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function escapePointer(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

function serverBasePaths(doc: OpenApiDocument): string[] {
  const servers = (doc as any).servers as Array<{ url?: string }> | undefined;
  const out: string[] = [];
  for (const s of servers ?? []) {
    try {
      const p = new URL(s.url ?? "", "http://placeholder").pathname.replace(/\/+$/, "");
      if (p && !out.includes(p)) out.push(p);
    } catch {
      /* ignore unparsable server urls */
    }
  }
  return out;
}

/** Follow local "#/..." refs; returns the target and its JSON pointer inside the document. */
function resolveRef(doc: OpenApiDocument, value: any, pointer: string): { value: any; pointer: string } {
  let current = value;
  let ptr = pointer;
  for (let depth = 0; depth < 20 && current && typeof current.$ref === "string" && current.$ref.startsWith("#/"); depth++) {
    ptr = current.$ref.slice(1);
    current = ptr
      .split("/")
      .slice(1)
      .map((s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((acc: any, key: string) => (acc == null ? acc : acc[key]), doc);
  }
  return { value: current, pointer: ptr };
}

function coerceQueryValue(raw: unknown, schema: any, exploded: boolean): unknown {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== "null") : schema?.type;
  if (type === "array") {
    // form/explode=false sends "a,b"; exploded sends ?x=a&x=b. Accept either spelling.
    void exploded;
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === "string" ? v.split(",") : [v]));
    const itemType = schema.items?.type;
    return values.map((v) => coerceScalar(v, itemType));
  }
  const scalar = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return coerceScalar(scalar, type);
}

function coerceScalar(v: unknown, type: string | undefined): unknown {
  if (typeof v !== "string") return v;
  if (type === "integer" || type === "number") return v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : v;
  if (type === "boolean") return v === "true" ? true : v === "false" ? false : v;
  return v;
}

/**
 * Ajv 8 drops the annotations of sibling keywords when a top-level `if` fails and `then` has
 * `properties`, so `unevaluatedProperties: false` then rejects every property (seen on v2's
 * CreateEndpointRequest). Moving `if`/`then`/`else` into an `allOf` member is equivalent in
 * JSON Schema 2020-12 and sidesteps the bug. Works on a copy; the caller's document is untouched.
 */
function hoistConditionals(doc: OpenApiDocument): OpenApiDocument {
  const clone = structuredClone(doc);
  const visit = (node: any): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const value of Object.values(node)) visit(value);
    if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
      const conditional: Record<string, unknown> = { if: node.if };
      if (node.then !== undefined) conditional.then = node.then;
      if (node.else !== undefined) conditional.else = node.else;
      delete node.if;
      delete node.then;
      delete node.else;
      node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), conditional];
    }
  };
  visit((clone as any).components);
  visit((clone as any).paths);
  return clone;
}

/** OpenAPI 3.0 → JSON Schema: `nullable: true` becomes a null-admitting type (or anyOf). */
function normaliseOpenApi30(doc: OpenApiDocument): OpenApiDocument {
  const clone = structuredClone(doc);
  const visit = (node: any): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const value of Object.values(node)) visit(value);
    if (node.nullable === true) {
      delete node.nullable;
      if (typeof node.type === "string") {
        node.type = [node.type, "null"];
        if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
      } else if (node.$ref || node.allOf || node.oneOf || node.anyOf) {
        const inner = { ...node };
        for (const k of Object.keys(node)) delete node[k];
        node.anyOf = [inner, { type: "null" }];
      }
    } else if (node.nullable === false) {
      delete node.nullable;
    }
    if (node.exclusiveMinimum === true && typeof node.minimum === "number") {
      node.exclusiveMinimum = node.minimum;
      delete node.minimum;
    } else if (node.exclusiveMinimum === false) delete node.exclusiveMinimum;
    if (node.exclusiveMaximum === true && typeof node.maximum === "number") {
      node.exclusiveMaximum = node.maximum;
      delete node.maximum;
    } else if (node.exclusiveMaximum === false) delete node.exclusiveMaximum;
  };
  visit((clone as any).components);
  visit((clone as any).paths);
  return clone;
}
