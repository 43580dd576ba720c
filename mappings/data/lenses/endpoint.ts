// Serverless endpoints: v1 flat worker/scaler fields ⇄ v2 nested `workers` and `scaling`.
import { computeKind, endpointCpu, endpointCpuUpdate, endpointGpu, endpointGpuUpdate, flashboot, flashbootUpdate, idleTimeout, networkVolumeList, scaling, scalingUpdate } from "../converters.ts";
import type { BodyLens, Converter, UnmappedField } from "../../types.ts";
import { convert, field, withParts } from "./field.ts";

const gpuPriority: UnmappedField = {
  v1: "gpuTypeIds",
  decision: "emulate",
  reason: "v2 endpoints choose GPU pools, not GPU types; the gateway resolves types to pools via the catalog",
  advice: "list GPU pools in gpu.pools (GET /v2/catalog/gpus shows each type's pool)",
};

const cpuParts = { "cpu.0.id": "cpuFlavorIds", "cpu.0.vcpuCount": "vcpuCount" };

/** Fields every endpoint lens shares; `scaler` is how the scaler pair converts (updates need the current scaling for half a pair). */
const commonWith = (scaler: Converter, boot: Converter) => [
  field("name", "name"),
  field("templateId", "templateId"),
  field("workersMin", "workers.min"),
  field("workersMax", "workers.max"),
  withParts(convert(["scalerType", "scalerValue"], "scaling", scaler), { "scaling.type": "scalerType", "scaling.queueDelay": "scalerValue", "scaling.requestCount": "scalerValue" }),
  field("executionTimeoutMs", "timeout"),
  convert("flashboot", "flashboot", boot),
  field("dataCenterIds", "dataCenterIds"),
  convert(["networkVolumeId", "networkVolumeIds"], "networkVolumes", networkVolumeList),
];
const common = commonWith(scaling, flashboot);

const gpuFields = ["gpuTypeIds", "gpuCount", "allowedCudaVersions", "minCudaVersion"];
const gpuParts = {
  "gpu.pools": "gpuTypeIds",
  "gpu.excludedTypes": "gpuTypeIds",
  "gpu.count": "gpuCount",
  "gpu.allowedCudaVersions": "allowedCudaVersions",
  "gpu.minCudaVersion": "minCudaVersion",
};
// Requests: v2 rejects an idle timeout with REQUEST_COUNT scaling, so the converter needs the scaler type.
const idleTimeoutRequest = withParts(convert(["idleTimeout", "scalerType"], "workers.idleTimeout", idleTimeout), { "workers.idleTimeout": "idleTimeout" });

export const endpointCreate: BodyLens = {
  name: "endpoint-create",
  v1Schema: "EndpointCreateInput",
  v2Schema: "CreateEndpointRequest",
  fields: [
    ...common,
    idleTimeoutRequest,
    withParts(convert(gpuFields, "gpu", endpointGpu), gpuParts),
    withParts(convert(["cpuFlavorIds", "vcpuCount", "computeType"], "cpu", endpointCpu), cpuParts),
  ],
  unmapped: [gpuPriority],
  v1Defaults: { computeType: "GPU", idleTimeout: 5, scalerType: "QUEUE_DELAY", scalerValue: 4 },
  v1DefaultsExcept: [
    { field: "idleTimeout", when: { scalerType: "REQUEST_COUNT" }, reason: "v2 rejects `workers.idleTimeout` on queue-based endpoints scaling on REQUEST_COUNT" },
  ],
  // v2 requires a name and a type; v1 endpoints were all queue-based and could be unnamed.
  v2Defaults: { type: "QUEUE", name: "v1-endpoint" },
  v2Only: [{ v2: "type", note: "v1 endpoints were all queue-based: QUEUE" }],
};

export const endpointUpdate: BodyLens = {
  name: "endpoint-update",
  v1Schema: "EndpointUpdateInput",
  v2Schema: "UpdateEndpointRequest",
  fields: [
    ...commonWith(scalingUpdate, flashbootUpdate),
    idleTimeoutRequest,
    withParts(convert(gpuFields, "gpu", endpointGpuUpdate), gpuParts),
    withParts(convert(["cpuFlavorIds", "vcpuCount"], "cpu", endpointCpuUpdate), cpuParts),
  ],
  unmapped: [gpuPriority],
};

export const endpointRecord: BodyLens = {
  name: "endpoint-record",
  v1Schema: "Endpoint",
  v2Schema: "Endpoint",
  // v2 endpoint records do not name their template, so templateId cannot come back.
  fields: [
    field("id", "id"),
    ...common.filter((f) => f.v1[0] !== "templateId"),
    field("idleTimeout", "workers.idleTimeout"),
    withParts(convert(gpuFields, "gpu", endpointGpu), gpuParts),
    convert("computeType", ["gpu", "cpu"], computeKind, "toV1"),
    field("env", "env"),
    field("createdAt", "createdAt"),
  ],
  v2Only: [
    { v2: "image", note: "v1 endpoint records named the template instead" },
    { v2: "requestUrls", note: "new in v2" },
    { v2: "type", note: "new in v2" },
  ],
  v1Lost: [
    { v1: "templateId", reason: "v2 applies a template once and keeps no link to it; endpoint records do not name one", advice: "keep the template id with your own records; the create answer still carries it (templateIdFromRequest)" },
    { v1: "template", reason: "v2 endpoint records do not name a template to expand", advice: "read image, args, env from the v2 endpoint itself" },
    { v1: "instanceIds", reason: "v2 endpoint records do not list worker instances", advice: "GET /v2/serverless/{id}/workers (or v1 includeWorkers)" },
    { v1: "userId", reason: "v2 endpoint records do not name the owner", advice: "the API key's account owns every endpoint it lists" },
    { v1: "version", reason: "v2 reports the endpoint's configuration version only in the workers list (`endpointVersion`)", advice: "GET /v2/serverless/{id}/workers" },
  ],
  v1FromEmulation: [{ v1: "workers", emulation: "endpointWorkers" }],
  v1AbsentFor: [
    ...["gpuTypeIds", "gpuCount", "allowedCudaVersions"].map((v1) => ({ v1, records: "CPU endpoints", note: "v1 computeType CPU: \"properties related to GPUs such as gpuTypeIds will be ignored\"" })),
    { v1: "minCudaVersion", records: "endpoints without a CUDA floor", note: "v1: the floor an endpoint was given, if any" },
  ],
  v1Undocumented: [{ v1: "flashboot", note: "v1 endpoints returned flashboot though the v1 Endpoint schema omits it" }],
};
