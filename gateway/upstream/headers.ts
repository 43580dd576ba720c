// Response headers every v1 answer carries (Deprecation, Sunset, Link to the v2 successor) and the
// upstream headers that must reach the client unchanged (rate limits, Retry-After).
import { serializeItem, serializeList } from "structured-headers";
import { V1_RETIREMENT } from "../../mappings/bases.ts";

/** RFC 9745: `Deprecation: @1794700800` (a structured-field Date). */
export const DEPRECATION_VALUE = serializeItem(V1_RETIREMENT);
/** RFC 8594: `Sunset: Sun, 15 Nov 2026 00:00:00 GMT` (an HTTP-date). */
export const SUNSET_VALUE = V1_RETIREMENT.toUTCString();

/** Upstream response headers passed to v1 clients as they are. */
export const PASSTHROUGH_HEADERS = ["ratelimit", "ratelimit-policy", "retry-after"] as const;

export const WARNING_HEADER = "V2-Bridge-Warning";

export function successorLink(publicV2Base: string, v2Path: string | null): string {
  const target = v2Path ? publicV2Base + v2Path : `${publicV2Base}/openapi.json`;
  return `<${target}>; rel="successor-version"`;
}

export function deprecationHeaders(publicV2Base: string, v2Path: string | null): Record<string, string> {
  return { Deprecation: DEPRECATION_VALUE, Sunset: SUNSET_VALUE, Link: successorLink(publicV2Base, v2Path) };
}

/** Picks the rate-limit headers out of an upstream response. */
export function passthroughHeaders(upstream: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PASSTHROUGH_HEADERS) {
    const v = upstream[name];
    if (v !== undefined) out[name === "ratelimit" ? "RateLimit" : name === "ratelimit-policy" ? "RateLimit-Policy" : "Retry-After"] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/**
 * Bounds of `V2-Bridge-Warning`: clients and proxies reject large headers (Node and undici stop at
 * 16 KB in all), and a rejected answer to a create invites a retry that creates twice.
 */
export const MAX_WARNINGS = 20;
export const MAX_WARNING_BYTES = 2_048;

/**
 * `V2-Bridge-Warning`: a structured-field list of strings (printable ASCII only), at most
 * MAX_WARNINGS entries and about MAX_WARNING_BYTES; a last entry "and N more" counts the rest.
 * `omitted` tells the caller to log the full list.
 */
export function boundedWarnings(warnings: string[]): { header: string | null; omitted: number } {
  if (!warnings.length) return { header: null, omitted: 0 };
  // Most answers repeat a few warning sets (every pod read names the same lost fields): serialising
  // one costs ~10 µs, so short sets are remembered, in a bounded cache. Looked up one warning at a
  // time: the texts are mostly the same string objects every time (the table's, through the
  // redaction's memo), whose hash V8 keeps, where a key joined per request was hashed anew.
  if (warnings.length > MEMO_WARNINGS) return serialiseWarnings(warnings);
  let chars = 0;
  for (const w of warnings) chars += w.length;
  if (chars > MEMO_KEY_CHARS) return serialiseWarnings(warnings);
  // Room for a new path of nodes, or start again (as the flat caches did when full).
  if (memoNodes + warnings.length > MEMO_ENTRIES) {
    memo.clear();
    memoNodes = 0;
  }
  let level = memo;
  let node: MemoNode | undefined;
  for (let i = 0; i < warnings.length; i++) {
    node = level.get(warnings[i]!);
    if (!node) {
      node = { result: undefined, next: undefined };
      level.set(warnings[i]!, node);
      memoNodes++;
    }
    if (i < warnings.length - 1) level = node.next ??= new Map();
  }
  return (node!.result ??= Object.freeze(serialiseWarnings(warnings)));
}

const MEMO_WARNINGS = 4;
const MEMO_ENTRIES = 2_048;
const MEMO_KEY_CHARS = 1_024;
interface MemoNode {
  result: Readonly<{ header: string | null; omitted: number }> | undefined;
  next: Map<string, MemoNode> | undefined;
}
/** First warning → node (its set's result, and the sets that go on from it). */
const memo = new Map<string, MemoNode>();
let memoNodes = 0;

function serialiseWarnings(warnings: string[]): { header: string | null; omitted: number } {
  const unique = [...new Set(warnings.map((w) => w.replace(/[^\x20-\x7e]/g, "?").slice(0, 300)))];
  const kept: string[] = [];
  let bytes = 0;
  const room = MAX_WARNING_BYTES - 64; // for the "and N more" entry
  for (const w of unique) {
    const size = serializeItem(w).length + 2; // plus ", "
    if (kept.length >= MAX_WARNINGS || bytes + size > room) break;
    kept.push(w);
    bytes += size;
  }
  const omitted = unique.length - kept.length;
  if (omitted) kept.push(`and ${omitted} more (full list in the gateway log)`);
  return { header: serializeList(kept.map((w) => [w, new Map()])), omitted };
}

export function warningHeader(warnings: string[]): string | null {
  return boundedWarnings(warnings).header;
}
