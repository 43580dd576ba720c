// What each gateway emulation changes, so the adapter knows which of its conversions an operation's
// emulations make unequal to the gateway's. The table names emulations per operation but not which
// part of the exchange they touch; read from gateway/emulations/*.ts (a test checks every emulation
// of the table is listed here, so a new one cannot slip past the adapter).
//   request: the v1 body is sent differently or with extra calls (retries, read-modify-write);
//   record:  a translated record gets fields from a lookup or from the request;
//   list:    the translated list has other members (regrouped, summed);
//   query:   only when the v1 call sends a query parameter (filters, include*), or leaves out one
//            whose v1 default the gateway emulates (billing grouping), which the engine handles at
//            the call site, not the adapter;
//   operation: the operation is not a v2 call at all.
export type EmulationSide = "request" | "record" | "list" | "query" | "operation";

export const emulationSides: Readonly<Record<string, readonly EmulationSide[]>> = {
  gpuTypePriority: ["request"],
  cpuFlavorPriority: ["request"],
  lockOnCreate: ["request"],
  gpuPoolsFromCatalog: ["request", "record"],
  scalingReadModifyWrite: ["request"],
  endpointCpuReadModifyWrite: ["request"],
  flashbootKeepsPriority: ["request"],
  podMountsReadModifyWrite: ["request"],
  listFilters: ["query"],
  resetAsRestart: ["operation"],
  emptyUpdateAsRead: ["request"],
  servePublishedDocument: ["operation"],
  hourlyRateFromCatalog: ["record"],
  gpuDetailsFromCatalog: ["record"],
  catalogTemplates: ["query"],
  endpointWorkers: ["query"],
  podNetworkVolume: ["query"],
  templateIdFromRequest: ["record"],
  podBillingByGpuType: ["list", "record", "query"],
  sumPerBucket: ["list"],
  templateMountsReadModifyWrite: ["request"],
  actionWaitsForBoot: ["request"],
};

/** The operation's emulations that act on this side (unknown names count: better marked than wrong). */
export function emulationsOn(names: readonly string[] | undefined, side: EmulationSide): string[] {
  return (names ?? []).filter((name) => !emulationSides[name] || emulationSides[name]!.includes(side));
}
