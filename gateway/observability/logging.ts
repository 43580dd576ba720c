// Gateway logging (pino via Fastify): what is logged, where it goes, and what never is.
// One line per request instead of Fastify's two (docs/performance.md has the costs). With --log,
// lines go to stdout in batches (log-stdout.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { LogController } from "fastify";
import { BatchedStdout } from "./log-stdout.ts";
import type { GatewayConfig } from "../config.ts";
import { redactText, serializeRequestForLog } from "./redact.ts";
import { requestLineWriter } from "./request-line.ts";

/** Secrets never reach the logs: these header paths are censored, and URLs and error texts are scrubbed by the serializers below. */
export const LOG_REDACT = [
  "req.headers.authorization",
  "req.headers.cookie",
  "req.headers[\"proxy-authorization\"]",
  "req.headers[\"x-api-key\"]",
  "headers.authorization",
  "authorization",
];

/** Errors as logged: message and stack with key-shaped strings cut (a Fastify URL error quotes the path). */
function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { code?: unknown; statusCode?: unknown };
  return { type: e.name, message: redactText(e.message), stack: redactText(e.stack ?? ""), code: e.code, statusCode: e.statusCode };
}

/** stdout for `logger: true` (the CLI's --log), one per process: the public and admin listeners share it. */
let stdout: BatchedStdout | undefined;

/** Fastify `logger` option: `true` is info level to stdout; an options object is used as given (plus redaction). */
export function loggerOption(logger: GatewayConfig["logger"]): boolean | Record<string, unknown> {
  if (logger === false) return false;
  const base = logger === true ? { level: "info", stream: (stdout ??= new BatchedStdout()) } : logger;
  const own = (base as { serializers?: Record<string, unknown> }).serializers ?? {};
  const serializers = { req: serializeRequestForLog, err: serializeError, ...own };
  // Our `req` serializer writes no headers, so the req.headers paths can never match; left out they
  // spare every request line a redaction pass (a third of its cost). Kept for a serializer of the caller's.
  const paths = own.req ? LOG_REDACT : LOG_REDACT.filter((p) => !p.startsWith("req."));
  return { ...base, serializers, redact: { paths, censor: "[redacted]" } };
}

/** The completion line carries the request too, so the "incoming request" line adds no facts. Other Fastify logs (errors, 404s) are unchanged. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}

/**
 * For requests served ahead of Fastify (gateway/upstream/front-door.ts): calls `done` once, when the answer
 * has been handed to the socket ('finish') or the response failed ('error'), as Fastify's onResponse
 * does. The 'error' listener also keeps a failed response from becoming an uncaught exception, and
 * stays for an error after the answer (a flag, not two removeListener calls a request, makes it once).
 */
export function whenAnswered(res: ServerResponse, log: FastifyBaseLogger, done: (err?: Error) => void): void {
  let settled = false;
  const once = (err?: Error) => {
    if (settled) return;
    settled = true;
    // As Fastify treats a throwing onResponse hook: logged, never an uncaught exception.
    try {
      done(err);
    } catch (failure) {
      log.error({ err: failure }, "gateway error");
    }
  };
  res.on("finish", once);
  res.on("error", once);
}

/** Logs a request served ahead of Fastify: its one line, with the same fields OneLinePerRequest writes for Fastify's routes. */
export type AnsweredLog = (reqId: string, req: IncomingMessage, statusCode: number, responseTime: number, err?: Error) => void;

export function answeredLog(log: FastifyBaseLogger): AnsweredLog {
  const fast = requestLineWriter(log);
  return (reqId, req, statusCode, responseTime, err) => {
    if (!err && fast?.(reqId, req, statusCode, responseTime)) return;
    const request = { method: req.method, url: req.url, headers: req.headers, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket };
    if (err) log.error({ reqId, req: request, res: { statusCode }, err, responseTime }, "request errored");
    else log.info({ reqId, req: request, res: { statusCode }, responseTime }, "request completed");
  };
}
