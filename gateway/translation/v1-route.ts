// The v1 surface: match → translate → call upstream → translate back, for every operation in the
// mapping table. Everything an answer needs (status, body, headers) is decided here or in the
// table; emulations (gateway/emulations) hook in where one v1 call needs more than one v2 call.
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Deadline } from "../upstream/deadline.ts";
import { emulationsFor, fieldsClaimedBy, type Emulation } from "../emulations/index.ts";
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
import { answerPayload, failureAnswer, type V1Exchange } from "./v1-exchange.ts";
import { redactText, redactTexts, secretsOf } from "../observability/redact.ts";
import { inV1Terms } from "./v2-errors-in-v1-terms.ts";
import { splitListStrings } from "./v1-list-strings.ts";
import { noteDrops } from "./drops.ts";
import { declareLostFields } from "./lost-fields.ts";
import { v1GpuTypeIds as gpuTypeIdsOf } from "./v1-gpu-types.ts";
import type { OpenApiValidator } from "../../openapi/validator.ts";
import { UpstreamNotReached, type UpstreamResponse } from "../upstream/upstream.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The request as the v1 handler saw it (operation and drops, for the onResponse hook). */
    v1Exchange?: V1Exchange;
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

function hasBody(headers: IncomingHttpHeaders): boolean {
  const len = headers["content-length"];
  return (len !== undefined && len !== "0") || headers["transfer-encoding"] !== undefined;
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

/** The v1 surface as the servers in front of it use it (Fastify's route here, gateway/translation/v1-fast.ts ahead of it). */
export interface V1Routes {
  /** Translates one v1 request into its answer; what it throws, `failure` turns into a v1 error. */
  handle(ex: V1Exchange): Promise<V1Answer>;
  /** Counts an answered request (metrics, usage audit). */
  answered(ex: V1Exchange | undefined, status: number): void;
  failure(error: unknown, ex: Pick<V1Exchange, "id" | "operation" | "error">): { status: number; message: string };
  /** Deprecation, Sunset and Link: every v1 answer starts with these (the handler narrows Link once the operation is known). */
  fixedHeaders: Record<string, string>;
}

export function registerV1Routes(app: FastifyInstance, opts: V1RouteOptions): V1Routes {
  const { deps, metrics, usage, fingerprints, v1Validator } = opts;
  const v1GpuTypeIds = v1Validator ? gpuTypeIdsOf(v1Validator.document) : undefined;
  const publicBase = deps.config.publicV2Base;
  // Same values on every answer: built once.
  const fixedHeaders = deprecationHeaders(publicBase, null);
  const countError = (operation: string, kind: string) => metrics.translationErrors.inc({ operation, kind });

  const routes: V1Routes = {
    fixedHeaders,
    answered(ex, status) {
      const op = ex?.operation;
      metrics.countRequest(op?.key ?? "unmatched", status);
      if (op) usage.record(op, fingerprints.short(ex.headers.authorization), ex.headers["user-agent"], status, ex.dropped, ex.lostDrops);
    },
    failure: (error, ex) => failureAnswer(error, ex, deps.config.bodyLimit, countError),

    async handle(ex) {
      const rawUrl = ex.url;
      const q = rawUrl.indexOf("?");
      const rawPath = (q === -1 ? rawUrl : rawUrl.slice(0, q)).slice("/v1".length);
      const search = new URLSearchParams(q === -1 ? "" : rawUrl.slice(q + 1));
      const resolved = resolveV1(ex.method, rawPath || "/");
      if (resolved.kind === "unknown") throw new V1Error(404, `unknown v1 path ${ex.method} /v1${rawPath.slice(0, 200)}`);
      if (resolved.kind === "method") {
        ex.header("Allow", resolved.allowed.join(", "));
        throw new V1Error(405, `method ${ex.method} is not allowed on /v1${rawPath.slice(0, 200)}; use ${resolved.allowed.join(" or ")}`);
      }
      const { match } = resolved;
      const op = match.operation;
      ex.operation = { key: op.key, v1: { method: op.v1.method, path: op.v1.path } };
      const v2Path = v2PathFor(match);
      // Link and warnings echo path parameters and field names, which may be the caller's own key.
      const secrets = secretsOf(ex.headers, rawUrl);
      ex.header("Link", redactText(successorLink(publicBase, v2Path), secrets));

      // ── input checks ────────────────────────────────────────────────
      const takesBody = !!op.request?.lens;
      let v1Body: Record<string, unknown> | undefined;
      if (!takesBody) {
        // v1 ignored bodies on bodiless POST/DELETE (clients often send "{}"); a body on a GET is an error.
        if (ex.method === "GET" && hasBody(ex.headers)) throw new V1Error(400, `v1 GET ${op.v1.path} takes no request body`);
      } else {
        const parsed = parseJsonBody(ex.body, deps.config.maxJsonDepth);
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
      if (v1Validator && search.size) {
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

      const authorization = ex.headers.authorization;
      const userAgent = ex.headers["user-agent"];
      const deadline = new Deadline(deps.config.upstreamDeadlineMs);
      // A POST/PATCH sent upstream whose answer has not arrived: if the request fails now, its outcome is unknown.
      let unsettledWrite = false;
      const call: V1Call = {
        op,
        match,
        requestId: ex.id,
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
            // Written out, not `{ ...r, authorization, … }`: on Node 20 that spread gives each request's object a map of its own, and every read of it misses the inline caches.
            const res = await deps.upstream({ method: r.method, path: r.path, query: r.query, body: r.body, authorization, requestId: ex.id, userAgent, deadline }, op.key);
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
        if (call.lastUpstreamHeaders) for (const [name, value] of Object.entries(passthroughHeaders(call.lastUpstreamHeaders))) ex.header(name, value);
        // Warnings echo field names and parameters, which may be the caller's own key: redacted before the header and the log.
        if (call.warnings.length) {
          const warnings = [...new Set(call.warnings.map((w) => redactText(w, secrets)))];
          const warning = boundedWarnings(warnings);
          if (warning.header) ex.header(WARNING_HEADER, warning.header);
          if (warning.omitted) ex.warn({ warnings }, `${WARNING_HEADER} shortened: ${warning.omitted} warning(s) only in this log line`);
        }
        // Dropped names are the client's own field and parameter names (a key sent as a field name too): redacted before usage counts them.
        ex.dropped = call.dropped.map((d) => redactText(d, secrets));
        // The lost answer fields are the table's names: redacting them changes nothing unless one of this request's secrets occurs in them.
        if (call.lostDrops) {
          const lost = redactTexts(call.lostDrops, secrets);
          if (lost === call.lostDrops) ex.lostDrops = lost;
          else ex.dropped.push(...lost);
        }
      }
      return answer;
    },
  };

  app.register(async (scope) => {
    // Bodies arrive as raw bytes (any content type) so every parse failure becomes a v1 answer.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: deps.config.bodyLimit }, (_req, body, done) => done(null, body));

    // Callback-style hooks: an async hook costs a promise per request for nothing here.
    scope.addHook("onRequest", (_req, reply, done) => {
      reply.headers(fixedHeaders);
      done();
    });

    scope.addHook("onResponse", (req, reply, done) => {
      routes.answered(req.v1Exchange, reply.statusCode);
      done();
    });

    scope.setErrorHandler((error: any, req, reply) => {
      const failed = routes.failure(error, req.v1Exchange ?? { id: String(req.id), error: (fields, message) => req.log.error(fields, message) });
      return sendV1Error(reply, failed.status, failed.message);
    });

    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const ex: V1Exchange = (req.v1Exchange = {
        method: req.method,
        url: req.raw.url ?? "/",
        headers: req.headers,
        body: req.body,
        id: String(req.id),
        header: (name, value) => void reply.header(name, value),
        warn: (fields, message) => req.log.warn(fields, message),
        error: (fields, message) => req.log.error(fields, message),
      });
      const answer = await routes.handle(ex);
      const { contentType, payload } = answerPayload(answer);
      reply.code(answer.status);
      if (contentType) reply.type(contentType);
      return reply.send(payload);
    };

    scope.route({ method: [...METHODS], url: "/v1", handler });
    scope.route({ method: [...METHODS], url: "/v1/*", handler });
  });

  return routes;
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
    const claimed = fieldsClaimedBy(emulations);
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
