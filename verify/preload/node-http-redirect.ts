// http.request / https.request (and .get): the transport of axios (through follow-redirects),
// got, node-fetch and most older clients. A request for an API host becomes a plain-HTTP request
// to the local server, with TLS-only options and the client's https agent set aside; anything
// else goes through untouched. ESM named imports (`import { request } from "node:https"`) see the
// patched functions too (syncBuiltinESMExports).
import http from "node:http";
import https from "node:https";
import { syncBuiltinESMExports } from "node:module";
import { nextRequestId, recordedUrl, writeEvent } from "./events.ts";
import { headerValue, withHeader } from "./headers.ts";
import { targetFor, type Routes } from "./routes.ts";
import { clientFrames } from "./stack.ts";

type Options = Record<string, any>;
type Callback = (res: http.IncomingMessage) => void;

/** Options that only mean something to TLS or to the original connection. */
const DROPPED = ["agent", "createConnection", "host", "hostname", "port", "protocol", "defaultPort", "socketPath", "servername", "ca", "cert", "key", "pfx", "passphrase", "rejectUnauthorized", "checkServerIdentity", "_defaultAgent"];

export function installNodeHttpRedirect(routes: Routes, eventsFile: string): void {
  const plainRequest = http.request;
  for (const [mod, protocol] of [[http, "http:"], [https, "https:"]] as const) {
    const original = mod.request;
    const request = function request(this: unknown, ...args: unknown[]): http.ClientRequest {
      const call = parseArgs(args, protocol);
      const target = call && targetFor(routes, call.url);
      if (!call || !target) return (original as (...a: unknown[]) => http.ClientRequest).apply(this, args);
      let headers: unknown = call.options.headers;
      let id = headerValue(headers, "x-request-id");
      if (id === undefined) headers = withHeader(headers, "x-request-id", (id = nextRequestId()));
      const method = String(call.options.method ?? "GET").toUpperCase();
      writeEvent(eventsFile, { kind: "call", id, pid: process.pid, via: "http", method, url: recordedUrl(call.url), frames: clientFrames() });
      const options: Options = { ...call.options };
      for (const name of DROPPED) delete options[name];
      Object.assign(options, { protocol: "http:", hostname: target.hostname, port: target.port, path: call.url.pathname + call.url.search, headers });
      if (call.options.agent === false) options.agent = false;
      return call.callback ? plainRequest(options, call.callback) : plainRequest(options);
    };
    mod.request = request as typeof mod.request;
    // Node's own get() calls its module-private request(): patch it too.
    mod.get = function get(this: unknown, ...args: unknown[]) {
      const req = (request as (...a: unknown[]) => http.ClientRequest).apply(this, args);
      req.end();
      return req;
    } as typeof mod.get;
  }
  syncBuiltinESMExports();
}

/** (url[, options][, callback]) or (options[, callback]), as Node accepts them, as one URL and options. */
function parseArgs(args: unknown[], defaultProtocol: string): { url: URL; options: Options; callback?: Callback } | null {
  try {
    let base: URL | null = null;
    let rest = args;
    if (typeof args[0] === "string" || args[0] instanceof URL) {
      base = new URL(String(args[0]));
      rest = args.slice(1);
    }
    const options: Options = rest[0] && typeof rest[0] === "object" ? (rest[0] as Options) : {};
    const callback = rest.find((a): a is Callback => typeof a === "function");
    const protocol = options.protocol ?? base?.protocol ?? defaultProtocol;
    const hostname = options.hostname ?? (typeof options.host === "string" ? options.host.replace(/:\d+$/, "") : undefined) ?? base?.hostname ?? "localhost";
    const port = options.port ?? base?.port ?? "";
    const requestPath = options.path ?? (base ? base.pathname + base.search : "/");
    const url = new URL(`${protocol}//${hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname}${port ? `:${port}` : ""}`);
    const [pathname, search] = String(requestPath).split(/\?(.*)/s, 2);
    url.pathname = pathname || "/";
    if (search !== undefined) url.search = `?${search}`;
    return { url, options: { ...options, method: options.method ?? "GET" }, callback };
  } catch {
    return null;
  }
}
