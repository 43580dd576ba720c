// fetch and undici: one global dispatcher (shared through undici's global symbol by Node's fetch,
// by every undici copy's `request`/`fetch`, and so by ky and other fetch-based clients) sends
// requests for the API hosts to the local servers, and leaves the rest alone. `fetch` itself is
// wrapped too, so the call site is the client's own stack (the dispatcher runs later, after
// fetch's internal awaits), and a dispatcher the client passes is set aside for the API hosts.
import { Agent, setGlobalDispatcher, type Dispatcher } from "undici";
import { nextRequestId, recordedUrl, writeEvent } from "./events.ts";
import { headerValue, withHeader } from "./headers.ts";
import { targetFor, type Routes } from "./routes.ts";
import { clientFrames } from "./stack.ts";

const ID_HEADER = "x-request-id";
/** Ids the fetch wrapper has recorded: the dispatcher only redirects those (bounded). */
const recorded = new Set<string>();
const REMEMBERED = 10_000;

export function installUndiciRedirect(routes: Routes, eventsFile: string): Dispatcher {
  const redirecting = new Agent().compose((dispatch) => (opts, handler) => {
    const origin = new URL(String(opts.origin));
    const target = targetFor(routes, origin);
    if (!target) return dispatch(opts, handler);
    let headers: unknown = opts.headers;
    let id = headerValue(headers, ID_HEADER);
    if (id === undefined || !recorded.has(id)) {
      if (id === undefined) headers = withHeader(headers, ID_HEADER, (id = nextRequestId()));
      const url = new URL(String(opts.path), origin);
      writeEvent(eventsFile, { kind: "call", id, pid: process.pid, via: "undici", method: String(opts.method), url: recordedUrl(url), frames: clientFrames() });
    }
    return dispatch({ ...opts, origin: target.origin, headers: headers as Dispatcher.DispatchOptions["headers"] }, handler);
  });
  setGlobalDispatcher(redirecting);

  const original = globalThis.fetch;
  if (typeof original === "function") {
    globalThis.fetch = function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
      const url = urlOf(input);
      if (!url || !targetFor(routes, url)) return original(input, init);
      const headers = new Headers(input instanceof Request ? input.headers : undefined);
      if (init?.headers) new Headers(init.headers).forEach((v, k) => headers.set(k, v));
      const id = headers.get(ID_HEADER) ?? nextRequestId();
      headers.set(ID_HEADER, id);
      if (recorded.size >= REMEMBERED) recorded.clear();
      recorded.add(id);
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      writeEvent(eventsFile, { kind: "call", id, pid: process.pid, via: "fetch", method, url: recordedUrl(url), frames: clientFrames() });
      return original(input, { ...init, headers, dispatcher: redirecting } as unknown as RequestInit);
    };
  }
  return redirecting;
}

function urlOf(input: string | URL | Request): URL | null {
  try {
    return new URL(input instanceof Request ? input.url : String(input));
  } catch {
    return null;
  }
}
