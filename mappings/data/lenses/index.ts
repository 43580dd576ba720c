// Every body/record lens by name.
import type { BodyLens } from "../../types.ts";
import { podCreate, podRecord, podUpdate } from "./pod.ts";
import { endpointCreate, endpointRecord, endpointUpdate } from "./endpoint.ts";
import { templateCreate, templateRecord, templateUpdate } from "./template.ts";
import { networkVolumeCreate, networkVolumeRecord, networkVolumeUpdate } from "./network-volume.ts";
import { registryCreate, registryRecord } from "./registry.ts";
import { workerRecord } from "./worker.ts";
import { networkVolumeBillingRecord, podBillingRecord, serverlessBillingRecord } from "./billing.ts";

export { podCreate, podRecord, podUpdate, endpointCreate, endpointRecord, endpointUpdate, templateCreate, templateRecord, templateUpdate };
export { networkVolumeCreate, networkVolumeRecord, networkVolumeUpdate, registryCreate, registryRecord, workerRecord };
export { networkVolumeBillingRecord, podBillingRecord, serverlessBillingRecord };

export const lenses: Record<string, BodyLens> = Object.fromEntries(
  [
    podCreate, podUpdate, podRecord,
    endpointCreate, endpointUpdate, endpointRecord,
    templateCreate, templateUpdate, templateRecord,
    networkVolumeCreate, networkVolumeUpdate, networkVolumeRecord,
    registryCreate, registryRecord,
    podBillingRecord, serverlessBillingRecord, networkVolumeBillingRecord,
    workerRecord,
  ].map((lens) => [lens.name, lens]),
);

export function lensNamed(name: string): BodyLens {
  const lens = lenses[name];
  if (!lens) throw new Error(`unknown lens "${name}"`);
  return lens;
}
