// The public listener's first look at a request: the /v2 pass-through and the translated /v1 routes,
// in their everyday shape, are served straight from Node's 'request' event, without Fastify's
// per-request lifecycle (request and reply objects, a child logger, hooks, content-type parsing):
// that costs more CPU than the translation itself (docs/performance.md). Anything out of the
// ordinary goes to Fastify, whose routes for /v1 and /v2 stay registered and answer it exactly as
// before: paths with percent-escapes, dot-segments or other characters, HEAD and OPTIONS, unusual
// content types or framing, v1 bodies over the limit, and every request once a drain has begun
// (Fastify then answers 503 and closes).
import type http from "node:http";
import { isSafePassthroughUrl } from "./path-safety.ts";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FrontRoutes {
  v1: Handler;
  v2: Handler;
  /** --body-limit: a v1 body declared larger than this is Fastify's to refuse (413). */
  bodyLimit: number;
  /** True from the start of a drain. */
  draining(): boolean;
  /** A handler threw (a bug): Fastify would have answered a 500; so must this. */
  failed(err: unknown, req: http.IncomingMessage, res: http.ServerResponse): void;
}

const SERVED_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** /v1 or /v2, then segments of unreserved characters (no ".", "..", empty segment, escape or other character), maybe a trailing slash. */
const PLAIN_PATH = /^\/v[12](?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~]+)*\/?$/;

/** Request content types Fastify accepts as they are (compared lower-cased). */
const PLAIN_CONTENT_TYPES = new Set(["application/json", "application/json; charset=utf-8", "application/json;charset=utf-8", "text/plain", "text/plain; charset=utf-8", "text/plain;charset=utf-8"]);

const DIGITS = /^\d{1,15}$/;

/** Which route serves this request ahead of Fastify, or null for Fastify's own routing. */
export function frontRouteOf(req: http.IncomingMessage, bodyLimit: number): "v1" | "v2" | null {
  const url = req.url ?? "";
  // "/v1" or "/v2" followed by the end, "/" or "?"
  if (url.charCodeAt(0) !== 47 || url.charCodeAt(1) !== 118) return null;
  const version = url.charCodeAt(2) === 49 ? "v1" : url.charCodeAt(2) === 50 ? "v2" : null;
  if (version === null || !SERVED_METHODS.has(req.method!)) return null;
  const q = url.indexOf("?");
  if (!PLAIN_PATH.test(q === -1 ? url : url.slice(0, q))) return null;
  // Implied by the plain path; checked by the one module that owns the rule all the same.
  if (version === "v2" && !isSafePassthroughUrl(url)) return null;
  const headers = req.headers;
  const length = headers["content-length"];
  const chunked = headers["transfer-encoding"] !== undefined;
  if (req.method === "GET") {
    // Fastify reads no GET body; the pass-through streams one, a v1 GET with one is Fastify's 400.
    return version === "v2" || (!chunked && (length === undefined || length === "0")) ? version : null;
  }
  const type = headers["content-type"];
  if (type === undefined) return !chunked && (length === undefined || length === "0") ? version : null;
  if (!PLAIN_CONTENT_TYPES.has(type.toLowerCase())) return null;
  if (version === "v2") return version;
  return !chunked && (length === undefined || (DIGITS.test(length) && Number(length) <= bodyLimit)) ? version : null;
}

/**
 * Puts `routes` in front of Fastify's request handler (`app.routing`, which Fastify passed to
 * http.createServer) on `server`: that handler is replaced where it stands and called for
 * everything else. Other 'request' listeners (the drain's socket tracker) stay, in their order, and
 * see every request, front door or not. Fastify still creates, configures, binds and closes the
 * server, so timeouts, extra bindings and drain are unchanged. Listeners added later still run, after these.
 */
export function serveAheadOfFastify(server: http.Server, fastifyHandler: Handler, routes: FrontRoutes): void {
  const listeners = server.listeners("request") as Handler[];
  if (!listeners.includes(fastifyHandler)) throw new Error("Fastify's request handler is not a 'request' listener of this server");
  const front: Handler = (req, res) => {
    const route = frontRouteOf(req, routes.bodyLimit);
    if (route === null || routes.draining()) return fastifyHandler(req, res);
    try {
      if (route === "v2") routes.v2(req, res);
      else routes.v1(req, res);
    } catch (err) {
      routes.failed(err, req, res);
    }
  };
  // One listener calling the others in their order: an event with several listeners costs Node a
  // copy of the listener array on every request.
  const chain = listeners.map((listener) => (listener === fastifyHandler ? front : listener));
  const others = chain.slice(0, -1);
  const last = chain.at(-1)!;
  server.removeAllListeners("request");
  server.on(
    "request",
    others.length === 0
      ? last
      : function (this: http.Server, req: http.IncomingMessage, res: http.ServerResponse) {
          for (const listener of others) listener.call(this, req, res);
          last.call(this, req, res);
        },
  );
}
