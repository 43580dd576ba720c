// gpuPoolsFromCatalog: v1 endpoints name GPU types, v2 endpoints name GPU pools. The gateway reads
// the GPU catalog (cached per API key) so the endpointGpu converter can map types → pools (+
// excluded types) on the way in and pools → types on the way back.
import { loadCatalog } from "./load-catalog.ts";
import type { Emulation } from "./types.ts";

export const gpuPoolsFromCatalog: Emulation = {
  name: "gpuPoolsFromCatalog",
  fields: ["gpuTypeIds"],
  async prepare(call) {
    const ids = call.v1Body?.gpuTypeIds;
    if (Array.isArray(ids) && ids.length) await loadCatalog(call);
  },
  async beforeRead(call, records) {
    const needs = records.some((r) => {
      const gpu = r.gpu as { pools?: unknown } | null | undefined;
      return !!gpu && Array.isArray(gpu.pools) && gpu.pools.length > 0;
    });
    if (needs) await loadCatalog(call);
  },
};
