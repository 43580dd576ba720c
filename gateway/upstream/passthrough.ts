// /v2/* pass-through for half-migrated fleets: method, path, query, headers and body go to the
// upstream unchanged, and the answer comes back unchanged. Streaming via http-proxy (no buffering:
// v2 log streams work too). Paths that could climb out of /v2/ are refused before proxying.
// Plain requests reach `serve` straight from the listener (gateway/upstream/front-door.ts); the rest, and
// everything during a drain, through the Fastify routes registered here.
import http from "node:http";
import https from "node:https";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import httpProxy from "http-proxy";
import type { GatewayConfig } from "../config.ts";
import type { GatewayMetrics } from "../observability/metrics.ts";
import { clientAskedClose, hopByHopHeaders } from "./hop-by-hop.ts";
import { answeredLog, whenAnswered } from "../observability/logging.ts";
import { IdleTimeouts } from "./idle-timeout.ts";
import { isSafePassthroughUrl } from "./path-safety.ts";
import { requestIdOf } from "../observability/request-id.ts";

const PROBLEM = "application/problem+json";

/** The request id a pass-through request carries upstream. */
const REQUEST_ID = Symbol("v2-bridge request id");
type IdentifiedRequest = http.IncomingMessage & { [REQUEST_ID]?: string };
/** http-proxy's `web(req, res, [options,] callback)` forms, which its types leave out. */
type ProxyWithCallback = {
  web(req: http.IncomingMessage, res: http.ServerResponse, callback: (err: Error) => void): void;
  web(req: http.IncomingMessage, res: http.ServerResponse, options: { proxyTimeout: number }, callback: (err: Error) => void): void;
};

function problem(res: http.ServerResponse, status: number, detail: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ title: http.STATUS_CODES[status] ?? "Error", status, detail });
  res.writeHead(status, { "content-type": PROBLEM, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export interface Passthrough {
  /**
   * Proxies one request whose target `isSafePassthroughUrl` accepted: sets X-Request-Id on the
   * answer and the upstream request, and answers a problem (502, 504 past the timeout) when the
   * upstream fails. `warn` logs that failure. The caller counts the answer when it is sent
   * (`metrics.countPassthrough`), on a 'finish' listener it has anyway.
   */
  serve(req: http.IncomingMessage, res: http.ServerResponse, id: string, warn: (fields: object, message: string) => void): void;
  close(): void;
}

export function createPassthrough(config: GatewayConfig, drain: { active: boolean }): Passthrough {
  const secure = config.upstream.protocol === "https:";
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: config.connections })
    : new http.Agent({ keepAlive: true, maxSockets: config.connections });
  const proxy = httpProxy.createProxyServer({
    target: config.upstream.origin,
    changeOrigin: true,
    agent,
    // No proxyTimeout: IdleTimeouts times the upstream requests (idle-timeout.ts has why).
    secure: true,
  });
  const timeouts = new IdleTimeouts(agent, config.timeoutMs);
  // Errors are answered per request (callback below); this keeps an unhandled 'error' from crashing.
  proxy.on("error", () => {});
  // Hop-by-hop headers stay on their own connection, both ways. The request's are removed before
  // http-proxy sends it (the agent sets its own Connection); the answer's before http-proxy copies
  // them, and Connection is then set for the client's connection only.
  proxy.on("proxyReq", (proxyReq, req, res) => {
    // http-proxy copied the client's headers: only those can be there to remove.
    for (const name of hopByHopHeaders(req.headers)) if (req.headers[name] !== undefined) proxyReq.removeHeader(name);
    proxyReq.setHeader("x-request-id", (req as IdentifiedRequest)[REQUEST_ID]!);
    timeouts.watch(proxyReq, res);
  });
  proxy.on("proxyRes", (proxyRes, req) => {
    // Blanked, not deleted (http-proxy copies no undefined header): a delete would turn the headers
    // object into a slow dictionary for the copy that follows.
    const headers = proxyRes.headers;
    for (const name of hopByHopHeaders(headers)) if (headers[name] !== undefined) headers[name] = undefined;
    // Draining: the client connection closes after this answer.
    proxyRes.headers.connection = drain.active || clientAskedClose(req.httpVersion, req.headers) ? "close" : "keep-alive";
  });
  return {
    serve(req, res, id, warn) {
      const started = Date.now();
      res.setHeader("x-request-id", id);
      (req as IdentifiedRequest)[REQUEST_ID] = id;
      // No per-request options: with them http-proxy copies its options and parses the target URL
      // again on every request; the request id goes on in the proxyReq listener instead.
      const failed = (err: Error) => {
        const timedOut = Date.now() - started >= config.timeoutMs - 5;
        warn({ err: (err as Error)?.message }, "v2 pass-through failed");
        problem(res, timedOut ? 504 : 502, timedOut ? `upstream did not answer within ${config.timeoutMs} ms` : "upstream v2 API is unreachable or closed the connection");
      };
      // http-proxy emits no proxyReq event for a request with Expect: such a request (rare) is timed by http-proxy itself.
      if (req.headers.expect !== undefined) (proxy as unknown as ProxyWithCallback).web(req, res, { proxyTimeout: config.timeoutMs }, failed);
      else (proxy as unknown as ProxyWithCallback).web(req, res, failed);
    },
    close() {
      timeouts.close();
      proxy.close();
      agent.destroy();
    },
  };
}

/** The Fastify routes for /v2 and /v2/*: what the listener does not serve itself, with the same `serve`. */
export function registerPassthrough(app: FastifyInstance, passthrough: Passthrough, metrics: GatewayMetrics): void {
  app.register(async (scope) => {
    // Leave the body stream untouched for the proxy.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));

    const handler = async (req: import("fastify").FastifyRequest, reply: import("fastify").FastifyReply) => {
      const url = req.raw.url ?? "/";
      if (!isSafePassthroughUrl(url)) {
        reply.code(400).type(PROBLEM);
        metrics.countPassthrough(400);
        return reply.send(JSON.stringify({ title: "Bad Request", status: 400, detail: "path must stay under /v2/ (no dot-segments, encoded slashes or backslashes)" }));
      }
      reply.hijack();
      const res = reply.raw;
      res.on("finish", () => metrics.countPassthrough(res.statusCode));
      passthrough.serve(req.raw, reply.raw, String(req.id), (fields, message) => req.log.warn(fields, message));
    };
    scope.route({ method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"], url: "/v2", handler });
    scope.route({ method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"], url: "/v2/*", handler });
  });
}

/** `serve` for the requests the listener routes ahead of Fastify: its own request id and log line, as Fastify would give them. */
export function passthroughAheadOfFastify(passthrough: Passthrough, log: FastifyBaseLogger, metrics: GatewayMetrics): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const logAnswered = answeredLog(log);
  return (req, res) => {
    const started = performance.now();
    const id = requestIdOf(req);
    // One listener pair for the count and the log line.
    whenAnswered(res, log, (err) => {
      if (err === undefined) metrics.countPassthrough(res.statusCode);
      logAnswered(id, req, res.statusCode, performance.now() - started, err);
    });
    passthrough.serve(req, res, id, (fields, message) => log.warn({ reqId: id, ...fields }, message));
  };
}
