// How the gateway talks to its upstream for translated calls: one undici Pool bound to the
// configured origin. Paths are built by the gateway (always `/v2/...`, parameters re-encoded) and
// checked again here, so no v1 input can steer a request anywhere else.
import { Pool, errors as undiciErrors } from "undici";
import type { GatewayConfig } from "../config.ts";
import type { Deadline } from "./deadline.ts";
import { V1Error } from "../translation/v1-errors.ts";
import { isSafeV2Path } from "./path-safety.ts";
import { exchange, TooLarge } from "./exchange.ts";

export interface UpstreamRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  /** Path under the origin, always starting with /v2/ (no query string). */
  path: string;
  query?: URLSearchParams;
  authorization?: string;
  requestId: string;
  userAgent?: string;
  body?: unknown;
  /** The v1 request's deadline: aborts this call when it passes (v1 504). */
  deadline?: Deadline;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  json: unknown;
  text: string;
  contentType: string;
  durationMs: number;
}

export class Upstream {
  readonly pool: Pool;
  readonly origin: string;

  constructor(private readonly config: GatewayConfig) {
    this.origin = config.upstream.origin;
    this.pool = new Pool(this.origin, {
      connections: config.connections,
      pipelining: 1,
      connectTimeout: Math.min(config.timeoutMs, 10_000),
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
      keepAliveTimeout: 4_000,
      // Counted by undici's parser as bytes arrive (chunked or not): past it the socket is destroyed,
      // so an endless upstream answer costs at most this much memory.
      maxResponseSize: config.maxResponseBytes,
    });
  }

  async request(req: UpstreamRequest): Promise<UpstreamResponse> {
    if (!isSafeV2Path(req.path)) throw new V1Error(400, `refusing to build upstream path ${JSON.stringify(req.path)}`, "translation");
    if (req.deadline?.passed) throw req.deadline.error();
    const qs = req.query?.size ? "?" + req.query.toString() : "";
    const headers: Record<string, string> = { accept: "application/json", "x-request-id": req.requestId };
    if (req.authorization !== undefined) headers.authorization = req.authorization;
    if (req.userAgent) headers["user-agent"] = req.userAgent;
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers["content-type"] = "application/json";
    }
    this.config.onUpstreamRequest?.({ method: req.method, path: req.path + qs, headers: { ...headers }, body: payload });
    const started = performance.now();
    try {
      // Timeouts: connect, headers and body inactivity are each bounded by the configured timeout (Pool options).
      const res = await exchange(this.pool, { method: req.method, path: req.path + qs, headers, body: payload }, this.config.maxResponseBytes, req.deadline?.upstreamSignal);
      const text = res.text;
      const contentType = String(res.headers["content-type"] ?? "");
      let json: unknown;
      if (text.length) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
          if (res.status < 400 || /json/i.test(contentType)) {
            throw new V1Error(502, `upstream v2 API answered ${res.status} with a body that is not JSON`, "upstream");
          }
        }
      }
      return { status: res.status, headers: res.headers, json, text, contentType, durationMs: performance.now() - started };
    } catch (err) {
      if (req.deadline?.passed) throw req.deadline.error();
      throw toV1Error(err, this.config.timeoutMs, this.config.maxResponseBytes);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function tooLarge(limit: number): V1Error {
  return new V1Error(502, `upstream answer too large: more than ${limit} bytes (--max-response-bytes)`, "upstream");
}

/**
 * A failure before the request left the gateway (no connection): the upstream cannot have acted on
 * it. Every other failure of a sent request leaves its outcome unknown (see gateway/limits/lost-write.ts).
 */
export class UpstreamNotReached extends V1Error {}

/** Connection-level failures that happen before any request byte is written. */
const NOT_SENT_CODES = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|ERR_TLS_.*|CERT_.*|UNABLE_TO_.*|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)$/;

function toV1Error(err: unknown, timeoutMs: number, maxResponseBytes: number): V1Error {
  if (err instanceof V1Error) return err;
  if (err instanceof TooLarge) return tooLarge(maxResponseBytes);
  const e = err as { name?: string; code?: string; message?: string };
  if (err instanceof undiciErrors.ResponseExceededMaxSizeError || e?.code === "UND_ERR_RES_EXCEEDED_MAX_SIZE") {
    return tooLarge(maxResponseBytes);
  }
  const code = e?.code ? ` (${e.code})` : "";
  if (err instanceof undiciErrors.ConnectTimeoutError || e?.code === "UND_ERR_CONNECT_TIMEOUT") {
    return new UpstreamNotReached(504, `upstream v2 API did not accept a connection within the connect timeout${code}`, "upstream");
  }
  if (e?.code && NOT_SENT_CODES.test(e.code)) return new UpstreamNotReached(502, `upstream v2 API is unreachable${code}`, "upstream");
  const timedOut =
    e?.name === "TimeoutError" ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError;
  if (timedOut) return new V1Error(504, `upstream v2 API did not answer within ${timeoutMs} ms`, "upstream");
  return new V1Error(502, `upstream v2 API is unreachable or closed the connection${code}`, "upstream");
}
