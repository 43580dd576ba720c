// v1-format errors: every error a v1 client sees is `{"message": "..."}` with a plain status.
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyReply } from "fastify";
import { isProblem, problemToV1Message } from "../../mappings/index.ts";
import { redactText, secretsOf } from "../observability/redact.ts";

/** An error the v1 route turns into a v1 answer. `kind` labels the translation-error metric. */
export class V1Error extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind: "client" | "upstream" | "translation" = "client",
  ) {
    super(message);
  }
}

/** Sends `{"message"}`; the message never carries the request's credentials (an echoed path or upstream text may). */
export function sendV1Error(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send(v1ErrorText(reply.request.headers, reply.request.raw.url, message));
}

/** The `{"message"}` body of a v1 error, redacted against the request's credentials. */
export function v1ErrorText(headers: IncomingHttpHeaders, url: string | undefined, message: string): string {
  return JSON.stringify({ message: redactText(message, secretsOf(headers, url)) });
}

/**
 * A failed v2 answer (problem+json, or anything else) as the v1 error to throw. `context` prefixes
 * the message; `kind` defaults to "upstream" for a broken upstream and "client" for a 4xx.
 */
export function upstreamError(res: { status: number; json?: unknown; text: string }, context = "", kind?: V1Error["kind"]): V1Error {
  const e = v1StatusAndMessage(res.status, res.json, res.text);
  return new V1Error(e.status, context ? `${context}: ${e.message}` : e.message, kind ?? (e.status >= 500 ? "upstream" : "client"));
}

function v1StatusAndMessage(status: number, body: unknown, rawText: string): { status: number; message: string } {
  let message: string;
  if (isProblem(body)) message = problemToV1Message(body, status).message;
  else if (body && typeof body === "object" && typeof (body as any).message === "string") message = (body as any).message;
  else message = rawText.trim() ? `upstream error ${status}` : `upstream answered ${status} without a body`;
  // v1 documents no 422: its validation failures are 400s. v2's 422 (the body or parameters do not
  // match the contract) reaches a v1 client as that 400, on every v1 operation, lens or not.
  if (status === 422) return { status: 400, message };
  if (status >= 500) {
    // A broken upstream is the gateway's problem to report: 502 (504 when the upstream itself timed out).
    return { status: status === 504 ? 504 : 502, message: `upstream v2 API failed (${status}): ${message}` };
  }
  return { status, message };
}
