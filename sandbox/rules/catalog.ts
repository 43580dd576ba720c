// Catalog query rules the v2 document states in prose (the availability filters of
// /v2/catalog/gpus and /v2/catalog/cpus, the data center filters).
import { queryList } from "../context.ts";
import { badRequest } from "../problem.ts";

type Query = Record<string, unknown>;

const AVAILABILITY_FILTERS = ["product", "count", "cloud", "countryCodes", "cudaVersions", "minCudaVersion", "vcpuCount"];

export const catalogRules = {
  /** `product` is required with include=AVAILABILITY, and the filters are valid only with it (400 either way). */
  availabilityFiltersNeedInclude(q: Query): boolean {
    const wants = queryList(q.include).includes("AVAILABILITY");
    if (wants && queryList(q.product).length === 0) throw badRequest("product is required with include=AVAILABILITY");
    if (!wants) {
      for (const p of AVAILABILITY_FILTERS) if (q[p] !== undefined) throw badRequest(`${p} is only valid with include=AVAILABILITY`);
    }
    return wants;
  },

  /** `cudaVersions` and `minCudaVersion` are mutually exclusive (400 if both are sent). */
  cudaFiltersMutuallyExclusive(q: Query): void {
    if (q.cudaVersions !== undefined && q.minCudaVersion !== undefined) throw badRequest("cudaVersions and minCudaVersion are mutually exclusive");
  },

  /** The CPU availability `vcpuCount` must be a power of two. */
  vcpuCountPowerOfTwo(q: Query): void {
    if (q.vcpuCount === undefined) return;
    const n = Number(q.vcpuCount);
    if (!Number.isInteger(n) || n < 1 || (n & (n - 1)) !== 0) throw badRequest(`vcpuCount must be a power of two (got ${String(q.vcpuCount)})`);
  },

  /** Data center filters: OR within `regions`, AND within `networkVolumeTypes` and `compliance`, AND across families. */
  dataCenterMatches(dc: { region: string; networkVolumeTypes: string[]; compliance: string[]; globalNetwork: boolean }, q: Query): boolean {
    const regions = queryList(q.regions);
    const types = queryList(q.networkVolumeTypes);
    const compliance = queryList(q.compliance);
    const global = q.globalNetwork === undefined ? undefined : String(q.globalNetwork) === "true";
    return (
      (!regions.length || regions.includes(dc.region)) &&
      types.every((t) => dc.networkVolumeTypes.includes(t)) &&
      compliance.every((c) => dc.compliance.includes(c)) &&
      (global === undefined || dc.globalNetwork === global)
    );
  },
};
