// One v1 request as the translating handler sees it, whichever server delivered it: Fastify's
// route (gateway/translation/v1-route.ts) or the plain listener ahead of Fastify (gateway/translation/v1-fast.ts). The
// handler reads the request and sets answer headers through this; both servers send the answer it
// returns, and count it, the same way.
import type { IncomingHttpHeaders } from "node:http";
import type { V1Answer } from "./translate-response.ts";
import type { UsageOperationRef } from "../usage/usage.ts";
import { V1Error } from "./v1-errors.ts";

export interface V1Exchange {
  readonly method: string;
  /** The raw request target (path and query). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body bytes, or undefined when the request had none. */
  readonly body: unknown;
  readonly id: string;
  /** Sets an answer header (kept by lower-case name, as Fastify does). */
  header(name: string, value: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  /** The matched operation, once known: what usage and metrics count. */
  operation?: UsageOperationRef;
  /** v1 inputs v2 dropped on this request (usage audit). */
  dropped?: string[];
  /** The answer fields this answer lacks (`answer.<field>`), counted after `dropped`: the table's own list, unredacted only when no secret of the request occurs in it. */
  lostDrops?: readonly string[];
}

/** What an answer puts on the wire: content type and text (none for an empty answer). */
export function answerPayload(answer: V1Answer): { contentType?: string; payload?: string } {
  if (answer.text !== undefined) return { contentType: answer.contentType ?? "text/plain; charset=utf-8", payload: answer.text };
  if (answer.json === undefined) return {};
  return { contentType: "application/json; charset=utf-8", payload: JSON.stringify(answer.json) };
}

/** Counts translation errors by operation and kind. */
export type CountError = (operation: string, kind: string) => void;

/**
 * The v1 error answer for anything the handler (or the server's body reading) threw: V1Errors as
 * they are, a framework's 4xx with its message, everything else a logged 500 naming the request id.
 */
export function failureAnswer(error: any, ex: Pick<V1Exchange, "id" | "operation" | "error">, bodyLimit: number, countError: CountError): { status: number; message: string } {
  const op = ex.operation?.key ?? "unmatched";
  if (error instanceof V1Error) {
    if (error.kind !== "client" || error.status >= 500) countError(op, error.kind);
    return { status: error.status, message: error.message };
  }
  const status = typeof error?.statusCode === "number" ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    const message = error?.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? `request body is larger than ${bodyLimit} bytes` : String(error?.message ?? "bad request");
    return { status, message };
  }
  ex.error({ err: error }, "v1 translation failed");
  countError(op, "translation");
  return { status: 500, message: `internal gateway error (request id ${ex.id})` };
}
