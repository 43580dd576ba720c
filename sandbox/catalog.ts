// Built-in catalog data of the sandbox: GPU types (with v1's GPU type names as ids), CPU
// flavours, data centers, public templates and the seeded billing history. Exported so tests and
// the gateway's tests can refer to the same facts. A curated core (prices, pools, placement) is
// extended when the module loads with every other id the v1 and v2 documents name, so any id a
// client of either version may send is known (sandbox/catalog-from-documents.ts).
import { tryLoadV1, tryLoadV2 } from "../openapi/reference.ts";
import { gpuFamily, namedCatalogIds, regionOf } from "./catalog-from-documents.ts";

export type SandboxGpuType = {
  id: string;
  name: string;
  pool: string | null;
  manufacturer: "NVIDIA" | "AMD" | "UNKNOWN";
  memory: number;
  secure: boolean;
  community: boolean;
  price: { secure: number; community: number; serverless?: number };
  maxCount: { secure: number; community: number };
  /** Sandbox-only: false means "no instances available" on create. */
  hasCapacity: boolean;
  dataCenters: string[];
  cudaVersions: string[];
};

const CUDA = ["12.4", "12.6", "12.8"];

function gpu(
  id: string,
  pool: string,
  memory: number,
  secure: number,
  community: number,
  serverless: number,
  maxCount: number,
  dataCenters: string[],
  hasCapacity = true,
): SandboxGpuType {
  const name = id.replace(/^NVIDIA (GeForce )?/, "");
  return {
    id,
    name,
    pool,
    manufacturer: "NVIDIA",
    memory,
    secure: true,
    community: community > 0,
    price: { secure, community, serverless },
    maxCount: { secure: maxCount, community: community > 0 ? Math.min(maxCount, 8) : 0 },
    hasCapacity,
    dataCenters,
    cudaVersions: CUDA,
  };
}

/** The one GPU type that never has capacity (the gateway uses it to emulate v1 priority lists). */
export const NO_CAPACITY_GPU_TYPE = "NVIDIA H100 80GB HBM3";

export const GPU_TYPES: SandboxGpuType[] = [
  gpu("NVIDIA GeForce RTX 4090", "ADA_24", 24, 0.69, 0.34, 0.00031, 8, ["EU-RO-1", "CA-MTL-1", "EU-SE-1", "US-IL-1"]),
  gpu("NVIDIA L4", "ADA_24", 24, 0.43, 0.0, 0.00019, 8, ["EU-RO-1", "US-TX-3"]),
  gpu("NVIDIA RTX A5000", "AMPERE_24", 24, 0.27, 0.16, 0.00019, 8, ["EU-RO-1", "CA-MTL-1", "EUR-IS-1"]),
  gpu("NVIDIA GeForce RTX 3090", "AMPERE_24", 24, 0.46, 0.22, 0.00019, 8, ["EU-SE-1", "US-IL-1"]),
  gpu("NVIDIA A40", "AMPERE_48", 48, 0.4, 0.0, 0.00034, 10, ["CA-MTL-1", "EU-SE-1", "US-TX-3"]),
  gpu("NVIDIA RTX A6000", "AMPERE_48", 48, 0.49, 0.33, 0.00034, 8, ["EU-RO-1", "US-IL-1", "EUR-IS-1"]),
  gpu("NVIDIA L40S", "ADA_48_PRO", 48, 0.86, 0.79, 0.00053, 8, ["EU-RO-1", "US-TX-3", "EUR-IS-1"]),
  gpu("NVIDIA A100 80GB PCIe", "AMPERE_80", 80, 1.64, 1.19, 0.00076, 8, ["EU-RO-1", "CA-MTL-1", "US-TX-3"]),
  gpu(NO_CAPACITY_GPU_TYPE, "ADA_80_PRO", 80, 2.69, 0.0, 0.00116, 8, ["EU-RO-1", "US-TX-3"], false),
  gpu("NVIDIA H200", "HOPPER_141", 141, 3.59, 0.0, 0.00155, 8, ["US-TX-3", "EUR-IS-1"]),
];


export type SandboxCpuType = {
  id: string;
  name: string;
  group: string;
  vcpu: { min: number; max: number };
  ramGbPerVcpu: number;
  price: { securePerVcpu: number; serverlessPerVcpu: number };
  dataCenters: string[];
};

const CPU_DATA_CENTERS = ["EU-RO-1", "CA-MTL-1", "US-IL-1", "EUR-IS-1"];

function cpu(id: string, name: string, group: string, ramGbPerVcpu: number, securePerVcpu: number, dataCenters = CPU_DATA_CENTERS): SandboxCpuType {
  return {
    id,
    name,
    group,
    vcpu: { min: 2, max: 32 },
    ramGbPerVcpu,
    price: { securePerVcpu, serverlessPerVcpu: Number((securePerVcpu / 3600).toFixed(7)) },
    dataCenters,
  };
}

export const CPU_TYPES: SandboxCpuType[] = [
  cpu("cpu3c", "Compute-Optimized (3rd gen)", "cpu3", 2, 0.03),
  cpu("cpu3g", "General Purpose (3rd gen)", "cpu3", 4, 0.04),
  cpu("cpu3m", "Memory-Optimized (3rd gen)", "cpu3", 8, 0.05),
  // The newer generation is not offered everywhere, so a flavour can be refused in a data center.
  cpu("cpu5c", "Compute-Optimized (5th gen)", "cpu5", 2, 0.04, ["EU-RO-1", "US-IL-1"]),
  cpu("cpu5g", "General Purpose (5th gen)", "cpu5", 4, 0.05, ["EU-RO-1", "US-IL-1"]),
  cpu("cpu5m", "Memory-Optimized (5th gen)", "cpu5", 8, 0.06, ["EU-RO-1", "US-IL-1"]),
];

export type VolumeTypeName = "STANDARD" | "HIGH_PERFORMANCE";

export type SandboxDataCenter = {
  id: string;
  name: string;
  region: "NORTH_AMERICA" | "SOUTH_AMERICA" | "EUROPE" | "ASIA" | "MIDDLE_EAST" | "AFRICA" | "OCEANIA" | "ANTARCTICA" | "UNKNOWN";
  globalNetwork: boolean;
  networkVolumeTypes: VolumeTypeName[];
  compliance: string[];
};

export const DATA_CENTERS: SandboxDataCenter[] = [
  { id: "EU-RO-1", name: "Romania 1", region: "EUROPE", globalNetwork: true, networkVolumeTypes: ["STANDARD", "HIGH_PERFORMANCE"], compliance: ["GDPR", "ISO_IEC_27001"] },
  { id: "CA-MTL-1", name: "Montreal 1", region: "NORTH_AMERICA", globalNetwork: true, networkVolumeTypes: ["STANDARD"], compliance: ["SOC_2_TYPE_2"] },
  { id: "EU-SE-1", name: "Sweden 1", region: "EUROPE", globalNetwork: false, networkVolumeTypes: ["STANDARD"], compliance: ["GDPR", "RENEWABLE"] },
  { id: "US-IL-1", name: "Illinois 1", region: "NORTH_AMERICA", globalNetwork: false, networkVolumeTypes: ["STANDARD", "HIGH_PERFORMANCE"], compliance: ["SOC_2_TYPE_2", "HIPAA"] },
  { id: "EUR-IS-1", name: "Iceland 1", region: "EUROPE", globalNetwork: true, networkVolumeTypes: ["STANDARD"], compliance: ["GDPR", "RENEWABLE"] },
  { id: "US-TX-3", name: "Texas 3", region: "NORTH_AMERICA", globalNetwork: true, networkVolumeTypes: ["STANDARD", "HIGH_PERFORMANCE"], compliance: ["SOC_2_TYPE_2", "ISO_IEC_27001"] },
];

// Every other id the published documents name, with plain sandbox facts: documented data centers
// offer every GPU type and CPU flavour (standard volumes, no global network); documented GPU types
// get a pool and memory from their family and are offered in the documented data centers.
const named = namedCatalogIds([tryLoadV1(), tryLoadV2()].filter((d) => d !== null));
const curatedDataCenters = new Set(DATA_CENTERS.map((d) => d.id));
const documentedDataCenters = named.dataCenters.filter((id) => !curatedDataCenters.has(id));
for (const id of documentedDataCenters) {
  DATA_CENTERS.push({ id, name: id, region: regionOf(id) as SandboxDataCenter["region"], globalNetwork: false, networkVolumeTypes: ["STANDARD"], compliance: [] });
}
for (const id of named.gpuTypes) {
  if (GPU_TYPES.some((g) => g.id === id)) continue;
  const { pool, memory } = gpuFamily(id);
  const secure = Number((memory * 0.02).toFixed(2));
  const type = gpu(id, pool ?? "", memory, secure, Number((secure * 0.7).toFixed(2)), Number((secure / 3600 * 1.6).toFixed(5)), 8, [...documentedDataCenters]);
  type.pool = pool;
  if (id.startsWith("AMD")) type.manufacturer = "AMD";
  if (!pool) delete type.price.serverless;
  GPU_TYPES.push(type);
}
for (const g of GPU_TYPES) for (const dc of documentedDataCenters) if (!g.dataCenters.includes(dc)) g.dataCenters.push(dc);
for (const id of named.cpuFlavors) {
  if (CPU_TYPES.some((c) => c.id === id)) continue;
  const [, gen = "3", kind = "c"] = /^cpu(\d)([a-z]+)$/.exec(id) ?? [];
  CPU_TYPES.push(cpu(id, `CPU ${id}`, `cpu${gen}`, kind === "m" ? 8 : kind === "g" ? 4 : 2, 0.05));
}
for (const c of CPU_TYPES) for (const dc of documentedDataCenters) if (!c.dataCenters.includes(dc)) c.dataCenters.push(dc);

export const GPU_POOLS: string[] = [...new Set(GPU_TYPES.map((g) => g.pool).filter((p): p is string => p !== null))];

/** Where the scheduler puts a pod when the request names no data center. */
export const DEFAULT_DATA_CENTER = "EU-RO-1";

/** Public templates listed by GET /v2/catalog/templates (usable as templateId too). */
export const PUBLIC_TEMPLATES = [
  {
    id: "runpod-torch-v240",
    source: "official" as const,
    name: "Runpod Pytorch 2.4.0",
    image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    args: "",
    disk: 50,
    mounts: { persistent: { size: 20, path: "/workspace" } },
    ports: ["8888/http", "22/tcp"],
    env: {},
    registry: null,
    serverless: false,
    public: true,
    category: "NVIDIA" as const,
    startSsh: true,
    startJupyter: true,
    allowedCudaVersions: [],
  },
  {
    id: "runpod-ubuntu-cpu",
    source: "official" as const,
    name: "Runpod Ubuntu (CPU)",
    image: "runpod/base:0.6.2-cpu",
    args: "",
    disk: 20,
    mounts: {},
    ports: ["22/tcp"],
    env: {},
    registry: null,
    serverless: false,
    public: true,
    category: "CPU" as const,
    startSsh: true,
    startJupyter: false,
    allowedCudaVersions: [],
  },
  {
    id: "community-comfyui",
    source: "community" as const,
    name: "ComfyUI (community)",
    image: "example/comfyui:latest",
    args: "",
    disk: 40,
    mounts: { persistent: { size: 50, path: "/workspace" } },
    ports: ["8188/http"],
    env: {},
    registry: null,
    serverless: false,
    public: true,
    category: "NVIDIA" as const,
    startSsh: false,
    startJupyter: false,
    allowedCudaVersions: ["12.4"],
  },
];

/**
 * Historic resources that appear in billing even though they no longer exist (live pods,
 * endpoints and volumes of the sandbox are billed too, from their creation on).
 */
export const BILLING_SEED = {
  podIds: ["hist01pod0gpu1", "hist02pod0cpu1"],
  serverlessIds: ["hist01ep000001"],
  networkVolumeIds: ["hist01vol00001"],
  clusterIds: [] as string[],
  /** Fixed hourly rates (USD) used to derive deterministic bucket amounts. */
  hourly: { podGpu: 0.69, podCpu: 0.06, podDisk: 0.01, serverlessGpu: 0.4, serverlessFee: 0.02, storageStandard: 0.005, storageHighPerformance: 0.01, publicEndpoint: 0.03 },
};

export function findGpuType(id: string): SandboxGpuType | undefined {
  return GPU_TYPES.find((g) => g.id === id);
}
export function findCpuType(id: string): SandboxCpuType | undefined {
  return CPU_TYPES.find((c) => c.id === id);
}
export function findDataCenter(id: string): SandboxDataCenter | undefined {
  return DATA_CENTERS.find((d) => d.id === id);
}
