// RFC 9457 problem details in v2's ErrorResponse shape: { title, status, detail, errors? }.
import { STATUS_CODES } from "node:http";
import type { FastifyReply } from "fastify";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export type Problem = { title: string; status: number; detail: string; errors?: string[] };

export function problem(status: number, detail: string, errors?: string[]): Problem {
  const body: Problem = { title: STATUS_CODES[status] ?? "Error", status, detail };
  if (errors && errors.length) body.errors = errors;
  return body;
}

/** Thrown by handlers and helpers; the server's error handler turns it into a problem response. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: string[],
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, errors?: string[]) => new ProblemError(400, detail, errors);
export const notFound = (detail = "resource not found") => new ProblemError(404, detail);
export const conflict = (detail: string) => new ProblemError(409, detail);
export const unprocessable = (detail: string, errors?: string[]) => new ProblemError(422, detail, errors);

export function sendProblem(reply: FastifyReply, status: number, detail: string, errors?: string[]): FastifyReply {
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem(status, detail, errors)));
}
