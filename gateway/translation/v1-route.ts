// The v1 surface: match → translate → call upstream → translate back, for every operation in the
// mapping table. Everything an answer needs (status, body, headers) is decided here or in the
// table; emulations (gateway/emulations) hook in where one v1 call needs more than one v2 call.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Deadline } from "../upstream/deadline.ts";
import { emulationsFor, type Emulation } from "../emulations/index.ts";
import { exceedsJsonDepth } from "./json-depth.ts";
import { isWrite, lostWriteError } from "../limits/lost-write.ts";
import type { GatewayDeps, V1Call } from "../upstream/call.ts";
import { boundedWarnings, deprecationHeaders, passthroughHeaders, successorLink, WARNING_HEADER } from "../upstream/headers.ts";
import type { GatewayMetrics } from "../observability/metrics.ts";
import type { Fingerprinter } from "../usage/fingerprint.ts";
import { v2PathFor } from "../../mappings/index.ts";
import { resolveV1, translateBody, translateQuery } from "./translate-request.ts";
import { toV1Answer, v2RecordsOf, type V1Answer } from "./translate-response.ts";
import type { UsageStore } from "../usage/usage.ts";
import { V1Error, sendV1Error, upstreamError } from "./v1-errors.ts";
import { redactText, secretsOf } from "../observability/redact.ts";
import { inV1Terms } from "./v2-errors-in-v1-terms.ts";
import { splitListStrings } from "./v1-list-strings.ts";
import { noteDrops } from "./drops.ts";
import { declareLostFields } from "./lost-fields.ts";
import { v1GpuTypeIds as gpuTypeIdsOf } from "./v1-gpu-types.ts";
import type { OpenApiValidator } from "../../openapi/validator.ts";
import { UpstreamNotReached, type UpstreamResponse } from "../upstream/upstream.ts";

declare module "fastify" {
  interface FastifyRequest {
    v1Operation?: { key: string; v1: { method: string; path: string } };
    /** v1 inputs v2 dropped on this request (usage audit). */
    v1Dropped?: string[];
  }
}

export interface V1RouteOptions {
  deps: GatewayDeps;
  metrics: GatewayMetrics;
  usage: UsageStore;
  fingerprints: Fingerprinter;
  /** v1 request validator (bodies, query), when the v1 document is available. */
  v1Validator: OpenApiValidator | null;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

function hasBody(req: FastifyRequest): boolean {
  const len = req.headers["content-length"];
  return (len !== undefined && len !== "0") || req.headers["transfer-encoding"] !== undefined;
}

function parseJsonBody(raw: unknown, maxDepth: number): unknown {
  if (raw === undefined || raw === null) return undefined;
  const text = Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw);
  if (text.trim() === "") return undefined;
  if (exceedsJsonDepth(text, maxDepth)) throw new V1Error(400, `request body is nested deeper than ${maxDepth} levels (--max-json-depth)`);
  try {
    return JSON.parse(text);
  } catch (err) {
    // V8's message quotes the start of the input, which may be a key: keep only where it broke.
    const at = /at position \d+/.exec((err as Error).message);
    throw new V1Error(400, `malformed JSON body${at ? ` (${at[0]})` : ""}`);
  }
}

export function registerV1Routes(app: FastifyInstance, opts: V1RouteOptions): void {
  const { deps, metrics, usage, fingerprints, v1Validator } = opts;
  const v1GpuTypeIds = v1Validator ? gpuTypeIdsOf(v1Validator.document) : undefined;
  const publicBase = deps.config.publicV2Base;

  app.register(async (scope) => {
    // Bodies arrive as raw bytes (any content type) so every parse failure becomes a v1 answer.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: deps.config.bodyLimit }, (_req, body, done) => done(null, body));

    // Same values on every answer (the handler narrows Link once the operation is known): built once.
    // Callback-style hooks: an async hook costs a promise per request for nothing here.
    const fixedHeaders = deprecationHeaders(publicBase, null);
    scope.addHook("onRequest", (_req, reply, done) => {
      reply.headers(fixedHeaders);
      done();
    });

    scope.addHook("onResponse", (req, reply, done) => {
      const op = req.v1Operation;
      metrics.requests.inc({ operation: op?.key ?? "unmatched", status: String(reply.statusCode) });
      if (op) usage.record(op, fingerprints.short(req.headers.authorization), req.headers["user-agent"], reply.statusCode, req.v1Dropped);
      done();
    });

    scope.setErrorHandler((error: any, req, reply) => {
      const op = req.v1Operation?.key ?? "unmatched";
      if (error instanceof V1Error) {
        if (error.kind !== "client" || error.status >= 500) metrics.translationErrors.inc({ operation: op, kind: error.kind });
        return sendV1Error(reply, error.status, error.message);
      }
      const status = typeof error?.statusCode === "number" ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        const message = error?.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? `request body is larger than ${deps.config.bodyLimit} bytes` : String(error?.message ?? "bad request");
        return sendV1Error(reply, status, message);
      }
      req.log.error({ err: error }, "v1 translation failed");
      metrics.translationErrors.inc({ operation: op, kind: "translation" });
      return sendV1Error(reply, 500, `internal gateway error (request id ${req.id})`);
    });

    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const rawUrl = req.raw.url ?? "/";
      const q = rawUrl.indexOf("?");
      const rawPath = (q === -1 ? rawUrl : rawUrl.slice(0, q)).slice("/v1".length);
      const search = new URLSearchParams(q === -1 ? "" : rawUrl.slice(q + 1));
      const resolved = resolveV1(req.method, rawPath || "/");
      if (resolved.kind === "unknown") throw new V1Error(404, `unknown v1 path ${req.method} /v1${rawPath.slice(0, 200)}`);
      if (resolved.kind === "method") {
        reply.header("Allow", resolved.allowed.join(", "));
        throw new V1Error(405, `method ${req.method} is not allowed on /v1${rawPath.slice(0, 200)}; use ${resolved.allowed.join(" or ")}`);
      }
      const { match } = resolved;
      const op = match.operation;
      req.v1Operation = { key: op.key, v1: { method: op.v1.method, path: op.v1.path } };
      const v2Path = v2PathFor(match);
      // Link and warnings echo path parameters and field names, which may be the caller's own key.
      const secrets = secretsOf(req.headers, rawUrl);
      reply.header("Link", redactText(successorLink(publicBase, v2Path), secrets));

      // ── input checks ────────────────────────────────────────────────
      const takesBody = !!op.request?.lens;
      let v1Body: Record<string, unknown> | undefined;
      if (!takesBody) {
        // v1 ignored bodies on bodiless POST/DELETE (clients often send "{}"); a body on a GET is an error.
        if (req.method === "GET" && hasBody(req)) throw new V1Error(400, `v1 GET ${op.v1.path} takes no request body`);
      } else {
        const parsed = parseJsonBody(req.body, deps.config.maxJsonDepth);
        if (parsed !== undefined && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))) {
          throw new V1Error(400, "request body must be a JSON object");
        }
        v1Body = (parsed as Record<string, unknown> | undefined) ?? {};
        if (v1Validator) {
          v1Body = splitListStrings(v1Validator.document, op.v1.method, op.v1.path, v1Body);
          const check = v1Validator.validateRequestBody(op.v1.method, op.v1.path, v1Body);
          if (!check.ok) throw new V1Error(400, `invalid request body: ${check.errors.join("; ")}`);
        }
      }
      if (v1Validator && [...search.keys()].length) {
        const query: Record<string, string | string[]> = {};
        for (const name of new Set(search.keys())) {
          const all = search.getAll(name);
          query[name] = all.length > 1 ? all : all[0]!;
        }
        const check = v1Validator.validateQuery(op.v1.method, op.v1.path, query);
        if (!check.ok) throw new V1Error(400, `invalid query: ${check.errors.join("; ")}`);
      }
      const translatedQuery = translateQuery(op, search);
      if (translatedQuery.rejections.length) throw new V1Error(400, translatedQuery.rejections.join("; "));

      const authorization = req.headers.authorization;
      const userAgent = req.headers["user-agent"];
      const deadline = new Deadline(deps.config.upstreamDeadlineMs);
      // A POST/PATCH sent upstream whose answer has not arrived: if the request fails now, its outcome is unknown.
      let unsettledWrite = false;
      const call: V1Call = {
        op,
        match,
        requestId: String(req.id),
        authorization,
        userAgent,
        cacheKey: fingerprints.cacheKey(authorization),
        v1Body,
        v2Path,
        v2Query: translatedQuery.v2,
        filters: translatedQuery.filters,
        expansions: translatedQuery.expansions,
        emulatedParams: translatedQuery.emulatedParams,
        warnings: [...translatedQuery.warnings],
        dropped: [],
        convert: { v1GpuTypeIds },
        emulate: {},
        deps,
        deadline,
        callUpstream: async (r) => {
          if (deadline.passed) throw deadline.error();
          const write = isWrite(r.method);
          if (write) unsettledWrite = true;
          try {
            const res = await deps.upstream({ ...r, authorization, requestId: String(req.id), userAgent, deadline }, op.key);
            if (write) unsettledWrite = false;
            call.lastUpstreamHeaders = res.headers;
            return res;
          } catch (err) {
            if (write && err instanceof UpstreamNotReached) unsettledWrite = false;
            throw err;
          }
        },
      };

      let answer: V1Answer;
      try {
        noteDrops(call, translatedQuery.dropped, translatedQuery.warnings);
        answer = await deadline.run(run(call, emulationsFor(op.emulations)));
        declareLostFields(call, answer);
      } catch (err) {
        if (unsettledWrite && err instanceof V1Error && err.status >= 500) throw lostWriteError(err, match, v1Body);
        throw err;
      } finally {
        if (call.lastUpstreamHeaders) reply.headers(passthroughHeaders(call.lastUpstreamHeaders));
        // Warnings echo field names and parameters, which may be the caller's own key: redacted before the header and the log.
        const warnings = [...new Set(call.warnings.map((w) => redactText(w, secrets)))];
        const warning = boundedWarnings(warnings);
        if (warning.header) reply.header(WARNING_HEADER, warning.header);
        if (warning.omitted) req.log.warn({ warnings }, `${WARNING_HEADER} shortened: ${warning.omitted} warning(s) only in this log line`);
        // Dropped names are the client's own field and parameter names (a key sent as a field name too): redacted before usage counts them.
        req.v1Dropped = call.dropped.map((d) => redactText(d, secrets));
      }
      reply.code(answer.status);
      if (answer.text !== undefined) return reply.type(answer.contentType ?? "text/plain; charset=utf-8").send(answer.text);
      if (answer.json === undefined) return reply.send();
      return reply.type("application/json; charset=utf-8").send(JSON.stringify(answer.json));
    };

    scope.route({ method: [...METHODS], url: "/v1", handler });
    scope.route({ method: [...METHODS], url: "/v1/*", handler });
  });
}

/** The standard path for one operation, with emulation hooks where the table names them. */
async function run(call: V1Call, emulations: Emulation[]): Promise<V1Answer> {
  const { op } = call;
  const whole = emulations.find((e) => e.handle);
  if (whole) return whole.handle!(call);
  if (!op.v2 || !call.v2Path) throw new V1Error(400, op.decision ? `${op.decision.message}. ${op.decision.advice}` : `v1 ${op.key} has no v2 equivalent`);

  for (const e of emulations) if (e.prepare) await e.prepare(call);

  const translated = translateBody(op, call.v1Body, call.convert);
  if (translated) {
    noteDrops(call, translated.dropped, translated.warnings);
    call.warnings.push(...translated.warnings);
    call.emulate = translated.emulate;
    const claimed = new Set(emulations.flatMap((e) => e.fields ?? []));
    const unclaimed = Object.keys(translated.emulate).filter((f) => !claimed.has(f));
    if (unclaimed.length) throw new V1Error(500, `no emulation handles v1 field(s) ${unclaimed.join(", ")}`, "translation");
  }

  const v2 = op.v2;
  const base = (body: Record<string, unknown> | undefined): Promise<UpstreamResponse> =>
    call.callUpstream({ method: v2.method, path: call.v2Path!, query: call.v2Query, body });
  let send = base;
  for (const e of emulations) {
    if (!e.send) continue;
    const next = send;
    send = (body) => e.send!(call, body, next);
  }
  const res = await send(translated?.body);

  if (res.status < 200 || res.status >= 300) throw upstreamError(inV1Terms(op, res));
  const records = v2RecordsOf(op, res.json);
  for (const e of emulations) if (e.beforeRead) await e.beforeRead(call, records);
  let answer: V1Answer;
  try {
    answer = toV1Answer(op, records, call.convert);
  } catch (err) {
    if (err instanceof V1Error) throw err;
    throw new V1Error(502, `could not translate the v2 answer: ${(err as Error).message}`, "translation");
  }
  for (const e of emulations) if (e.shape) answer = e.shape(call, answer);
  for (const e of emulations) if (e.expand) answer = await e.expand(call, answer);
  return answer;
}
