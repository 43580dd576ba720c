// podBillingByGpuType: v1 pod billing groups by GPU type unless grouping=podId; v2 has one record
// per pod per bucket. For grouping=gpuTypeId (the v1 default) and for the gpuTypeId filter, the
// gateway reads the pods (GET /v2/pods) to learn each one's GPU type (CPU pods: their CPU flavour)
// and sums each type's pods per bucket. Pods v2 no longer lists cannot be attributed: their amounts
// form a group without gpuTypeId, and the V2-Bridge-Warning header says so.
import { applyFilters } from "../translation/translate-response.ts";
import { isRecord, readForExpansion } from "./expansion-calls.ts";
import { sumByKey } from "./sum-by-key.ts";
import type { Emulation } from "./types.ts";

export const podBillingByGpuType: Emulation = {
  name: "podBillingByGpuType",
  async expand(call, answer) {
    if (!Array.isArray(answer.json)) return answer;
    const byGpuType = (call.emulatedParams.grouping ?? "gpuTypeId") === "gpuTypeId";
    const filters = call.filters.filter((f) => f.param === "gpuTypeId");
    if (!byGpuType && !filters.length) return answer;

    const body = await readForExpansion(call, "grouping", "/v2/pods");
    const typeOf = new Map<unknown, string>();
    for (const pod of Array.isArray(body.pods) ? body.pods.filter(isRecord) : []) {
      const type = pod.gpu?.id ?? pod.cpu?.id;
      if (typeof type === "string") typeOf.set(pod.id, type);
    }
    let records = (answer.json as Record<string, unknown>[]).map((r): Record<string, unknown> => {
      const type = typeOf.get(r.podId);
      return type ? { ...r, gpuTypeId: type } : { ...r };
    });
    const unattributed = new Set(records.filter((r) => r.gpuTypeId === undefined).map((r) => r.podId));
    if (filters.length) records = applyFilters(records, filters) as Record<string, unknown>[];
    if (byGpuType) {
      if (unattributed.size) call.warnings.push(`grouping=gpuTypeId: ${unattributed.size} pod(s) no longer listed by v2 could not be attributed to a GPU type (summed without gpuTypeId)`);
      records = sumByKey(records, (r) => (r.gpuTypeId === undefined ? { time: r.time } : { time: r.time, gpuTypeId: r.gpuTypeId }), ["amount"]);
    }
    return { ...answer, json: records };
  },
};
