// The "request completed" line of the requests served ahead of Fastify, written without pino's
// per-call machinery (the merge of serializers, stringifiers and hooks, a safe stringify of each
// nested object): that cost ~11 µs a request, several times the line itself (docs/performance.md).
// The line is the one pino would write, field for field and in pino's order, through pino's own
// level label, time, bindings and destination. Used only where the result cannot differ: a logger
// with the gateway's own serializers and no formatter, mixin, hook, message prefix, custom key,
// stringifier or multistream; otherwise, and for the rare "request errored" line, pino writes it.
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { serializeRequestForLog } from "./redact.ts";

/** Writes one "request completed" line, or returns false when pino must (level off, or a tracer listening). */
export type RequestLine = (reqId: string, req: IncomingMessage, statusCode: number, responseTime: number) => boolean;

/** pino's asJson tracing channel: with a subscriber, every line goes through pino so the tracer sees it. */
const asJsonTrace = diagnostics.channel("tracing:pino_asJson:start");

const INFO = 30;

/** pino keeps its state under module-private symbols; they are found by description on the instance or its prototypes. */
function pinoSymbols(log: object): Map<string, symbol> {
  const out = new Map<string, symbol>();
  for (let o: object | null = log; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const s of Object.getOwnPropertySymbols(o)) if (s.description && !out.has(s.description)) out.set(s.description, s);
  }
  return out;
}

const str = JSON.stringify;

/** The fast writer for `log`, or null when its output could differ from pino's. */
export function requestLineWriter(log: FastifyBaseLogger): RequestLine | null {
  const symbols = pinoSymbols(log);
  const read = (name: string): any => {
    const s = symbols.get(name);
    return s === undefined ? undefined : (log as any)[s];
  };
  const serializers = read("pino.serializers");
  const formatters = read("pino.formatters");
  const hooks = read("pino.hooks");
  const stringifiers = read("pino.stringifiers");
  const stream = read("pino.stream");
  const lsCache = read("pino.lsCache");
  const end = read("pino.end");
  const timeKey = symbols.get("pino.time");
  const chindingsKey = symbols.get("pino.chindings");
  if (!serializers || !formatters || !hooks || !stringifiers || !stream || !lsCache || typeof end !== "string" || !timeKey || !chindingsKey) return null;
  if (serializers.req !== serializeRequestForLog || serializers.reqId || serializers.responseTime || serializers.msg) return null;
  // Fastify's own `res` serializer keeps the status code only; anything else goes through pino.
  if (serializers.res && str(serializers.res({ statusCode: 299 })) !== '{"statusCode":299}') return null;
  if (formatters.log || hooks.logMethod || hooks.streamWrite || read("pino.mixin") || read("pino.msgPrefix") || read("pino.nestedKey")) return null;
  if (read("pino.messageKey") !== "msg" || Object.getOwnPropertySymbols(stringifiers).some((k) => k.description === "pino.wildcardFirst") || ["reqId", "req", "res", "responseTime", "msg"].some((k) => stringifiers[k])) return null;
  // A multistream wants each line's level and object beside it.
  if (stream[Symbol.for("pino.metadata")] === true) return null;
  if (typeof stream.write !== "function" || typeof lsCache[INFO] !== "string" || typeof (log as any).isLevelEnabled !== "function") return null;
  const head = lsCache[INFO] as string;
  const tail = ',"msg":"request completed"' + end;
  const l = log as any;

  return (reqId, req, statusCode, responseTime) => {
    if (!l.isLevelEnabled("info") || asJsonTrace.hasSubscribers) return false;
    const r = serializeRequestForLog({ method: req.method, url: req.url, headers: req.headers, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket });
    let line = head + l[timeKey]() + l[chindingsKey] + ',"reqId":' + str(reqId) + ',"req":' + str(r);
    line += ',"res":{"statusCode":' + str(statusCode) + '},"responseTime":' + (Number.isFinite(responseTime) ? responseTime : null) + tail;
    stream.write(line);
    return true;
  };
}
