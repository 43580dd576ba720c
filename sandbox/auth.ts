// Bearer-token authentication as v2-spec.md states it: missing/malformed/invalid → 401; a valid
// key without access (here: a read-only key on a non-GET) → 403.
//
// Default rule: any `sandbox_<anything>` token is a full-access key and `sandbox_ro_<anything>` a
// read-only one. An explicit `keys` list (CLI `--key TOKEN[:ro]`) replaces that rule.
// All keys act on ONE shared account: state is shared across keys (like several API keys of the
// same user), while rate limits are counted per key.

export type ApiKey = { token: string; readOnly: boolean };

export type AuthResult =
  | { ok: true; key: ApiKey }
  | { ok: false; detail: string };

/** Parses `TOKEN` or `TOKEN:ro` (the CLI's --key syntax). */
export function parseKeySpec(spec: string): ApiKey {
  const m = /^(.*?)(?::(ro|rw))?$/.exec(spec.trim());
  const token = m?.[1] ?? "";
  if (!token || /\s/.test(token)) throw new Error(`invalid key spec '${spec}': expected TOKEN or TOKEN:ro`);
  return { token, readOnly: m?.[2] === "ro" };
}

export function createAuthenticator(keys?: Array<ApiKey | string>): (header: string | undefined) => AuthResult {
  const explicit = keys?.map((k) => (typeof k === "string" ? parseKeySpec(k) : k));
  const table = explicit ? new Map(explicit.map((k) => [k.token, k])) : null;
  return (header) => {
    if (header === undefined || header.trim() === "") return { ok: false, detail: "missing bearer token" };
    const m = /^Bearer +([^\s]+)\s*$/i.exec(header);
    if (!m) return { ok: false, detail: "malformed authorization header: expected 'Bearer <API_KEY>'" };
    const token = m[1];
    if (table) {
      const key = table.get(token);
      return key ? { ok: true, key } : { ok: false, detail: "invalid API key" };
    }
    if (/^sandbox_ro_.+/.test(token)) return { ok: true, key: { token, readOnly: true } };
    if (/^sandbox_.+/.test(token)) return { ok: true, key: { token, readOnly: false } };
    return { ok: false, detail: "invalid API key" };
  };
}

export function isReadMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}
