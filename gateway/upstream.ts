// How the gateway talks to its upstream for translated calls: one undici Pool bound to the
// configured origin. Paths are built by the gateway (always `/v2/...`, parameters re-encoded) and
// checked again here, so no v1 input can steer a request anywhere else.
import { Pool, errors as undiciErrors } from "undici";
import type { GatewayConfig } from "./config.ts";
import { V1Error } from "./v1-errors.ts";
import { isSafeV2Path } from "./path-safety.ts";

export interface UpstreamRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  /** Path under the origin, always starting with /v2/ (no query string). */
  path: string;
  query?: URLSearchParams;
  authorization?: string;
  requestId: string;
  userAgent?: string;
  body?: unknown;
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

/** Most a single upstream answer may weigh before the gateway gives up on it. */
const MAX_RESPONSE_BYTES = 32 * 1_048_576;

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
    });
  }

  async request(req: UpstreamRequest): Promise<UpstreamResponse> {
    if (!isSafeV2Path(req.path)) throw new V1Error(400, `refusing to build upstream path ${JSON.stringify(req.path)}`, "translation");
    const qs = req.query && [...req.query.keys()].length ? "?" + req.query.toString() : "";
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
      const res = await this.pool.request({ method: req.method, path: req.path + qs, headers, body: payload });
      const declared = Number(res.headers["content-length"] ?? 0);
      if (declared > MAX_RESPONSE_BYTES) {
        res.body.destroy();
        throw new V1Error(502, "upstream v2 answer is too large", "upstream");
      }
      const text = await res.body.text();
      if (text.length > MAX_RESPONSE_BYTES) throw new V1Error(502, "upstream v2 answer is too large", "upstream");
      const contentType = String(res.headers["content-type"] ?? "");
      let json: unknown;
      if (text.length) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
          if (res.statusCode < 400 || /json/i.test(contentType)) {
            throw new V1Error(502, `upstream v2 API answered ${res.statusCode} with a body that is not JSON`, "upstream");
          }
        }
      }
      return { status: res.statusCode, headers: res.headers, json, text, contentType, durationMs: performance.now() - started };
    } catch (err) {
      throw toV1Error(err, this.config.timeoutMs);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function toV1Error(err: unknown, timeoutMs: number): V1Error {
  if (err instanceof V1Error) return err;
  const e = err as { name?: string; code?: string; message?: string };
  const timedOut =
    e?.name === "TimeoutError" ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError ||
    e?.code === "UND_ERR_CONNECT_TIMEOUT";
  if (timedOut) return new V1Error(504, `upstream v2 API did not answer within ${timeoutMs} ms`, "upstream");
  const code = e?.code ? ` (${e.code})` : "";
  return new V1Error(502, `upstream v2 API is unreachable or closed the connection${code}`, "upstream");
}
