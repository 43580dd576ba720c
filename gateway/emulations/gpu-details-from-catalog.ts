// gpuDetailsFromCatalog: v2 pod `gpu` is only {id, count}; v1's also named the GPU type and its
// per-GPU prices. For records of GPU pods the gateway loads the catalog (cached per API key) so
// the gpuDetails converter can fill them from the type's catalog row. Unlike the hourly rate these
// are details: a failed lookup leaves them out with a warning instead of failing the read.
import { loadCatalog } from "./load-catalog.ts";
import type { Emulation } from "./types.ts";

const FILLED = "gpu.displayName, gpu.securePrice, gpu.communityPrice, machine.gpuDisplayName";

export const gpuDetailsFromCatalog: Emulation = {
  name: "gpuDetailsFromCatalog",
  async beforeRead(call, records) {
    if (!records.some((r) => typeof (r.gpu as { id?: unknown } | null | undefined)?.id === "string")) return;
    try {
      await loadCatalog(call);
    } catch (e) {
      call.warnings.push(`${FILLED} not in this answer: the GPU catalog lookup failed (${(e as Error).message})`);
    }
  },
};
