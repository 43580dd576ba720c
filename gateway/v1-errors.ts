// v1-format errors: every error a v1 client sees is `{"message": "..."}` with a plain status.
import type { FastifyReply } from "fastify";
import { isProblem, problemToV1Message } from "../mappings/index.ts";

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

export function sendV1Error(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send(JSON.stringify({ message }));
}

/** A v2 error answer (problem+json, or anything else) → v1 status and message. */
export function v1ErrorFromUpstream(status: number, body: unknown, rawText: string): { status: number; message: string } {
  let message: string;
  if (isProblem(body)) message = problemToV1Message(body, status).message;
  else if (body && typeof body === "object" && typeof (body as any).message === "string") message = (body as any).message;
  else message = rawText.trim() ? `upstream error ${status}` : `upstream answered ${status} without a body`;
  if (status >= 500) {
    // A broken upstream is the gateway's problem to report: 502 (504 when the upstream itself timed out).
    return { status: status === 504 ? 504 : 502, message: `upstream v2 API failed (${status}): ${message}` };
  }
  return { status, message };
}
