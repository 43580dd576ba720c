// Gateway logging (pino via Fastify): what is logged, where it goes, and what never is.
// Costs found under load (docs/performance.md): Fastify's default two lines per request, each a
// synchronous write to stdout. Now one line per request, written asynchronously: lines logged
// while a write is in flight go out together in the next write, so a busy gateway makes a few
// writes per many requests, while a quiet one still writes every line at once. pino flushes what
// is buffered when the process exits (not on SIGKILL).
import type { FastifyReply, FastifyRequest } from "fastify";
import { LogController } from "fastify";
import pino from "pino";
import type { GatewayConfig } from "./config.ts";

/** Secrets never reach the logs. */
export const LOG_REDACT = ["req.headers.authorization", "req.headers.cookie", "req.headers[\"proxy-authorization\"]", "headers.authorization", "authorization"];

/** Fastify `logger` option: `true` is info level to stdout (async); an options object is used as given (plus redaction). */
export function loggerOption(logger: GatewayConfig["logger"]): boolean | Record<string, unknown> {
  if (logger === false) return false;
  const base = logger === true ? { level: "info", stream: pino.destination({ dest: 1, sync: false }) } : logger;
  return { ...base, redact: { paths: LOG_REDACT, censor: "[redacted]" } };
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
