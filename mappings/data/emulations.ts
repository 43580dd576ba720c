// Gateway emulations: where one v1 call needs more than one v2 call, or a lookup, to keep its meaning.
import type { EmulationSpec } from "../types.ts";

const spec = (e: EmulationSpec): EmulationSpec => e;

export const gpuTypePriority = spec({
  name: "gpuTypePriority",
  summary: "v1 pod `gpuTypeIds` with several entries: create with the first type; when v2 refuses it (400: a rule or no capacity, which has no machine-readable code; 403: no access to the pool; 404) try the next, in order.",
  differences: "One v2 create per type tried; the pod gets the first type v2 accepts, as v1 promised. 402, 422, 429 and 5xx stop the search. A rule violation fails on every type, so the client gets the last refusal.",
  upstreamCalls: ["POST /v2/pods (once per GPU type tried)"],
});

export const cpuFlavorPriority = spec({
  name: "cpuFlavorPriority",
  summary: "v1 CPU pod `cpuFlavorIds` with several entries: create with the first flavour; when v2 refuses it (400/403/404) try the next, in order.",
  differences: "One v2 create per flavour tried, as for gpuTypeIds.",
  upstreamCalls: ["POST /v2/pods (once per CPU flavour tried)"],
});

export const lockOnCreate = spec({
  name: "lockOnCreate",
  summary: "v1 pod create with `locked: true`: create, then PATCH the new pod with `{\"locked\": true}`.",
  differences: "Two calls, not atomic: if the PATCH fails the pod exists unlocked and the client gets the error.",
  upstreamCalls: ["POST /v2/pods", "PATCH /v2/pods/{id}"],
});

export const gpuPoolsFromCatalog = spec({
  name: "gpuPoolsFromCatalog",
  summary: "v1 endpoint `gpuTypeIds` become v2 `gpu.pools` + `gpu.excludedTypes` via the GPU catalog, and back.",
  differences: "The catalog is cached per API key (bounded LRU, short TTL). Read-back lists the allowed types in pool order, not in the order the client sent.",
  upstreamCalls: ["GET /v2/catalog/gpus (cached per API key)"],
});

export const scalingReadModifyWrite = spec({
  name: "scalingReadModifyWrite",
  summary: "v1 endpoint update with only one of `scalerType` / `scalerValue`: read the endpoint's current `scaling` and send the completed object.",
  differences: "A concurrent change to scaling between the read and the PATCH can be overwritten.",
  upstreamCalls: ["GET /v2/serverless/{id}", "PATCH /v2/serverless/{id}"],
});

export const endpointCpuReadModifyWrite = spec({
  name: "endpointCpuReadModifyWrite",
  summary: "v1 CPU endpoint update with only `vcpuCount` or only `cpuFlavorIds`: read the endpoint's current `cpu` list and send the complete replacement list.",
  differences: "A concurrent change between the read and the PATCH can be overwritten. On a GPU endpoint vcpuCount is ignored with a warning.",
  upstreamCalls: ["GET /v2/serverless/{id}", "PATCH /v2/serverless/{id}"],
});

export const flashbootKeepsPriority = spec({
  name: "flashbootKeepsPriority",
  summary: "v1 endpoint update with `flashboot: true` on an endpoint in PRIORITY_FLASHBOOT: flashboot is left out of the PATCH, so priority capacity is kept.",
  differences: "None visible to a v1 client (it reads true either way).",
  upstreamCalls: ["GET /v2/serverless/{id}", "PATCH /v2/serverless/{id} (or no PATCH when nothing else changes)"],
});

export const podMountsReadModifyWrite = spec({
  name: "podMountsReadModifyWrite",
  summary: "v1 pod update with `volumeMountPath` or `volumeInGb` alone, or on a pod whose volume is a network volume: read the pod and send its complete mount of the kind it has (`persistent` {size, path} or `network` [{volumeId, path}]).",
  differences: "A concurrent change between the read and the PATCH can be overwritten; volumeInGb on a network-volume pod is ignored with a warning.",
  upstreamCalls: ["GET /v2/pods/{id}", "PATCH /v2/pods/{id}"],
});

export const templateMountsReadModifyWrite = spec({
  name: "templateMountsReadModifyWrite",
  summary: "v1 template update with `volumeMountPath` or `volumeInGb` alone: read the template and send its complete mount (`persistent` {size, path}), so a path alone moves the volume and a size alone keeps the template's own path.",
  differences: "A concurrent change between the read and the PATCH can be overwritten; volumeMountPath alone on a template without a volume is ignored with a warning (v2 keeps no path without a size).",
  upstreamCalls: ["GET /v2/templates/{id}", "PATCH /v2/templates/{id}"],
});

export const listFilters = spec({
  name: "listFilters",
  summary: "v1 list filters (`desiredStatus`, `gpuTypeId`, `name`, …) are applied by the gateway to the translated records.",
  differences: "v2 returns the whole list and the gateway filters it; results are the same, the upstream cost is not.",
  upstreamCalls: ["GET /v2/pods"],
});

export const resetAsRestart = spec({
  name: "resetAsRestart",
  summary: "Opt-in (`--reset-policy restart`): v1 reset is sent as the v2 `restart` action.",
  differences: "v1 reset also wiped the container disk; restart keeps it. Use only where the container disk holds nothing that reset was meant to clear.",
  upstreamCalls: ["POST /v2/pods/{id}/action {\"action\":\"restart\"}"],
});

export const actionWaitsForBoot = spec({
  name: "actionWaitsForBoot",
  summary: "v1 RestartPod / StopPod on a pod that is still booting (v1 shows `desiredStatus: RUNNING` at once; v2 answers 409 while the pod is PROVISIONING or STARTING and the action is not among its `actions`): poll the pod with backoff, within the request's deadline, and send the action once v2 allows it.",
  differences: "The answer waits for the boot (up to --upstream-deadline, less a reserve for the action itself). Past that, a v1 409 says the pod is still starting and to retry. A 409 for another reason (a locked pod, a stopped one) is answered at once.",
  upstreamCalls: ["POST /v2/pods/{id}/action", "GET /v2/pods/{id} (polled with backoff while the pod boots)", "POST /v2/pods/{id}/action (again, once allowed)"],
});

export const emptyUpdateAsRead = spec({
  name: "emptyUpdateAsRead",
  summary: "v1 network-volume update with nothing to change: v2 rejects an empty PATCH, so the gateway answers with the current record (GET).",
  differences: "None visible to the client: v1 answered the unchanged volume.",
  upstreamCalls: ["GET /v2/network-volumes/{id}"],
});

export const servePublishedDocument = spec({
  name: "servePublishedDocument",
  summary: "The gateway serves the published v1 OpenAPI document (and a docs page) itself; v2 has no v1 document.",
  differences: "Served from the gateway's reference directory; 404 when it has none.",
  upstreamCalls: [],
});

export const hourlyRateFromCatalog = spec({
  name: "hourlyRateFromCatalog",
  summary: "v1 pod `costPerHr` / `adjustedCostPerHr` of a pod that is not running: the catalog's list price (GPU type × count by cloud, or CPU flavour × vCPUs) instead of v2's current spend of 0.",
  differences: "List price, not a negotiated or savings-plan price (v1 adjustedCostPerHr applied savings plans; v2 has none).",
  upstreamCalls: ["GET /v2/catalog/gpus and GET /v2/catalog/cpus (cached per API key)"],
});

export const gpuDetailsFromCatalog = spec({
  name: "gpuDetailsFromCatalog",
  summary: "v1 pod `gpu.displayName`, `gpu.securePrice`, `gpu.communityPrice` (and `machine.gpuDisplayName`): v2's `gpu` is only `{id, count}`; the gateway fills them from the catalog row of `gpu.id` (`name`, `price.secure`, `price.community`: list price per GPU).",
  differences: "List prices, as for the hourly rate (no negotiated price). v1's term and spot prices (oneWeekPrice … sixMonthPrice, secureSpotPrice, communitySpotPrice) have no v2 source and are declared lost. A GPU type the catalog does not list leaves the fields out.",
  upstreamCalls: ["GET /v2/catalog/gpus (cached per API key)"],
});

export const catalogTemplates = spec({
  name: "catalogTemplates",
  summary: "v1 ListTemplates with `includeRunpodTemplates` / `includePublicTemplates`: the v2 catalog's official (resp. verified and community) templates are appended, translated, with `isRunpod` set for official ones.",
  differences: "At most 100 templates per catalog source (v2 has no paging yet).",
  upstreamCalls: ["GET /v2/templates", "GET /v2/catalog/templates?source=official | verified | community"],
});

export const endpointWorkers = spec({
  name: "endpointWorkers",
  summary: "v1 GetEndpoint / ListEndpoints with `includeWorkers`: each endpoint's v2 workers become the v1 pod records under `workers` (id, image, GPU, data center, start time).",
  differences: "Worker records carry fewer fields than v1's worker pods (no cost, ports or volume). Lists expand at most 50 endpoints.",
  upstreamCalls: ["GET /v2/serverless/{id}/workers (per endpoint)"],
});

export const podNetworkVolume = spec({
  name: "podNetworkVolume",
  summary: "v1 GetPod / ListPods with `includeNetworkVolume`: the pod's `networkVolume` gets the volume's name, size and data center.",
  differences: "None visible to a v1 client.",
  upstreamCalls: ["GET /v2/network-volumes (once per request)"],
});

export const templateIdFromRequest = spec({
  name: "templateIdFromRequest",
  summary: "v1 CreatePod / CreateEndpoint answers name the `templateId` the client sent; v2 keeps no link to the template.",
  differences: "Only the create answer: later reads and update answers of the pod or endpoint have no templateId (declared lost in the table, and in a V2-Bridge-Warning on each such answer).",
  upstreamCalls: [],
});

export const podBillingByGpuType = spec({
  name: "podBillingByGpuType",
  summary: "v1 pod billing with its default `grouping=gpuTypeId` (or a `gpuTypeId` filter): each pod's records are attributed to its GPU type (CPU pods: their CPU flavour) from GET /v2/pods and summed per bucket and type. `grouping=podId` is v2's own shape and passes unchanged.",
  differences: "Pods v2 no longer lists (terminated) cannot be attributed: their amounts form a group without gpuTypeId, with a V2-Bridge-Warning.",
  upstreamCalls: ["GET /v2/billing/pods", "GET /v2/pods"],
});

export const sumPerBucket = spec({
  name: "sumPerBucket",
  summary: "v1 network-volume billing: one record per bucket for the account. v2 reports per volume per bucket; the gateway sums `amount` and `highPerformanceStorageAmount` per bucket.",
  differences: "None visible to a v1 client.",
  upstreamCalls: ["GET /v2/billing/network-volumes"],
});

/** Every emulation, in documentation order. */
export const emulations: EmulationSpec[] = [
  gpuTypePriority,
  cpuFlavorPriority,
  lockOnCreate,
  gpuPoolsFromCatalog,
  scalingReadModifyWrite,
  endpointCpuReadModifyWrite,
  flashbootKeepsPriority,
  podMountsReadModifyWrite,
  templateMountsReadModifyWrite,
  listFilters,
  resetAsRestart,
  actionWaitsForBoot,
  emptyUpdateAsRead,
  servePublishedDocument,
  hourlyRateFromCatalog,
  gpuDetailsFromCatalog,
  catalogTemplates,
  endpointWorkers,
  podNetworkVolume,
  templateIdFromRequest,
  podBillingByGpuType,
  sumPerBucket,
];

/** The names an operation entry lists, from the specs themselves (a typo is a compile error). */
export function uses(...specs: EmulationSpec[]): string[] {
  return specs.map((e) => e.name);
}

export function emulationNamed(name: string): EmulationSpec {
  const spec = emulations.find((e) => e.name === name);
  if (!spec) throw new Error(`unknown emulation "${name}"`);
  return spec;
}
