// One entry per v1 operation in v1-openapi.json (37, counting the POST …/update synonyms).
// Read this file to answer "what does v1 X become in v2?".
import type { OperationEntry } from "../types.ts";
import { dropInclude, undeclaredInclude, includeField, expand, ownTemplatesOnly, allOwnTemplates, anyReadableTemplate, includeNetworkVolume, includeWorkers, podWorkers, filter } from "./query-decisions.ts";
import { uses, actionWaitsForBoot, catalogTemplates, cpuFlavorPriority, emptyUpdateAsRead, endpointCpuReadModifyWrite, endpointWorkers, flashbootKeepsPriority, gpuDetailsFromCatalog, gpuPoolsFromCatalog, gpuTypePriority, hourlyRateFromCatalog, listFilters, lockOnCreate, podMountsReadModifyWrite, podNetworkVolume, resetAsRestart, scalingReadModifyWrite, servePublishedDocument, templateIdFromRequest, templateMountsReadModifyWrite } from "./emulations.ts";
import { billingOperations } from "./operations-billing.ts";
import { endpointCreate, endpointRecord, endpointUpdate, networkVolumeCreate, networkVolumeRecord, networkVolumeUpdate, podCreate, podRecord, podUpdate, registryCreate, registryRecord, templateCreate, templateRecord, templateUpdate } from "./lenses/index.ts";

const ID = { podId: "id" };

/** v1 accepted `POST /<resource>/{id}/update` as a synonym of `PATCH /<resource>/{id}`. */
function withPostUpdateSynonym(patch: OperationEntry): OperationEntry[] {
  const synonym: OperationEntry = {
    ...patch,
    key: `${patch.key}#post-update`,
    summary: `${patch.summary} (POST synonym)`,
    v1: { ...patch.v1, method: "POST", path: `${patch.v1.path}/update` },
  };
  return [patch, synonym];
}

/** The table entries; each operation's version changes are computed from them (changes.ts). */
export const operationEntries: OperationEntry[] = [
  // ── documents ──────────────────────────────────────────────────────────
  {
    key: "GetOpenAPI",
    summary: "The published v1 OpenAPI document",
    v1: { operationId: "GetOpenAPI", method: "GET", path: "/openapi.json", status: 200 },
    v2: null,
    status: "emulated",
    response: { kind: "document" },
    emulations: uses(servePublishedDocument),
  },
  {
    key: "GetDocs",
    summary: "Interactive v1 documentation page",
    v1: { operationId: "GetDocs", method: "GET", path: "/docs", status: 200 },
    v2: null,
    status: "emulated",
    response: { kind: "html" },
    emulations: uses(servePublishedDocument),
  },

  // ── pods ───────────────────────────────────────────────────────────────
  {
    key: "CreatePod",
    summary: "Create a pod",
    v1: { operationId: "CreatePod", method: "POST", path: "/pods", status: 201 },
    v2: { operationId: "createPod", method: "POST", path: "/v2/pods", status: 201 },
    status: "mapped",
    request: { lens: podCreate.name },
    response: { kind: "record", lens: podRecord.name },
    emulations: uses(gpuTypePriority, cpuFlavorPriority, lockOnCreate, hourlyRateFromCatalog, gpuDetailsFromCatalog, templateIdFromRequest),
  },
  {
    key: "ListPods",
    summary: "List pods",
    v1: { operationId: "ListPods", method: "GET", path: "/pods", status: 200 },
    v2: { operationId: "listPods", method: "GET", path: "/v2/pods", status: 200 },
    status: "mapped",
    query: [
      filter("computeType"),
      filter("cpuFlavorId"),
      filter("dataCenterId", "machine.dataCenterId"),
      filter("desiredStatus"),
      {
        v1: "endpointId",
        decision: "reject",
        reason: "v2 pod records do not say which Serverless endpoint they serve, so the filter cannot be emulated",
        advice: "list the endpoint's workers with GET /v2/serverless/{id}/workers",
      },
      filter("gpuTypeId", "gpu.id"),
      filter("id"),
      filter("imageName", "image"),
      filter("name"),
      filter("networkVolumeId", "networkVolume.id"),
      filter("templateId"),
      includeField("includeMachine", "machine", "read dataCenterId and cost from the v2 pod"),
      includeNetworkVolume,
      includeField("includeSavingsPlans", "savingsPlans", "savings plans are not in v2 pod records"),
      undeclaredInclude("includeTemplate", "fetch GET /v2/templates/{id} for the pod's template"),
      podWorkers,
    ],
    response: { kind: "list", wrapper: "pods", lens: podRecord.name },
    emulations: uses(listFilters, hourlyRateFromCatalog, gpuDetailsFromCatalog, podNetworkVolume),
  },
  {
    key: "GetPod",
    summary: "Get a pod",
    v1: { operationId: "GetPod", method: "GET", path: "/pods/{podId}", status: 200 },
    v2: { operationId: "getPod", method: "GET", path: "/v2/pods/{id}", status: 200 },
    status: "mapped",
    pathParams: ID,
    query: [
      includeField("includeMachine", "machine", "read dataCenterId and cost from the v2 pod"),
      includeNetworkVolume,
      includeField("includeSavingsPlans", "savingsPlans", "savings plans are not in v2 pod records"),
      undeclaredInclude("includeTemplate", "fetch GET /v2/templates/{id} for the pod's template"),
      podWorkers,
    ],
    response: { kind: "record", lens: podRecord.name },
    emulations: uses(hourlyRateFromCatalog, gpuDetailsFromCatalog, podNetworkVolume),
  },
  ...withPostUpdateSynonym({
    key: "UpdatePod",
    summary: "Update a pod",
    v1: { operationId: "UpdatePod", method: "PATCH", path: "/pods/{podId}", status: 200 },
    v2: { operationId: "updatePod", method: "PATCH", path: "/v2/pods/{id}", status: 200 },
    status: "mapped",
    pathParams: ID,
    request: { lens: podUpdate.name },
    response: { kind: "record", lens: podRecord.name },
    emulations: uses(podMountsReadModifyWrite, hourlyRateFromCatalog, gpuDetailsFromCatalog),
  }),
  {
    key: "DeletePod",
    summary: "Delete (terminate) a pod",
    v1: { operationId: "DeletePod", method: "DELETE", path: "/pods/{podId}", status: 204 },
    v2: { operationId: "deletePod", method: "DELETE", path: "/v2/pods/{id}", status: 204 },
    status: "mapped",
    pathParams: ID,
    response: { kind: "empty" },
  },
  ...(["start", "stop", "restart"] as const).map((action): OperationEntry => ({
    key: `${action[0]!.toUpperCase()}${action.slice(1)}Pod`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a pod`,
    v1: { operationId: `${action[0]!.toUpperCase()}${action.slice(1)}Pod`, method: "POST", path: `/pods/{podId}/${action}`, status: 200 },
    v2: { operationId: "podAction", method: "POST", path: "/v2/pods/{id}/action", status: 200 },
    status: "mapped",
    pathParams: ID,
    request: { fixedBody: { action } },
    response: { kind: "empty" },
    // v2 answers start, stop and restart with the updated pod.
    v2AnswerRecord: podRecord,
    // start is refused on a booting pod because it is not stopped, not because it is booting.
    ...(action === "start" ? {} : { emulations: uses(actionWaitsForBoot) }),
  })),
  {
    key: "ResetPod",
    summary: "Reset a pod",
    v1: { operationId: "ResetPod", method: "POST", path: "/pods/{podId}/reset", status: 200 },
    v2: null,
    status: "no-equivalent",
    pathParams: ID,
    response: { kind: "empty" },
    emulations: uses(resetAsRestart),
    decision: {
      policy: "reject",
      errorStatus: 400,
      message: "pod reset has no v2 equivalent (v2 pod actions are start, stop, restart, terminate)",
      advice: "call POST /v1/pods/{podId}/stop then /start (or v2 POST /v2/pods/{id}/action {\"action\":\"restart\"}); to recreate the container disk, terminate and create the pod again. Operators can opt in to sending restart instead (--reset-policy restart).",
    },
  },

  // ── serverless endpoints ──────────────────────────────────────────────
  {
    key: "CreateEndpoint",
    summary: "Create a Serverless endpoint",
    v1: { operationId: "CreateEndpoint", method: "POST", path: "/endpoints", status: 200 },
    v2: { operationId: "createEndpoint", method: "POST", path: "/v2/serverless", status: 201 },
    status: "mapped",
    request: { lens: endpointCreate.name },
    response: { kind: "record", lens: endpointRecord.name },
    emulations: uses(gpuPoolsFromCatalog, templateIdFromRequest),
  },
  {
    key: "ListEndpoints",
    summary: "List Serverless endpoints",
    v1: { operationId: "ListEndpoints", method: "GET", path: "/endpoints", status: 200 },
    v2: { operationId: "listEndpoints", method: "GET", path: "/v2/serverless", status: 200 },
    status: "mapped",
    query: [
      includeField("includeTemplate", "template", "fetch GET /v2/templates/{id}"),
      includeWorkers,
    ],
    response: { kind: "list", wrapper: "endpoints", lens: endpointRecord.name },
    emulations: uses(gpuPoolsFromCatalog, endpointWorkers),
  },
  {
    key: "GetEndpoint",
    summary: "Get a Serverless endpoint",
    v1: { operationId: "GetEndpoint", method: "GET", path: "/endpoints/{endpointId}", status: 200 },
    v2: { operationId: "getEndpoint", method: "GET", path: "/v2/serverless/{id}", status: 200 },
    status: "mapped",
    pathParams: { endpointId: "id" },
    query: [
      includeField("includeTemplate", "template", "fetch GET /v2/templates/{id}"),
      includeWorkers,
    ],
    response: { kind: "record", lens: endpointRecord.name },
    emulations: uses(gpuPoolsFromCatalog, endpointWorkers),
  },
  ...withPostUpdateSynonym({
    key: "UpdateEndpoint",
    summary: "Update a Serverless endpoint",
    v1: { operationId: "UpdateEndpoint", method: "PATCH", path: "/endpoints/{endpointId}", status: 200 },
    v2: { operationId: "updateEndpoint", method: "PATCH", path: "/v2/serverless/{id}", status: 200 },
    status: "mapped",
    pathParams: { endpointId: "id" },
    request: { lens: endpointUpdate.name },
    response: { kind: "record", lens: endpointRecord.name },
    emulations: uses(gpuPoolsFromCatalog, scalingReadModifyWrite, endpointCpuReadModifyWrite, flashbootKeepsPriority),
  }),
  {
    key: "DeleteEndpoint",
    summary: "Delete a Serverless endpoint",
    v1: { operationId: "DeleteEndpoint", method: "DELETE", path: "/endpoints/{endpointId}", status: 204 },
    v2: { operationId: "deleteEndpoint", method: "DELETE", path: "/v2/serverless/{id}", status: 204 },
    status: "mapped",
    pathParams: { endpointId: "id" },
    response: { kind: "empty" },
  },

  // ── templates ─────────────────────────────────────────────────────────
  {
    key: "CreateTemplate",
    summary: "Create a template",
    v1: { operationId: "CreateTemplate", method: "POST", path: "/templates", status: 200 },
    v2: { operationId: "createTemplate", method: "POST", path: "/v2/templates", status: 201 },
    status: "mapped",
    request: { lens: templateCreate.name },
    response: { kind: "record", lens: templateRecord.name },
  },
  {
    key: "ListTemplates",
    summary: "List templates",
    v1: { operationId: "ListTemplates", method: "GET", path: "/templates", status: 200 },
    v2: { operationId: "listTemplates", method: "GET", path: "/v2/templates", status: 200 },
    status: "mapped",
    query: [
      {
        ...dropInclude("includeEndpointBoundTemplates", "v2 lists all of your templates", allOwnTemplates),
        // Left out, v1 took false: a list without the templates bound to serverless endpoints.
        v1Default: { value: "false", reason: "v1 left endpoint-bound templates out by default, GET /v2/templates lists them", advice: "filter the list on the client where the code counts or shows only pod templates (v2 templates say serverless: true)" },
      },
      expand("includePublicTemplates", "v2 lists public templates in its catalog; the gateway appends them", "list them with GET /v2/catalog/templates?source=community (and verified)", ownTemplatesOnly),
      expand("includeRunpodTemplates", "v2 lists official templates in its catalog; the gateway appends them", "list them with GET /v2/catalog/templates (source official)", ownTemplatesOnly),
    ],
    response: { kind: "list", wrapper: "templates", lens: templateRecord.name },
    emulations: uses(catalogTemplates),
  },
  {
    key: "GetTemplate",
    summary: "Get a template",
    v1: { operationId: "GetTemplate", method: "GET", path: "/templates/{templateId}", status: 200 },
    v2: { operationId: "getTemplate", method: "GET", path: "/v2/templates/{id}", status: 200 },
    status: "mapped",
    pathParams: { templateId: "id" },
    query: [
      dropInclude("includeEndpointBoundTemplates", "v2 returns the template regardless", anyReadableTemplate),
      dropInclude("includePublicTemplates", "use GET /v2/catalog/templates", anyReadableTemplate),
      dropInclude("includeRunpodTemplates", "use GET /v2/catalog/templates", anyReadableTemplate),
    ],
    response: { kind: "record", lens: templateRecord.name },
  },
  ...withPostUpdateSynonym({
    key: "UpdateTemplate",
    summary: "Update a template",
    v1: { operationId: "UpdateTemplate", method: "PATCH", path: "/templates/{templateId}", status: 200 },
    v2: { operationId: "updateTemplate", method: "PATCH", path: "/v2/templates/{id}", status: 200 },
    status: "mapped",
    pathParams: { templateId: "id" },
    request: { lens: templateUpdate.name },
    response: { kind: "record", lens: templateRecord.name },
    emulations: uses(templateMountsReadModifyWrite),
  }),
  {
    key: "DeleteTemplate",
    summary: "Delete a template",
    v1: { operationId: "DeleteTemplate", method: "DELETE", path: "/templates/{templateId}", status: 204 },
    v2: { operationId: "deleteTemplate", method: "DELETE", path: "/v2/templates/{id}", status: 204 },
    status: "mapped",
    pathParams: { templateId: "id" },
    response: { kind: "empty" },
  },

  // ── network volumes ───────────────────────────────────────────────────
  {
    key: "CreateNetworkVolume",
    summary: "Create a network volume",
    v1: { operationId: "CreateNetworkVolume", method: "POST", path: "/networkvolumes", status: 200 },
    v2: { operationId: "createNetworkVolume", method: "POST", path: "/v2/network-volumes", status: 201 },
    status: "mapped",
    request: { lens: networkVolumeCreate.name },
    response: { kind: "record", lens: networkVolumeRecord.name },
  },
  {
    key: "ListNetworkVolumes",
    summary: "List network volumes",
    v1: { operationId: "ListNetworkVolumes", method: "GET", path: "/networkvolumes", status: 200 },
    v2: { operationId: "listNetworkVolumes", method: "GET", path: "/v2/network-volumes", status: 200 },
    status: "mapped",
    response: { kind: "list", wrapper: "networkVolumes", lens: networkVolumeRecord.name },
  },
  {
    key: "GetNetworkVolume",
    summary: "Get a network volume",
    v1: { operationId: "GetNetworkVolume", method: "GET", path: "/networkvolumes/{networkVolumeId}", status: 200 },
    v2: { operationId: "getNetworkVolume", method: "GET", path: "/v2/network-volumes/{id}", status: 200 },
    status: "mapped",
    pathParams: { networkVolumeId: "id" },
    response: { kind: "record", lens: networkVolumeRecord.name },
  },
  ...withPostUpdateSynonym({
    key: "UpdateNetworkVolume",
    summary: "Update a network volume",
    v1: { operationId: "UpdateNetworkVolume", method: "PATCH", path: "/networkvolumes/{networkVolumeId}", status: 200 },
    v2: { operationId: "updateNetworkVolume", method: "PATCH", path: "/v2/network-volumes/{id}", status: 200 },
    status: "mapped",
    pathParams: { networkVolumeId: "id" },
    request: { lens: networkVolumeUpdate.name },
    response: { kind: "record", lens: networkVolumeRecord.name },
    emulations: uses(emptyUpdateAsRead),
  }),
  {
    key: "DeleteNetworkVolume",
    summary: "Delete a network volume",
    v1: { operationId: "DeleteNetworkVolume", method: "DELETE", path: "/networkvolumes/{networkVolumeId}", status: 204 },
    v2: { operationId: "deleteNetworkVolume", method: "DELETE", path: "/v2/network-volumes/{id}", status: 204 },
    status: "mapped",
    pathParams: { networkVolumeId: "id" },
    response: { kind: "empty" },
  },

  // ── container registry credentials ────────────────────────────────────
  {
    key: "CreateContainerRegistryAuth",
    summary: "Create registry credentials",
    v1: { operationId: "CreateContainerRegistryAuth", method: "POST", path: "/containerregistryauth", status: 200 },
    v2: { operationId: "createRegistry", method: "POST", path: "/v2/registries", status: 201 },
    status: "mapped",
    request: { lens: registryCreate.name },
    response: { kind: "record", lens: registryRecord.name },
  },
  {
    key: "ListContainerRegistryAuths",
    summary: "List registry credentials",
    v1: { operationId: "ListContainerRegistryAuths", method: "GET", path: "/containerregistryauth", status: 200 },
    v2: { operationId: "listRegistries", method: "GET", path: "/v2/registries", status: 200 },
    status: "mapped",
    response: { kind: "list", wrapper: "registries", lens: registryRecord.name },
  },
  {
    key: "GetContainerRegistryAuth",
    summary: "Get registry credentials",
    v1: { operationId: "GetContainerRegistryAuth", method: "GET", path: "/containerregistryauth/{containerRegistryAuthId}", status: 200 },
    v2: { operationId: "getRegistry", method: "GET", path: "/v2/registries/{id}", status: 200 },
    status: "mapped",
    pathParams: { containerRegistryAuthId: "id" },
    response: { kind: "record", lens: registryRecord.name },
  },
  {
    key: "DeleteContainerRegistryAuth",
    summary: "Delete registry credentials",
    v1: { operationId: "DeleteContainerRegistryAuth", method: "DELETE", path: "/containerregistryauth/{containerRegistryAuthId}", status: 204 },
    v2: { operationId: "deleteRegistry", method: "DELETE", path: "/v2/registries/{id}", status: 204 },
    status: "mapped",
    pathParams: { containerRegistryAuthId: "id" },
    response: { kind: "empty" },
  },

  ...billingOperations,
];
