// Request ids: the client's own X-Request-Id when it is a plain token, otherwise a fresh UUID.
// One rule for Fastify's genReqId and for the routes served ahead of Fastify (gateway/upstream/front-door.ts).
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
