// gpuTypePriority: a v1 pod create with several gpuTypeIds tries them in order, moving on only
// when v2 says the current type has no capacity. Any other answer (success or error) ends the search.
import type { Emulation } from "./types.ts";

/** v2's "no capacity" answers: a 4xx/503 whose detail says no instances / capacity are available. */
export function isNoCapacity(status: number, body: unknown): boolean {
  if (![400, 409, 422, 503].includes(status)) return false;
  const b = body as { detail?: unknown; title?: unknown } | undefined;
  const text = `${typeof b?.detail === "string" ? b.detail : ""} ${typeof b?.title === "string" ? b.title : ""}`;
  return /no (gpu )?instances? (are )?available|no capacity|insufficient capacity|out of capacity/i.test(text);
}

export const gpuTypePriority: Emulation = {
  name: "gpuTypePriority",
  async send(call, body, next) {
    const ids = call.v1Body?.gpuTypeIds;
    const gpu = body?.gpu as Record<string, unknown> | undefined;
    if (!body || !gpu || !Array.isArray(ids) || ids.length < 2) return next(body);
    const types = [...new Set(ids.filter((t): t is string => typeof t === "string"))];
    let res = await next(body);
    for (let i = 1; i < types.length && isNoCapacity(res.status, res.json); i++) {
      call.warnings.push(`gpuTypeIds: ${types[i - 1]} had no capacity, tried ${types[i]}`);
      res = await next({ ...body, gpu: { ...gpu, id: types[i] } });
    }
    return res;
  },
};
