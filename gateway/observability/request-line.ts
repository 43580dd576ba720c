// The "request completed" line of the requests served ahead of Fastify, written without pino's
// per-call machinery (the merge of serializers, stringifiers and hooks, a safe stringify of each
// nested object): that cost ~11 µs a request, several times the line itself (docs/performance.md).
// The line is the one pino would write, field for field and in pino's order, through pino's own
// level label, time, bindings and destination. Used only where the result cannot differ: a logger
// with the gateway's own serializers and no formatter, mixin, hook, message prefix, custom key,
// stringifier or multistream; otherwise, and for the rare "request errored" line, pino writes it.
import diagnostics from "node:diagnostics_channel";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
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
function requestJson(c: Captured): string {
  const { method, host, ip, port, headers } = c;
  if (typeof method !== "string" || (host !== undefined && typeof host !== "string") || (ip !== undefined && typeof ip !== "string") || (port !== undefined && typeof port !== "number")) {
    return str(serializeRequestForLog({ method, url: c.url, headers, host, ip, socket: { remotePort: port } }));
  }
  const url = c.url ?? "";
  let out = '{"method":' + str(method) + ',"url":' + str(redactRequestUrl(url, headers));
  if (host !== undefined) out += ',"host":' + str(host);
  if (ip !== undefined) out += ',"remoteAddress":' + str(ip);
  if (port !== undefined) out += ',"remotePort":' + str(port);
  return out + "}";
}

/** What one logger's lines share: pino's level label, bindings, line end and destination. */
interface LineTarget {
  head: string;
  tail: string;
  stream: { write(line: string): unknown; flushSync?: () => void };
}

/**
 * The few values a line is built from, read when the answer is sent (the socket's address is gone
 * once it closes; the time and the logger's bindings are the answer's). The headers object is kept for the redaction of the URL.
 */
class Captured {
  readonly method: unknown;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly host: unknown;
  readonly ip: unknown;
  readonly port: unknown;
  constructor(
    readonly target: LineTarget,
    readonly time: string,
    readonly chindings: string,
    readonly reqId: string,
    req: IncomingMessage,
    readonly statusCode: number,
    readonly responseTime: number,
  ) {
    const headers = req.headers;
    const socket = req.socket;
    this.method = req.method;
    this.url = req.url;
    this.headers = headers;
    this.host = headers.host;
    this.ip = socket.remoteAddress;
    this.port = socket.remotePort;
  }
}

function lineOf(c: Captured): string {
  const t = c.target;
  const line = t.head + c.time + c.chindings + ',"reqId":' + str(c.reqId) + ',"req":' + requestJson(c);
  return line + ',"res":{"statusCode":' + str(c.statusCode) + '},"responseTime":' + (Number.isFinite(c.responseTime) ? c.responseTime : null) + t.tail;
}

// Deferred lines: captured at the answer, built and written together in a setImmediate batch after
// the answers of that turn of the event loop. Built one after another, the line's code and data
// stay hot; built between ~300 µs of HTTP and proxy work, each cost several times as much
// (docs/performance.md, sessions 33–36). Lines of all loggers share one queue, in answer order.
let pending: Captured[] = [];
let scheduled = false;
let exitHooked = false;

/** Builds and writes every deferred line now, in the order the answers were sent. */
export function flushRequestLines(): void {
  scheduled = false;
  if (pending.length === 0) return;
  const batch = pending;
  pending = [];
  for (let i = 0; i < batch.length; i++) {
    const c = batch[i]!;
    c.target.stream.write(lineOf(c));
  }
}

/** At exit no immediate runs any more: the queue is written, then each destination that batches is flushed. */
function flushAtExit(): void {
  const streams = new Set(pending.map((c) => c.target.stream));
  flushRequestLines();
  for (const s of streams) {
    try {
      s.flushSync?.();
    } catch {
      // a destination that cannot flush now (closed, not ready) loses nothing it would have kept otherwise
    }
  }
}

function defer(c: Captured): void {
  pending.push(c);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushRequestLines);
}

/** The fast writer for `log`, or null when its output could differ from pino's; `deferred`: lines written in a batch after the answer (above). */
export function requestLineWriter(log: FastifyBaseLogger, deferred = false): RequestLine | null {
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
  const target: LineTarget = { head: lsCache[INFO] as string, tail: ',"msg":"request completed"' + end, stream };
  const l = log as any;
  if (deferred && !exitHooked) {
    exitHooked = true;
    process.on("exit", flushAtExit);
  }

  return (reqId, req, statusCode, responseTime) => {
    if (!l.isLevelEnabled("info") || asJsonTrace.hasSubscribers) return false;
    const c = new Captured(target, l[timeKey](), l[chindingsKey], reqId, req, statusCode, responseTime);
    if (deferred) defer(c);
    else stream.write(lineOf(c));
    return true;
  };
}
