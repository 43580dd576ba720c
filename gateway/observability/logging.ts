// Gateway logging (pino via Fastify): what is logged, where it goes, and what never is.
// One line per request instead of Fastify's two (docs/performance.md has the costs). Lines go to
// pino's default stdout destination (SonicBoom, asynchronous writes; pino flushes it on exit):
// a synchronous destination measured the same CPU per request, so the default stays.
import type { FastifyReply, FastifyRequest } from "fastify";
import { LogController } from "fastify";
import type { GatewayConfig } from "../config.ts";
import { redactText, serializeRequestForLog } from "./redact.ts";

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

/** Fastify `logger` option: `true` is info level to stdout; an options object is used as given (plus redaction). */
export function loggerOption(logger: GatewayConfig["logger"]): boolean | Record<string, unknown> {
  if (logger === false) return false;
  const base = logger === true ? { level: "info" } : logger;
  const serializers = { req: serializeRequestForLog, err: serializeError, ...((base as { serializers?: object }).serializers ?? {}) };
  return { ...base, serializers, redact: { paths: LOG_REDACT, censor: "[redacted]" } };
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
