// gpuDetailsFromCatalog: v2 pod `gpu` is only {id, count}; v1's also named the GPU type and its
// per-GPU prices. For records of GPU pods the gateway loads the catalog (cached per API key) so
// the gpuDetails converter can fill them from the type's catalog row.
import { loadCatalog } from "./load-catalog.ts";
import type { Emulation } from "./types.ts";

export const gpuDetailsFromCatalog: Emulation = {
  name: "gpuDetailsFromCatalog",
  async beforeRead(call, records) {
    if (records.some((r) => typeof (r.gpu as { id?: unknown } | null | undefined)?.id === "string")) await loadCatalog(call);
  },
};
