// Response headers every v1 answer carries (Deprecation, Sunset, Link to the v2 successor) and the
// upstream headers that must reach the client unchanged (rate limits, Retry-After).
import { serializeItem, serializeList } from "structured-headers";
import { V1_RETIREMENT } from "../mappings/bases.ts";

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

/** `V2-Bridge-Warning`: a structured-field list of strings (printable ASCII only), or null. */
export function warningHeader(warnings: string[]): string | null {
  if (!warnings.length) return null;
  const clean = [...new Set(warnings)].map((w) => w.replace(/[^\x20-\x7e]/g, "?").slice(0, 300));
  return serializeList(clean.map((w) => [w, new Map()]));
}
