// A short, finite server-sent-events log stream (pod and worker logs), as the v2 document
// describes: every event has an `id:` line (a timestamp cursor) and a JSON `data:` payload with
// `source`, `line` and `ts`.
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

export type LogLine = { source: "container" | "system"; line: string };

export function sendLogStream(reply: FastifyReply, lines: LogLine[], query: { source?: unknown; tail?: unknown }, now = Date.now()): FastifyReply {
  const source = typeof query.source === "string" ? query.source : undefined;
  const tail = query.tail === undefined ? 100 : Number(query.tail);
  let selected = lines.filter((l) => !source || l.source === source);
  selected = Number.isFinite(tail) ? (tail <= 0 ? [] : selected.slice(-tail)) : selected;
  const base = now - selected.length * 1000;
  const events = selected.map((l, i) => {
    const ts = new Date(base + i * 1000).toISOString();
    return `id: ${ts}\ndata: ${JSON.stringify({ source: l.source, line: l.line, ts })}\n\n`;
  });
  reply
    .code(200)
    .type("text/event-stream")
    .header("cache-control", "no-cache")
    .header("x-accel-buffering", "no");
  return reply.send(Readable.from(events.length ? events : [": no log lines\n\n"]));
}
