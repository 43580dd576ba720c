// Trying v1 priority lists (gpuTypeIds, cpuFlavorIds) in order against a v2 create that takes one.
// The v2 createPod guide: 400 covers both a broken rule and "no capacity" (capacity has no
// machine-readable code, only a human detail), 403 means no access to that pool: both → next
// candidate. A 404 about the type is treated the same. 402, 422, 429 and 5xx end the search.
import type { V1Call } from "../upstream/call.ts";
import type { UpstreamResponse } from "../upstream/upstream.ts";

export function worthNextCandidate(status: number): boolean {
  return status === 400 || status === 403 || status === 404;
}

function detailOf(res: UpstreamResponse): string {
  const d = (res.json as { detail?: unknown } | undefined)?.detail;
  return typeof d === "string" ? `: ${d.slice(0, 120)}` : "";
}

/** Sends `attempt(candidate)` for each candidate until one is not worth moving on from. */
export async function tryInOrder(
  call: V1Call,
  field: string,
  candidates: string[],
  attempt: (candidate: string) => Promise<UpstreamResponse>,
): Promise<UpstreamResponse> {
  let res = await attempt(candidates[0]!);
  for (let i = 1; i < candidates.length && worthNextCandidate(res.status); i++) {
    call.warnings.push(`${field}: ${candidates[i - 1]} refused (${res.status}${detailOf(res)}), tried ${candidates[i]}`);
    res = await attempt(candidates[i]!);
  }
  return res;
}

/** The distinct string entries of a v1 list field, in order. */
export function candidatesOf(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.filter((t): t is string => typeof t === "string"))] : [];
}
