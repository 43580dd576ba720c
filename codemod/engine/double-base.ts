// A full v1 URL handed to a helper that always puts its own base before the path
// (`get(`https://rest.runpod.io/v1/pods/${id}`)` where `get(path)` fetches `BASE + path`): the
// request goes to the base followed by a second base, and fails on v1 as written. The mark says
// so and names the operation the inner URL meant, so the reader fixes the call, not the route.
import { matchV1 } from "../../mappings/index.ts";
import type { Finding } from "../types.ts";
import type { LocatedUrl } from "./urls.ts";
import { uniqueMatches } from "./v1-match.ts";

const SCHEME = /https?:\/\//;

export interface DoubleBase {
  problem: { reason: string; advice: string };
  /** The operation the inner URL names, when one does. */
  operation?: { key: string; v1: NonNullable<Finding["v1"]> };
}

/** The double base in the path this call's base is joined to, or undefined when its path is a path. */
export function doubleBase(url: LocatedUrl, method: string | undefined): DoubleBase | undefined {
  const at = url.path.search(SCHEME);
  if (at < 0) return undefined;
  const inner = url.path.slice(at).replace(SCHEME, "");
  // What follows the inner URL's host and version is the path it meant.
  const slash = inner.indexOf("/");
  const rest = slash < 0 ? "" : inner.slice(slash);
  const meant = rest.startsWith("/v1/") ? rest.slice(3) : rest;
  const match = meant ? (method ? matchV1(method, meant) : uniqueMatches(meant)[0] ?? null) : null;
  const shown = `${url.anchor?.value ?? url.inlineBase}${url.path.replace(/\0/g, "{…}")}`.replace(/^\/+/, "");
  const problem = {
    reason: `a full v1 URL is given where the helper puts its base before the path, so the request goes to ${shown.replace(/(\S{90})\S+/, "$1…")} (the call fails on v1 as written)`,
    advice: "pass the path alone (without the base) to the helper, then rewrite it for v2",
  };
  return match ? { problem, operation: { key: match.operation.key, v1: { method: match.operation.v1.method, path: match.operation.v1.path } } } : { problem };
}
