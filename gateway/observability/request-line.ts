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
import { redactRequestUrl, serializeRequestForLog } from "./redact.ts";

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

/**
 * `JSON.stringify(serializeRequestForLog(…))` of a request, written field by field: the object and
 * the generic stringify of it were a fifth of the line's time in place (docs/performance.md, session 34).
 * Same keys in the same order, an undefined one left out as JSON.stringify leaves it out; a value of
 * another type than the request's own (a string, a port number) goes through the object as before.
 */
function requestJson(req: IncomingMessage): string {
  const headers = req.headers;
  const socket = req.socket;
  const method = req.method;
  const host = headers.host;
  const ip = socket.remoteAddress;
  const port = socket.remotePort;
  if (typeof method !== "string" || (host !== undefined && typeof host !== "string") || (ip !== undefined && typeof ip !== "string") || (port !== undefined && typeof port !== "number")) {
    return str(serializeRequestForLog({ method, url: req.url, headers, host, ip, socket }));
  }
  const url = req.url ?? "";
  let out = '{"method":' + str(method) + ',"url":' + str(redactRequestUrl(url, headers));
  if (host !== undefined) out += ',"host":' + str(host);
  if (ip !== undefined) out += ',"remoteAddress":' + str(ip);
  if (port !== undefined) out += ',"remotePort":' + str(port);
  return out + "}";
}

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
    let line = head + l[timeKey]() + l[chindingsKey] + ',"reqId":' + str(reqId) + ',"req":' + requestJson(req);
    line += ',"res":{"statusCode":' + str(statusCode) + '},"responseTime":' + (Number.isFinite(responseTime) ? responseTime : null) + tail;
    stream.write(line);
    return true;
  };
}
