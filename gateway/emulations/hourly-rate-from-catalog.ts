// hourlyRateFromCatalog: v2 pod `cost` is what the pod costs now (0 while stopped); v1 `costPerHr`
// is the pod's hourly rate whatever its state. For records of pods that are not running, the
// gateway loads the catalog (cached per API key) so the hourlyRate converter can price them.
import { loadCatalog } from "./load-catalog.ts";
import type { Emulation } from "./types.ts";

export const hourlyRateFromCatalog: Emulation = {
  name: "hourlyRateFromCatalog",
  async beforeRead(call, records) {
    if (records.some((r) => r.status !== "RUNNING")) await loadCatalog(call);
  },
};
