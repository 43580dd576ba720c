// The translated /v1 routes served straight from the listener (gateway/upstream/front-door.ts picks the
// requests): the same handler as the Fastify route in v1-route.ts, and the same answer on the
// wire: headers (lower-case, in the order Fastify sets them), v1 errors, Connection: close while
// draining, usage and metrics counted, and one log line, once the answer is sent.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { answeredLog, whenAnswered } from "../observability/logging.ts";
import { requestIdOf } from "../observability/request-id.ts";
import { answerPayload, type V1Exchange } from "./v1-exchange.ts";
import { v1ErrorText } from "./v1-errors.ts";
import type { V1Routes } from "./v1-route.ts";
import type { UsageOperationRef } from "../usage/usage.ts";

const JSON_TYPE = "application/json; charset=utf-8";

class RawExchange implements V1Exchange {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  body: Buffer | undefined = undefined;
  operation?: UsageOperationRef;
  dropped?: string[];
  lostDrops?: readonly string[];

  constructor(
    req: IncomingMessage,
    readonly id: string,
    /** Answer headers by lower-case name, in the order they were set. */
    readonly answerHeaders: Record<string, string>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.method = req.method!;
    this.url = req.url ?? "/";
    this.headers = req.headers;
  }

  header(name: string, value: string): void {
    this.answerHeaders[name.toLowerCase()] = value;
  }

  // A child logger per request (what Fastify makes) costs more than these two lines ever do.
  warn(fields: object, message: string): void {
    this.log.warn({ reqId: this.id, ...fields }, message);
  }

  error(fields: object, message: string): void {
    this.log.error({ reqId: this.id, ...fields }, message);
  }
}

/** Fastify adds a charset to JSON types that lack one; the answers here always carry one, but keep the rule. */
function withCharset(type: string): string {
  if (type === JSON_TYPE) return type;
  return type.includes("json") && !/charset=/i.test(type) ? `${type.trim().replace(/;\s*$/, "")}; charset=utf-8` : type;
}

export function createV1Fast(routes: V1Routes, log: FastifyBaseLogger, drain: { active: boolean }): (req: IncomingMessage, res: ServerResponse) => void {
  const logAnswered = answeredLog(log);
  const fixed = Object.entries(routes.fixedHeaders).map(([name, value]) => [name.toLowerCase(), value] as const);

  function send(res: ServerResponse, ex: RawExchange, status: number, contentType: string | undefined, payload: string | undefined): void {
    const headers = ex.answerHeaders;
    if (payload === undefined) {
      // As Fastify: an empty answer says so, except where HTTP forbids a length.
      if (status >= 200 && status !== 204 && status !== 304) headers["content-length"] = "0";
    } else if (status === 204 || status < 200) {
      payload = undefined;
    } else {
      headers["content-type"] = withCharset(contentType ?? "text/plain; charset=utf-8");
    }
    if (drain.active) headers.connection = "close";
    if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
    try {
      res.writeHead(status, headers);
    } catch (err) {
      // A header value Node refuses: the answer becomes a logged 500 without the answer's own headers.
      const failed = routes.failure(err, ex);
      payload = v1ErrorText(ex.headers, ex.url, failed.message);
      res.writeHead(failed.status, { "x-request-id": ex.id, "content-type": JSON_TYPE, "content-length": String(Buffer.byteLength(payload)) });
    }
    res.end(payload);
  }

  function fail(res: ServerResponse, ex: RawExchange, error: unknown): void {
    const failed = routes.failure(error, ex);
    send(res, ex, failed.status, JSON_TYPE, v1ErrorText(ex.headers, ex.url, failed.message));
  }

  function handle(res: ServerResponse, ex: RawExchange): void {
    routes
      .handle(ex)
      .then(
        (answer) => {
          const { contentType, payload } = answerPayload(answer);
          send(res, ex, answer.status, contentType, payload);
        },
        (error) => fail(res, ex, error),
      )
      // Sending the answer threw (a bug): the failure answer, as Fastify's error handler gives it; a
      // rejection left unhandled here would end the process.
      .catch((error) => {
        if (res.headersSent) return void res.destroy(error);
        try {
          fail(res, ex, error);
        } catch (last) {
          log.error({ reqId: ex.id, err: last }, "gateway error");
          res.destroy();
        }
      });
  }

  return (req, res) => {
    const started = performance.now();
    const id = requestIdOf(req);
    const answerHeaders: Record<string, string> = { "x-request-id": id };
    for (const [name, value] of fixed) answerHeaders[name] = value;
    const ex = new RawExchange(req, id, answerHeaders, log);
    whenAnswered(res, log, (err) => {
      routes.answered(ex, res.statusCode);
      logAnswered(id, req, res.statusCode, performance.now() - started, err);
    });
    // As Fastify: a body is read when it has a content type (gateway/upstream/front-door.ts let through only
    // plain ones, within the size limit); without one there is none.
    if (req.method === "GET" || req.headers["content-type"] === undefined) return handle(res, ex);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      ex.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      handle(res, ex);
    });
    // A broken upload is a 400, as Fastify's body reader answers it.
    req.on("error", (err: Error & { statusCode?: number }) => fail(res, ex, { statusCode: typeof err.statusCode === "number" && err.statusCode >= 400 ? err.statusCode : 400, message: err.message, code: (err as { code?: string }).code }));
  };
}
