// The data center, GPU type and CPU flavour ids the published v1 and v2 documents name (enums,
// examples, defaults, and quoted names in prose), so the sandbox catalog knows every id a client
// of either version can legitimately send. Read once when the catalog loads.

export type NamedCatalogIds = { dataCenters: string[]; gpuTypes: string[]; cpuFlavors: string[] };

const DATA_CENTER = /^[A-Z]{2,3}-[A-Z]{2,4}-\d+$/;
const DATA_CENTER_IN_PROSE = /\b[A-Z]{2,3}-[A-Z]{2,4}-\d+\b/g;
/** A GPU type id is a vendor name and a model ("NVIDIA L4"); a bare "NVIDIA" is a manufacturer or category. */
const GPU_TYPE = /^(NVIDIA|AMD|Tesla) +\S.*$/;
/** In prose only quoted names count (`"NVIDIA L40"`): "NVIDIA GPU workloads" is not an id. */
const GPU_TYPE_IN_PROSE = /"\s*((?:NVIDIA|AMD|Tesla) [^"\\]+?)\s*\\?"/g;
const CPU_FLAVOR = /^cpu\d[a-z]+$/;
const CPU_FLAVOR_IN_PROSE = /\bcpu\d[a-z]+\b/g;
const PROSE_KEYS = new Set(["description", "summary", "title"]);

export function namedCatalogIds(documents: unknown[]): NamedCatalogIds {
  const dataCenters = new Set<string>();
  const gpuTypes = new Set<string>();
  const cpuFlavors = new Set<string>();
  const value = (s: string) => {
    if (DATA_CENTER.test(s)) dataCenters.add(s);
    else if (GPU_TYPE.test(s)) gpuTypes.add(s);
    else if (CPU_FLAVOR.test(s)) cpuFlavors.add(s);
  };
  const prose = (s: string) => {
    for (const m of s.matchAll(DATA_CENTER_IN_PROSE)) dataCenters.add(m[0]);
    for (const m of s.matchAll(GPU_TYPE_IN_PROSE)) gpuTypes.add(m[1]!.trim());
    for (const m of s.matchAll(CPU_FLAVOR_IN_PROSE)) cpuFlavors.add(m[0]);
  };
  const walk = (node: unknown, key: string) => {
    if (typeof node === "string") return PROSE_KEYS.has(key) ? prose(node) : value(node);
    if (Array.isArray(node)) return node.forEach((item) => walk(item, key));
    if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, k);
  };
  for (const doc of documents) walk(doc, "");
  return { dataCenters: [...dataCenters], gpuTypes: [...gpuTypes], cpuFlavors: [...cpuFlavors] };
}

/** Region of a data center id by its prefix ("US-KS-2" → NORTH_AMERICA). */
export function regionOf(id: string): string {
  const prefix = id.split("-")[0]!;
  if (prefix === "US" || prefix === "CA") return "NORTH_AMERICA";
  if (prefix === "EU" || prefix === "EUR") return "EUROPE";
  if (prefix === "AP") return "ASIA";
  if (prefix === "OC") return "OCEANIA";
  if (prefix === "SA") return "SOUTH_AMERICA";
  if (prefix === "ME") return "MIDDLE_EAST";
  if (prefix === "AF") return "AFRICA";
  return "UNKNOWN";
}

/** Serverless pool and memory of a GPU type from its name (sandbox data; the real catalog is authoritative). */
const FAMILIES: Array<[RegExp, string | null, number]> = [
  [/B200/, "BLACKWELL_180", 180],
  [/PRO 6000 Blackwell/, "BLACKWELL_96", 96],
  [/RTX 5090/, "BLACKWELL_32", 32],
  [/RTX 5080/, "BLACKWELL_16", 16],
  [/H200/, "HOPPER_141", 141],
  [/H100/, "ADA_80_PRO", 80],
  [/A100/, "AMPERE_80", 80],
  [/RTX 6000 Ada|L40/, "ADA_48_PRO", 48],
  [/RTX 5000 Ada|A5000 Ada/, "ADA_32_PRO", 32],
  [/Ada|RTX 40\d0|\bL4\b/, "ADA_24", 24],
  [/A6000|A40\b|A30\b/, "AMPERE_48", 48],
  [/A5000|A4500|RTX 30\d0/, "AMPERE_24", 24],
  [/A4000|A2000/, "AMPERE_16", 16],
  [/MI300X/, null, 192],
  [/V100|T4\b/, null, 16],
];

export function gpuFamily(id: string): { pool: string | null; memory: number } {
  const memoryInName = /(\d+)GB/.exec(id);
  const family = FAMILIES.find(([re]) => re.test(id));
  const memory = memoryInName ? Number(memoryInName[1]) : (family?.[2] ?? 24);
  return { pool: family ? family[1] : null, memory };
}
