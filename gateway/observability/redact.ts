// Keeps API keys out of everything the gateway records or echoes: log lines, error messages and
// headers built from the request. Keys pass to the upstream untouched; only copies are scrubbed.
// Three nets, because a client can put its key almost anywhere:
//   1. query parameters whose name says "credential" (`?api_key=`, `?token=`, `?Password=` …) lose their value;
//   2. the request's own credentials (bearer token, x-api-key, credential query values) are cut
//      from any text recorded about that request, wherever they appear (a path segment, a message);
//   3. strings shaped like an API key are cut even when nothing said they were one: the shapes of
//      product/redact.ts (`rpa_…`, `sandbox_…`, bearer tokens, long quoted tokens), which the codemod's reports hide too.
import type { IncomingHttpHeaders } from "node:http";
import { redactKeys } from "../../product/redact.ts";
import { tokenOf } from "../usage/fingerprint.ts";

export const REDACTED = "[redacted]";

/** Query parameter names that carry credentials (case-insensitive; `api_key`, `apiKey`, `access_token`, `client_secret` …). */
const CREDENTIAL_NAME = /key|token|secret|passw|pwd|auth|credential|signature|^sig$|session/i;

/** Headers a client may carry a key in (besides Authorization, whose bearer token is taken). */
const KEY_HEADERS = ["x-api-key", "api-key", "x-auth-token", "proxy-authorization"] as const;

/** Shorter values are not cut from text (a `?key=1` would otherwise blank every "1"). */
const MIN_SECRET_LENGTH = 6;

export function isCredentialParam(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

function addSecret(found: Set<string>, value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  found.add(value);
  const encoded = encodeURIComponent(value);
  if (encoded !== value) found.add(encoded);
}

/** The credential a key header carries: a proxy-authorization's token, another's trimmed value. */
function keyHeaderSecret(name: (typeof KEY_HEADERS)[number], v: string | string[]): string | undefined {
  return name === "proxy-authorization" ? tokenOf(typeof v === "string" ? v : undefined) : typeof v === "string" ? v.trim() : undefined;
}

/** Whether `value` would be one of `secretsOf`'s secrets (as given or percent-encoded) and occurs in `text`. */
function secretIn(text: string, value: string | undefined): boolean {
  if (!value || value.length < MIN_SECRET_LENGTH) return false;
  if (text.includes(value)) return true;
  // An encoded form that differs from the value holds a "%": it cannot occur in a text without one.
  return text.includes("%") && text.includes(encodeURIComponent(value));
}

/**
 * `redactUrl(url, secretsOf(headers, url))`, the same text, without gathering the request's secrets
 * where they cannot change it: a target without a query whose text holds none of the header
 * credentials. That is nearly every request, and gathering (a set, a sorted list, an entry in the
 * table below) cost each request's log line a quarter of its time (docs/performance.md, session 34).
 */
export function redactRequestUrl(url: string, headers: IncomingHttpHeaders): string {
  if (url.includes("?")) return redactUrl(url, secretsOf(headers, url));
  const auth = headers.authorization;
  let cut = secretIn(url, tokenOf(typeof auth === "string" ? auth : undefined));
  for (let i = 0; !cut && i < KEY_HEADERS.length; i++) {
    const v = headers[KEY_HEADERS[i]!];
    if (v !== undefined) cut = secretIn(url, keyHeaderSecret(KEY_HEADERS[i]!, v));
  }
  // No secret occurs in the text, so redactText would cut none of them: only the key shapes.
  return cut ? redactUrl(url, secretsOf(headers, url)) : redactText(url);
}

/** One request's secrets, kept while its headers object lives: the handler, its error answers and its log line all ask. */
const perRequest = new WeakMap<IncomingHttpHeaders, { url: string | undefined; secrets: string[] }>();

/** The credentials one request carries, in every form they can appear in recorded text (do not modify the list). */
export function secretsOf(headers: IncomingHttpHeaders, url: string | undefined): string[] {
  const known = perRequest.get(headers);
  if (known && known.url === url) return known.secrets;
  const found = new Set<string>();
  const auth = headers.authorization;
  addSecret(found, tokenOf(typeof auth === "string" ? auth : undefined));
  for (const name of KEY_HEADERS) {
    const v = headers[name];
    if (v !== undefined) addSecret(found, keyHeaderSecret(name, v));
  }
  const q = url?.indexOf("?") ?? -1;
  if (url && q !== -1) {
    for (const [name, value] of new URLSearchParams(url.slice(q + 1))) if (isCredentialParam(name)) addSecret(found, value);
  }
  // Longest first, so a secret that contains another is cut whole.
  const secrets = found.size > 1 ? [...found].sort((a, b) => b.length - a.length) : [...found];
  perRequest.set(headers, { url, secrets });
  return secrets;
}

/** `text` with every given secret and every key-shaped string replaced by [redacted]. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return keyShapesCut(out);
}

/**
 * `texts.map((t) => redactText(t, secrets))` for a list that never changes (the mapping table's
 * lost-field names, which every pod read declares: thirty-odd), answered with `texts` itself when
 * that would change none of them: none is cut by the key shapes (worked out once per list) and
 * none of the secrets occurs in any (one search of the joined list per secret). A secret that
 * occurred in one name occurs in the joined text, so the answer is the same as the map's.
 */
export function redactTexts(texts: readonly string[], secrets: readonly string[]): readonly string[] {
  let known = constantTexts.get(texts);
  if (!known) {
    known = { joined: texts.join("\n"), shapesUncut: texts.every((t) => keyShapesCut(t) === t) };
    constantTexts.set(texts, known);
  }
  if (known.shapesUncut && secrets.every((s) => !known!.joined.includes(s))) return texts;
  return texts.map((t) => redactText(t, secrets));
}

const constantTexts = new WeakMap<readonly string[], { joined: string; shapesUncut: boolean }>();

// Most texts redacted are the same every time (a lost-field warning on every pod read, the same
// few request paths): the key-shape scan of each, ~1 µs per 300 characters with quotes in them, is
// remembered for short texts in a bounded table, emptied when full. It is looked up with the text
// already cut of the request's own secrets, and lives in memory only: nothing in it is written out.
const KEY_SHAPE_MEMO_ENTRIES = 1_024;
const KEY_SHAPE_MEMO_CHARS = 2_048;
const keyShapeMemo = new Map<string, string>();

function keyShapesCut(text: string): string {
  if (text.length > KEY_SHAPE_MEMO_CHARS) return redactKeys(text, REDACTED);
  let out = keyShapeMemo.get(text);
  if (out === undefined) {
    out = redactKeys(text, REDACTED);
    if (keyShapeMemo.size >= KEY_SHAPE_MEMO_ENTRIES) keyShapeMemo.clear();
    keyShapeMemo.set(text, out);
  }
  return out;
}

/** A request target safe to record: credential query values blanked, secrets and key shapes cut. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  const q = url.indexOf("?");
  if (q === -1) return redactText(url, secrets);
  const query = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // an undecodable name is judged as written
      }
      return eq !== -1 && isCredentialParam(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join("&");
  return redactText(url.slice(0, q) + "?" + query, secrets);
}

/** The request as a log line shows it (replaces pino's default `req` serializer, which logs the raw URL). */
export function serializeRequestForLog(req: {
  method?: string;
  url?: string;
  headers?: IncomingHttpHeaders;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}): Record<string, unknown> {
  const url = req.url ?? "";
  return {
    method: req.method,
    url: redactRequestUrl(url, req.headers ?? {}),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
