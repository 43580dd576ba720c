// Pods: flat v1 create/update bodies ⇄ nested v2 bodies, and v2 Pod records → v1 Pod records.
import { argv, computeKind, cpuDetails, podCompute, podMounts, podStatus, podVolumeUpdate } from "../converters.ts";
import { cloudTier, gpuDetails, hourlyRate, imageEntrypoint, runtimeAddresses } from "../record-converters.ts";
import type { BodyLens, UnmappedField } from "../../types.ts";

type LostField = NonNullable<BodyLens["v1Lost"]>[number];
import { convert, field, toV1Only, withParts } from "./field.ts";

const placementHint = (v1: string, what: string, harmlessValue?: unknown): UnmappedField => ({
  v1,
  decision: "drop-with-warning",
  ...(harmlessValue === undefined ? {} : { harmlessValue }),
  reason: `v2 has no ${what} placement filter`,
  advice: `choose dataCenterIds (and a GPU type) in v2 directly; ${v1} is ignored`,
});

const entrypoint: UnmappedField = {
  v1: "dockerEntrypoint",
  decision: "reject",
  harmlessValue: [],
  reason: "v2 cannot override the image entrypoint; it only takes `args`",
  advice: "bake the entrypoint into the image (or a template) and pass the command in dockerStartCmd",
};

const mountParts = {
  "mounts.persistent.size": "volumeInGb",
  "mounts.persistent.path": "volumeMountPath",
  "mounts.network.0.volumeId": "networkVolumeId",
  "mounts.network.0.path": "volumeMountPath",
};

const containerFields = [
  field("imageName", "image"),
  field("containerDiskInGb", "disk"),
  field("env", "env"),
  field("ports", "ports"),
  field("containerRegistryAuthId", "registry"),
  convert("dockerStartCmd", "args", argv),
];

export const podCreate: BodyLens = {
  name: "pod-create",
  v1Schema: "PodCreateInput",
  v2Schema: "CreatePodRequest",
  fields: [
    field("name", "name"),
    ...containerFields,
    field("templateId", "templateId"),
    field("cloudType", "cloud"),
    field("dataCenterIds", "dataCenterIds"),
    field("globalNetworking", "globalNetworking"),
    withParts(convert(["volumeInGb", "volumeMountPath", "networkVolumeId", "computeType"], "mounts", podMounts), mountParts),
    withParts(convert(["computeType", "gpuTypeIds", "gpuCount", "allowedCudaVersions", "cpuFlavorIds", "vcpuCount"], ["gpu", "cpu"], podCompute), {
      "gpu.id": "gpuTypeIds",
      "gpu.count": "gpuCount",
      "gpu.allowedCudaVersions": "allowedCudaVersions",
      "cpu.id": "cpuFlavorIds",
      "cpu.vcpuCount": "vcpuCount",
    }),
  ],
  unmapped: [
    entrypoint,
    {
      v1: "interruptible",
      decision: "reject",
      harmlessValue: false,
      reason: "v2 has no interruptible (spot) pods",
      advice: "create an on-demand pod (omit interruptible) or use a Serverless endpoint for interruptible work",
    },
    {
      v1: "locked",
      decision: "emulate",
      harmlessValue: false,
      reason: "v2 create has no `locked`; it is set by PATCH /v2/pods/{id} right after creation",
      advice: "after migrating, send PATCH /v2/pods/{id} {\"locked\": true}",
    },
    { v1: "gpuTypePriority", decision: "drop-with-warning", reason: "v2 always takes the first available type of the list", advice: "order gpuTypeIds by preference" },
    { v1: "dataCenterPriority", decision: "drop-with-warning", reason: "v2 has no data-center priority mode", advice: "order dataCenterIds by preference" },
    { v1: "cpuFlavorPriority", decision: "drop-with-warning", reason: "v2 has no CPU flavour priority mode", advice: "order cpuFlavorIds by preference" },
    placementHint("countryCodes", "country"),
    placementHint("minDiskBandwidthMBps", "disk-bandwidth"),
    placementHint("minDownloadMbps", "download-speed"),
    placementHint("minUploadMbps", "upload-speed"),
    placementHint("minRAMPerGPU", "RAM-per-GPU"),
    placementHint("minVCPUPerGPU", "vCPU-per-GPU"),
    // v1: "set to true if you need the Pod to expose a public IP"; false asks for nothing, so dropping it is exact.
    placementHint("supportPublicIp", "public-IP", false),
  ],
  v1Defaults: {
    containerDiskInGb: 50,
    volumeInGb: 20,
    volumeMountPath: "/workspace",
    gpuCount: 1,
    cloudType: "SECURE",
    computeType: "GPU",
    ports: ["8888/http", "22/tcp"],
    name: "my pod",
  },
  v1DefaultsUnless: "templateId",
  // A v1 template carries no compute (its category only filters the UI): a pod from one was a GPU pod unless computeType said CPU.
  v1DefaultsAlways: ["computeType"],
  v1DefaultsExcept: [
    { field: "volumeInGb", when: { computeType: "CPU" }, reason: "v2 rejects `mounts.persistent` on CPU pods, so v1's default pod volume is not sent for them" },
  ],
  // v2 requires a name even when a template supplies everything else; v1 defaulted it.
  v2Defaults: { name: "my pod" },
  v2Only: [
    { v2: "startJupyter", note: "v2 default false, as v1 behaved without a template" },
    { v2: "startSsh", note: "v2 default false" },
  ],
};

export const podUpdate: BodyLens = {
  name: "pod-update",
  v1Schema: "PodUpdateInput",
  v2Schema: "UpdatePodRequest",
  fields: [
    field("name", "name"),
    ...containerFields,
    field("locked", "locked"),
    field("globalNetworking", "globalNetworking"),
    convert(["volumeInGb", "volumeMountPath"], "mounts", podVolumeUpdate),
  ],
  unmapped: [entrypoint],
};

// v1's pod `gpu` carried the type's whole price sheet; the v2 catalog lists only on-demand prices.
const gpuTermPrices: LostField[] = [
  ...["oneWeekPrice", "oneMonthPrice", "threeMonthPrice", "sixMonthPrice"].map((p) => ({
    v1: `gpu.${p}`,
    reason: "v2 has no savings plans, so the catalog lists no term prices",
    advice: "none: GET /v2/catalog/gpus/{gpu.id} lists the on-demand price (price.secure, price.community)",
  })),
  ...["secureSpotPrice", "communitySpotPrice"].map((p) => ({
    v1: `gpu.${p}`,
    reason: "v2 has no interruptible (spot) pods",
    advice: "none: GET /v2/catalog/gpus/{gpu.id} lists the on-demand price (price.secure, price.community)",
  })),
];

// v1's `machine` described the host; v2 pod records name only its data center and cloud.
const host = (v1: string, advice: string): LostField => ({ v1: `machine.${v1}`, reason: "v2 pod records do not describe the host machine", advice });
const machineDetails: LostField[] = [
  host("gpuType", "GET /v2/catalog/gpus/{gpu.id} (name, price, memory)"),
  host("cpuType", "GET /v2/catalog/cpus/{cpu.id}"),
  host("minPodGpuCount", "none"),
  host("cpuCount", "read the pod's own cpu.vcpuCount"),
  host("location", "GET /v2/catalog/datacenters/{dataCenterId}"),
  host("diskThroughputMBps", "none"),
  host("maxDownloadSpeedMbps", "none"),
  host("maxUploadSpeedMbps", "none"),
  host("supportPublicIp", "read the pod's runtime.ports (a public port has an ip)"),
  host("maintenanceStart", "none"),
  host("maintenanceEnd", "none"),
  host("maintenanceNote", "none"),
  host("note", "none"),
  host("costPerHr", "read the pod's cost (what the pod costs now)"),
  host("currentPricePerGpu", "GET /v2/catalog/gpus/{gpu.id} (price.secure, price.community)"),
  host("gpuAvailable", "GET /v2/catalog/gpus/{gpu.id}?include=AVAILABILITY&product=POD"),
];

export const podRecord: BodyLens = {
  name: "pod-record",
  v1Schema: "Pod",
  v2Schema: "Pod",
  fields: [
    field("id", "id"),
    field("name", "name"),
    convert("desiredStatus", "status", podStatus, "toV1"),
    field("image", "image"),
    field("containerDiskInGb", "disk"),
    field("env", "env"),
    field("ports", "ports"),
    field("containerRegistryAuthId", "registry"),
    convert("dockerStartCmd", "args", argv, "toV1"),
    convert(["volumeInGb", "volumeMountPath", "networkVolume.id"], "mounts", podMounts, "toV1"),
    // v2's gpu is GpuConfig {id, count}; v1's also named the type and its prices (gpuDetailsFromCatalog).
    field("gpu.id", "gpu.id"),
    field("gpu.count", "gpu.count"),
    convert(["gpu.displayName", "gpu.securePrice", "gpu.communityPrice", "machine.gpuDisplayName"], "gpu", gpuDetails, "toV1"),
    convert(["cpuFlavorId", "vcpuCount", "memoryInGb"], "cpu", cpuDetails, "toV1"),
    convert(["costPerHr", "adjustedCostPerHr"], ["cost", "status", "gpu", "cpu", "cloud"], hourlyRate, "toV1"),
    field("locked", "locked"),
    field("lastStartedAt", "startedAt"),
    field("machine.dataCenterId", "dataCenterId"),
    convert(["publicIp", "portMappings"], "runtime", runtimeAddresses, "toV1"),
    convert(["machine.secureCloud", "interruptible"], "cloud", cloudTier, "toV1"),
    convert("dockerEntrypoint", "image", imageEntrypoint, "toV1"),
    toV1Only(field("machine.gpuTypeId", "gpu.id")),
    toV1Only(field("machine.cpuTypeId", "cpu.id")),
    convert("computeType", ["gpu", "cpu"], computeKind, "toV1"),
  ],
  // v2's `template` is documented but stays null: v2 applies a template once and keeps no link.
  v1Lost: [
    { v1: "templateId", reason: "v2 applies a template once and keeps no link to it (a pod's `template` is null)", advice: "keep the template id with your own records; the create answer still carries it (templateIdFromRequest)" },
    { v1: "savingsPlans", reason: "v2 has no savings plans", advice: "none: costPerHr and adjustedCostPerHr are the list price" },
    { v1: "machineId", reason: "v2 pod records do not name the host machine", advice: "use dataCenterId" },
    { v1: "lastStatusChange", reason: "v2 reports status and startedAt, not a status-change text", advice: "read status and startedAt" },
    { v1: "consumerUserId", reason: "v2 pod records do not name the renting user", advice: "the API key's account owns every pod it lists" },
    { v1: "endpointId", reason: "v2 pod records do not name an endpoint (workers are listed per endpoint)", advice: "GET /v2/serverless/{id}/workers" },
    { v1: "aiApiId", reason: "legacy synonym of endpointId, which v2 pods do not have", advice: "GET /v2/serverless/{id}/workers" },
    { v1: "slsVersion", reason: "v2 pod records do not carry a Serverless worker version", advice: "read the worker's version from GET /v2/serverless/{id}/workers" },
    { v1: "volumeEncrypted", reason: "v2 has no encrypted pod volumes", advice: "none" },
    // v1 gave every pod its vCPUs and RAM; v2's `cpu` {vcpuCount, memory} is "omitted from GPU pods".
    ...["vcpuCount", "memoryInGb"].map((v1) => ({
      v1,
      lostFor: "GPU pods",
      reason: "v2 gives a pod's vCPUs and memory only in `cpu`, which it omits from GPU pods (filled for CPU pods)",
      advice: "none for a GPU pod: v2 pod records carry no vCPU count or memory for it; read cpu.vcpuCount / cpu.memory of a CPU pod",
    })),
    ...gpuTermPrices,
    ...machineDetails,
  ],
  v1FromEmulation: [{ v1: "networkVolume", emulation: "podNetworkVolume" }],
  v1AbsentFor: [
    { v1: "cpuFlavorId", records: "GPU pods", note: "v1: \"If the Pod is a CPU Pod, the unique string identifying the CPU flavor\"" },
    { v1: "gpu", records: "CPU pods", note: "v1 computeType CPU: \"the Pod will not have a GPU attached\"" },
    { v1: "publicIp", records: "stopped pods", note: "v1: empty until the pod runs (\"not yet determined\"); v2 gives runtime ports only while it runs" },
  ],
  v1Undocumented: [{ v1: "computeType", note: "derived from gpu/cpu so the v1 ListPods computeType filter can be applied to translated records" }],
  v2Only: [
    { v2: "actions", note: "v1 clients derive allowed actions from desiredStatus" },
    { v2: "ssh", note: "new in v2" },
    { v2: "runtime", note: "new in v2 (utilisation)" },
    { v2: "cudaVersion", note: "new in v2" },
    { v2: "createdAt", note: "v1 records had no creation time" },
    { v2: "globalNetworking", note: "a private cross-data-center address; v1 `publicIp` comes from `runtime.ports` instead" },
  ],
};
