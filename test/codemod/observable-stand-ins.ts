// Small stand-ins for `rxjs` and Angular's `@angular/common/http`, written as packages into an
// end-to-end test's folder (neither is a dependency of this repository): enough of an Observable
// (`pipe`, `subscribe`, `catchError`, `map`, `throwError`, `firstValueFrom`) and of `HttpClient`
// (requests over `fetch`, a failure as an `HttpErrorResponse` whose `.error` is the parsed body)
// for a rewritten Angular client to run against the sandbox and the gateway.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const RXJS = `export class Observable {
  constructor(subscribe) { this._subscribe = subscribe; }
  subscribe(next, error, complete) {
    const o = typeof next === "object" && next !== null ? next : { next, error, complete };
    let closed = false;
    this._subscribe({
      next: (v) => { if (!closed) o.next?.(v); },
      error: (e) => { if (!closed) { closed = true; o.error?.(e); } },
      complete: () => { if (!closed) { closed = true; o.complete?.(); } },
    });
    return { unsubscribe: () => void (closed = true) };
  }
  pipe(...ops) { return ops.reduce((s, op) => op(s), this); }
}
export const EMPTY = new Observable((s) => s.complete());
export const of = (...values) => new Observable((s) => { values.forEach((v) => s.next(v)); s.complete(); });
export const throwError = (make) => new Observable((s) => s.error(make()));
export const map = (f) => (src) => new Observable((s) => src.subscribe({ next: (v) => s.next(f(v)), error: (e) => s.error(e), complete: () => s.complete() }));
export const catchError = (handler) => (src) => new Observable((s) => src.subscribe({
  next: (v) => s.next(v),
  error: (e) => { let next; try { next = handler(e, src); } catch (thrown) { return s.error(thrown); } next.subscribe(s); },
  complete: () => s.complete(),
}));
export const firstValueFrom = (src) => new Promise((resolve, reject) => src.subscribe({ next: resolve, error: reject, complete: () => reject(new Error("no elements in sequence")) }));
export const lastValueFrom = (src) => new Promise((resolve, reject) => { let last; src.subscribe({ next: (v) => (last = v), error: reject, complete: () => resolve(last) }); });
`;

const OPERATORS = `export { map, catchError } from "../index.mjs";\n`;

const HTTP = `import { Observable } from "rxjs";
export class HttpErrorResponse extends Error {
  constructor({ error, status, statusText, url }) {
    super(\`Http failure response for \${url}: \${status} \${statusText}\`);
    this.name = "HttpErrorResponse";
    Object.assign(this, { error, status, statusText, url });
  }
}
export class HttpClient {
  request(method, url, body, options = {}) {
    return new Observable((s) => {
      const headers = { ...(options.headers ?? {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
      fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
        .then(async (res) => {
          const text = await res.text();
          let parsed = text;
          try { parsed = text ? JSON.parse(text) : null; } catch {}
          if (res.ok) { s.next(parsed); s.complete(); }
          else s.error(new HttpErrorResponse({ error: parsed, status: res.status, statusText: res.statusText, url }));
        })
        .catch((e) => s.error(e));
    });
  }
  get(url, options) { return this.request("GET", url, undefined, options); }
  delete(url, options) { return this.request("DELETE", url, undefined, options); }
  post(url, body, options) { return this.request("POST", url, body, options); }
  put(url, body, options) { return this.request("PUT", url, body, options); }
  patch(url, body, options) { return this.request("PATCH", url, body, options); }
}
`;

function pkg(dir: string, name: string, exports: Record<string, string>, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "0.0.0-stand-in", type: "module", exports }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/** `rxjs` (with `rxjs/operators`) and `@angular/common/http`, under `root/node_modules`. */
export function writeObservableStandIns(root: string): void {
  const modules = path.join(root, "node_modules");
  pkg(path.join(modules, "rxjs"), "rxjs", { ".": "./index.mjs", "./operators": "./operators/index.mjs" }, { "index.mjs": RXJS, "operators/index.mjs": OPERATORS });
  pkg(path.join(modules, "@angular", "common"), "@angular/common", { "./http": "./http.mjs" }, { "http.mjs": HTTP });
}
