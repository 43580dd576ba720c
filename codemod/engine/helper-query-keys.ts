// Where a request helper's callers give their query: the option keys (or the parameter) its URL
// reads after the path, the options it hands on to an inner helper that puts them into its URL, or
// where the names of a query it adds stop being followed (helpers.ts builds the signature).
import { Node } from "../ts-morph.ts";
import type { HelperSignature } from "../types.ts";
import type { Part } from "./urls.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { handedOnOptionsIndex, handedOnQueryKeys, queryOptionKeys, queryParamIndex, queryParamsReaching, unfollowedQuery, wholeQueryOptionKey } from "./helper-body-keys.ts";

/**
 * The option keys the helper's URL carries after the path (`${q(path, opts.query)}`): its query.
 * They come from the options argument when the helper has one, else from the one parameter they
 * are read from (which then is the options argument; a helper with no body in it sends none).
 */
export function queryKeysOf(a: Analysis, fn: Node, sig: HelperSignature, after: Part[], noBody: boolean): void {
  const holeParts = after.flatMap((p) => (p.kind === "hole" ? [p] : []));
  const holes = holeParts.map((p) => p.node);
  if (!holes.length) return;
  const params = (fn as any).getParameters() as Node[];
  const candidates = sig.optionsIndex !== undefined ? [sig.optionsIndex] : params.map((_, i) => i).filter((i) => i !== sig.pathIndex && i !== sig.methodIndex && i !== sig.bodyIndex);
  const found = candidates.map((i) => ({ i, keys: queryOptionKeys(a, fn, i, holes) })).filter((c) => c.keys.length);
  if (found.length !== 1) {
    // `request(method, path, query)` serialising `query` whole: the call's argument there is its query.
    if (!found.length) sig.queryIndex = queryParamIndex(a, fn, holes, [sig.pathIndex, sig.methodIndex, sig.bodyIndex, sig.bodyKeys || sig.bodyKey ? sig.optionsIndex : undefined]);
    if (!found.length && sig.queryIndex === undefined) sig.queryUnfollowed = unfollowedQuery(a, holeParts);
    // `this.buildURL(path, opts.query)` setting each key of `opts.query` on the URL: each call's object there is its query.
    const whole = sig.queryUnfollowed && candidates.map((i) => ({ i, keys: [wholeQueryOptionKey(a, fn, i, sig.queryUnfollowed!)!] })).find((c) => c.keys[0]);
    if (whole) {
      delete sig.queryUnfollowed;
      return takeQueryKeys(sig, whole, noBody);
    }
    if (sig.queryUnfollowed) sig.queryUnfollowedFrom = queryParamsReaching(a, fn, sig.queryUnfollowed);
    return;
  }
  takeQueryKeys(sig, found[0]!, noBody);
}

/** The helper's query is read from these keys of its options argument (parameter `i`). */
function takeQueryKeys(sig: HelperSignature, found: { i: number; keys: string[] }, noBody: boolean): void {
  sig.queryKeys = found.keys;
  if (sig.optionsIndex === undefined) {
    sig.optionsIndex = found.i;
    if (noBody) sig.dropsBody = true;
  }
}

/**
 * Options handed on to an inner helper that puts their query into its URL (`methodRequest(method,
 * path, opts)` → `request({ method, path, ...opts })` → `this.buildURL(options.path, options.query)`):
 * the query travels in this helper's options too, under the same keys. A query the inner helper
 * does not follow to its names, read from the options handed on, is this helper's too.
 */
export function handedOnQuery(a: Analysis, fn: Node, sig: HelperSignature, http: HttpCall): void {
  const inner = http.lib === "helper" ? http.helper! : undefined;
  const handed = handedOnQueryKeys(a, fn, http);
  if (handed && (sig.optionsIndex === undefined || sig.optionsIndex === handed.index)) {
    if (sig.optionsIndex === undefined && inner?.dropsBody) sig.dropsBody = true;
    return takeQueryKeys(sig, { i: handed.index, keys: handed.keys }, false);
  }
  if (!inner?.queryUnfollowed || inner.optionsIndex === undefined) return;
  const index = handedOnOptionsIndex(a, fn, http);
  if (index === undefined) return;
  const from = inner.queryUnfollowedFrom ?? [];
  sig.queryUnfollowed = inner.queryUnfollowed;
  // Read only from the options handed on: a call that gives none adds no query; else any call may.
  sig.queryUnfollowedFrom = from.length === 1 && from[0] === inner.optionsIndex ? [index] : [];
}
