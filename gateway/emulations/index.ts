// Every gateway emulation by the name mappings/data/emulations.ts gives it (a test checks the two agree).
import { actionWaitsForBoot } from "./action-waits-for-boot.ts";
import { catalogTemplates } from "./catalog-templates.ts";
import { cpuFlavorPriority } from "./cpu-flavor-priority.ts";
import { endpointWorkers } from "./endpoint-workers.ts";
import { podNetworkVolume } from "./pod-network-volume.ts";
import { podBillingByGpuType } from "./pod-billing-by-gpu-type.ts";
import { sumPerBucket } from "./sum-per-bucket.ts";
import { templateIdFromRequest } from "./template-id-from-request.ts";
import { emptyUpdateAsRead } from "./empty-update-as-read.ts";
import { endpointCpuReadModifyWrite } from "./endpoint-cpu-read-modify-write.ts";
import { flashbootKeepsPriority } from "./flashboot-keeps-priority.ts";
import { podMountsReadModifyWrite } from "./pod-mounts-read-modify-write.ts";
import { gpuPoolsFromCatalog } from "./gpu-pools-from-catalog.ts";
import { gpuTypePriority } from "./gpu-type-priority.ts";
import { hourlyRateFromCatalog } from "./hourly-rate-from-catalog.ts";
import { gpuDetailsFromCatalog } from "./gpu-details-from-catalog.ts";
import { listFilters } from "./list-filters.ts";
import { lockOnCreate } from "./lock-on-create.ts";
import { resetAsRestart } from "./reset-as-restart.ts";
import { scalingReadModifyWrite } from "./scaling-read-modify-write.ts";
import { templateMountsReadModifyWrite } from "./template-mounts-read-modify-write.ts";
import { servePublishedDocument } from "./serve-published-document.ts";
import type { Emulation } from "./types.ts";

export type { Emulation } from "./types.ts";

export const emulationImplementations: Record<string, Emulation> = Object.fromEntries(
  [gpuTypePriority, lockOnCreate, gpuPoolsFromCatalog, scalingReadModifyWrite, listFilters, resetAsRestart, actionWaitsForBoot, emptyUpdateAsRead, servePublishedDocument, hourlyRateFromCatalog, gpuDetailsFromCatalog, cpuFlavorPriority, endpointCpuReadModifyWrite, flashbootKeepsPriority, podMountsReadModifyWrite, templateMountsReadModifyWrite, catalogTemplates, endpointWorkers, podNetworkVolume, templateIdFromRequest, podBillingByGpuType, sumPerBucket].map(
    (e) => [e.name, e],
  ),
);

/** The emulations of one operation, looked up once per list the mapping table holds (it is fixed), not per request. */
const byNames = new WeakMap<string[], Emulation[]>();
const NONE: Emulation[] = [];

export function emulationsFor(names: string[] | undefined): Emulation[] {
  if (names === undefined) return NONE;
  let list = byNames.get(names);
  if (list) return list;
  list = names.map((name) => {
    const impl = emulationImplementations[name];
    if (!impl) throw new Error(`emulation "${name}" named by the mapping table has no gateway implementation`);
    return impl;
  });
  byNames.set(names, list);
  return list;
}

/** The v1 fields one list of emulations handles between them, computed once per list. */
const claimedBy = new WeakMap<Emulation[], ReadonlySet<string>>();

export function fieldsClaimedBy(emulations: Emulation[]): ReadonlySet<string> {
  let claimed = claimedBy.get(emulations);
  if (!claimed) claimedBy.set(emulations, (claimed = new Set(emulations.flatMap((e) => e.fields ?? []))));
  return claimed;
}
