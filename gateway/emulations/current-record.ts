// The record an update is about, read once per v1 call however many read-modify-write emulations
// need it (v2 replaces some nested objects whole, v1 could send one field of them).
import type { V1Call } from "../upstream/call.ts";
import type { UpstreamResponse } from "../upstream/upstream.ts";
import { upstreamError } from "../translation/v1-errors.ts";

const reads = new WeakMap<V1Call, Promise<UpstreamResponse>>();

/** The current v2 record at the call's v2 path; a failed read becomes the v1 error. */
export async function currentRecord(call: V1Call): Promise<Record<string, any>> {
  let pending = reads.get(call);
  if (!pending) {
    pending = call.callUpstream({ method: "GET", path: call.v2Path! });
    reads.set(call, pending);
  }
  const res = await pending;
  if (res.status !== 200 || !res.json || typeof res.json !== "object") throw upstreamError(res, "", res.status >= 500 ? "upstream" : undefined);
  return res.json as Record<string, any>;
}

/** The raw answer of that read (to answer an update that turned out to change nothing). */
export function currentResponse(call: V1Call): Promise<UpstreamResponse> | undefined {
  return reads.get(call);
}
