// Compute converters: v1 `computeType` + GPU type / CPU flavour lists ⇄ v2 `gpu` / `cpu`.
import type { Converter, ConvertContext } from "../types.ts";
import { define } from "../input-kinds.ts";
import { distinct, firstOf, hasEntries, isPure, knownValue, nonEmptyList, operand, orElse, v1Form, v1FormOf, wholePairOnUpdate } from "./source-forms.ts";

const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;
const COMPUTE_TYPES = ["GPU", "CPU"];

// v1 rented "a GPU" when gpuTypeIds was left out or empty (its document does not say how it chose);
// v2 places one named type (GpuConfig.id is required) and does not search for capacity.
const NO_GPU_TYPE =
  "gpuTypeIds is left out (or empty) so v1 picked a GPU type itself where v2 needs one named (gpu.id): name one (GET /v2/catalog/gpus lists them), or set computeType CPU";
const MAYBE_NO_GPU_TYPE =
  "gpuTypeIds may be empty here and v1 then picked a GPU type itself where v2 needs one named (gpu.id): make sure the list has an entry (GET /v2/catalog/gpus lists the types)";

/** Pods: v1 chooses GPU or CPU with computeType; v2 has exactly one of gpu / cpu. */
export const podCompute = define({
  name: "podCompute",
  summary: "v1 `computeType`, `gpuTypeIds`, `gpuCount`, `allowedCudaVersions`, `cpuFlavorIds`, `vcpuCount` ⇄ v2 `gpu` {id, count, allowedCudaVersions} or `cpu` {id, vcpuCount}. Only the first GPU type / CPU flavour fits in v2; the gateway emulates the rest of a priority list.",
  lossless: false,
  accepts: [{ kind: COMPUTE_TYPES }, { kind: "string[]" }, { kind: "integer" }, { kind: "string[]" }, { kind: "string[]" }, { kind: "integer" }],
  toV2: ([computeType, gpuTypeIds, gpuCount, cuda, cpuFlavorIds, vcpuCount]) => {
    if (computeType === "CPU") {
      if (!nonEmpty(cpuFlavorIds) && vcpuCount === undefined) return [undefined, { id: "cpu3c", vcpuCount: 2 }];
      return [undefined, { id: nonEmpty(cpuFlavorIds) ? cpuFlavorIds[0] : "cpu3c", vcpuCount: vcpuCount ?? 2 }];
    }
    if (!nonEmpty(gpuTypeIds)) throw new Error(NO_GPU_TYPE);
    const gpu: Record<string, unknown> = { id: gpuTypeIds[0], count: gpuCount ?? 1 };
    if (nonEmpty(cuda)) gpu.allowedCudaVersions = cuda;
    return [gpu, undefined];
  },
  toV1: ([gpu, cpu]) => {
    const g = gpu as { id: string; count?: number; allowedCudaVersions?: string[] } | undefined | null;
    const c = cpu as { id: string; vcpuCount?: number } | undefined | null;
    if (c) return ["CPU", undefined, undefined, undefined, [c.id], c.vcpuCount];
    if (g) return ["GPU", [g.id], g.count ?? 1, g.allowedCudaVersions, undefined, undefined];
    return [undefined, undefined, undefined, undefined, undefined, undefined];
  },
  codemod: ([computeType, gpuTypeIds, gpuCount, cuda, cpuFlavorIds, vcpuCount]) => {
    // GPU or CPU decides which v2 field is written; only a known computeType can decide it here.
    const kind = computeType ? knownValue(computeType)?.value : "GPU";
    if (kind === undefined) return null;
    if (kind === "CPU") {
      const id = !cpuFlavorIds ? `"cpu3c"` : nonEmptyList(cpuFlavorIds) ? firstOf(cpuFlavorIds) : `${hasEntries(cpuFlavorIds)} ? ${firstOf(cpuFlavorIds)} : "cpu3c"`;
      return [undefined, `{ id: ${id}, vcpuCount: ${orElse(vcpuCount, "2")} }`];
    }
    // As toV2, a GPU pod without a type is refused; one whose list may be empty is left to the mark.
    if (!gpuTypeIds || (knownValue(gpuTypeIds) && !nonEmptyList(gpuTypeIds))) throw new Error(NO_GPU_TYPE);
    if (!nonEmptyList(gpuTypeIds)) throw new Error(MAYBE_NO_GPU_TYPE);
    let cudaPart = "";
    if (cuda && nonEmptyList(cuda)) cudaPart = `, allowedCudaVersions: ${cuda.source}`;
    else if (cuda && !knownValue(cuda)) cudaPart = `, allowedCudaVersions: ${hasEntries(cuda)} ? ${cuda.source} : undefined`;
    return [`{ id: ${firstOf(gpuTypeIds)}, count: ${orElse(gpuCount, "1")}${cudaPart} }`, undefined];
  },
  // As toV1: a cpu wins over a gpu; an absent one is left out of the tests.
  codemodToV1: v1Form(([gpu, cpu]) => {
    const onGpu = gpu === undefined ? undefined : cpu === undefined ? gpu : `!${cpu} && ${gpu}`;
    const whenGpu = (value: string) => (onGpu === undefined ? undefined : `${onGpu} ? ${value} : undefined`);
    const whenCpu = (value: string) => (cpu === undefined ? undefined : `${cpu} ? ${value} : undefined`);
    const kind = cpu === undefined ? whenGpu(`"GPU"`) : `${cpu} ? "CPU" : ${gpu === undefined ? "undefined" : `${gpu} ? "GPU" : undefined`}`;
    return [kind, whenGpu(`[${gpu}.id]`), whenGpu(`(${gpu}.count ?? 1)`), whenGpu(`${gpu}.allowedCudaVersions`), whenCpu(`[${cpu}.id]`), whenCpu(`${cpu}.vcpuCount`)];
  }),
  codemodReview: (source, literal) => {
    // v2 takes one GPU type / CPU flavour: a list of several was a v1 fallback order.
    const [, gpuTypeIds, , , cpuFlavorIds] = [0, 1, 2, 3, 4].map((i) => ({ src: source[i], lit: literal[i] }));
    for (const [name, v] of [["gpuTypeIds", gpuTypeIds!], ["cpuFlavorIds", cpuFlavorIds!]] as const) {
      if (v.src === undefined) continue;
      if (Array.isArray(v.lit) && v.lit.length <= 1) continue;
      if (/^\[[^,[\]]*\]$/.test(v.src.trim())) continue; // `[gpu]`: one entry, not a list
      return Array.isArray(v.lit)
        ? `v2 takes one ${name === "gpuTypeIds" ? "GPU type" : "CPU flavour"}; the fallbacks ${JSON.stringify(v.lit.slice(1))} of ${name} are dropped`
        : `v2 takes one ${name === "gpuTypeIds" ? "GPU type" : "CPU flavour"}; only the first entry of ${name} is used`;
    }
    return null;
  },
});

function poolsFor(typeIds: string[], ctx: ConvertContext): { pools: string[]; excludedTypes: string[] } {
  const catalog = ctx.catalog;
  if (!catalog) throw new Error("GPU pool conversion needs the catalog");
  const pools: string[] = [];
  for (const id of typeIds) {
    const pool = catalog.poolOfGpuType(id);
    if (!pool) throw new Error(`unknown GPU type "${id}"`);
    if (!pools.includes(pool)) pools.push(pool);
  }
  const excludedTypes = pools.flatMap((p) => catalog.gpuTypesInPool(p)).filter((t) => !typeIds.includes(t));
  return { pools, excludedTypes };
}

/** "major.minor" compared numerically (12.11 above 12.2), as v2 compares CUDA versions. */
function compareCuda(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
}

/**
 * v1 took allowedCudaVersions and minCudaVersion together (both had to hold); v2 takes a
 * non-empty set or a floor, not both. Together they mean the allowed versions at or above the
 * floor, sent alone. `clearOther` (updates): v2 keeps the constraint not sent, so clear it.
 */
function cudaConstraint(cuda: unknown, minCuda: unknown, clearOther: boolean): Record<string, unknown> {
  const hasSet = nonEmpty(cuda);
  const hasFloor = typeof minCuda === "string" && minCuda !== "";
  if (hasSet && hasFloor) {
    const kept = (cuda as unknown[]).map(String).filter((v) => compareCuda(v, minCuda as string) >= 0);
    if (!kept.length) throw new Error(`none of allowedCudaVersions ${JSON.stringify(cuda)} is at or above minCudaVersion ${minCuda}, so no machine could ever match`);
    return clearOther ? { allowedCudaVersions: kept, minCudaVersion: "" } : { allowedCudaVersions: kept };
  }
  if (hasSet) return clearOther ? { allowedCudaVersions: cuda, minCudaVersion: "" } : { allowedCudaVersions: cuda };
  if (hasFloor) return clearOther ? { minCudaVersion: minCuda, allowedCudaVersions: [] } : { minCudaVersion: minCuda };
  return {};
}

function endpointGpuToV2([gpuTypeIds, gpuCount, cuda, minCuda]: unknown[], ctx: ConvertContext, clearOther: boolean): unknown[] {
  const constraint = cudaConstraint(cuda, minCuda, clearOther);
  if (!nonEmpty(gpuTypeIds)) {
    if (gpuCount === undefined && cuda === undefined && minCuda === undefined) return [undefined];
    return [{ ...(gpuCount !== undefined ? { count: gpuCount } : {}), ...constraint }];
  }
  const { pools, excludedTypes } = poolsFor(gpuTypeIds.map(String), ctx);
  // excludedTypes always stated, [] included: on an update a new pool list without excludedTypes
  // would clear the old exclusions only implicitly; saying so keeps the selection explicit.
  return [{ pools, excludedTypes, count: gpuCount ?? 1, ...constraint }];
}

/** Serverless endpoints: v1 lists GPU types; v2 lists GPU pools and excluded types. */
export const endpointGpu = define({
  name: "endpointGpu",
  summary: "v1 endpoint `gpuTypeIds` (priority list of GPU types) + `gpuCount` + CUDA filters ⇄ v2 `gpu` {pools, excludedTypes, count, …}: each type's pool from the catalog, with the pool's other types excluded so the same set of GPUs is allowed. `allowedCudaVersions` with `minCudaVersion` becomes the allowed versions at or above the minimum, sent alone (v2 takes one or the other).",
  lossless: false,
  needsCatalog: true,
  accepts: [{ kind: "string[]" }, { kind: "integer" }, { kind: "string[]" }, { kind: "string" }],
  toV2: (v1, ctx) => endpointGpuToV2(v1, ctx, false),
  toV1: ([gpu], ctx) => {
    const g = gpu as { pools?: string[]; excludedTypes?: string[]; count?: number; allowedCudaVersions?: string[]; minCudaVersion?: string | null } | undefined | null;
    if (!g) return [undefined, undefined, undefined, undefined];
    const excluded = new Set(g.excludedTypes ?? []);
    const types = ctx.catalog
      ? (g.pools ?? []).flatMap((p) => ctx.catalog!.gpuTypesInPool(p)).filter((t) => !excluded.has(t) && (!ctx.v1GpuTypeIds || ctx.v1GpuTypeIds.has(t)))
      : undefined;
    return [types, g.count, g.allowedCudaVersions, g.minCudaVersion ?? undefined];
  },
  codemod: null,
  codemodReason: "v2 endpoints take GPU pools, not GPU type ids; look up each type's pool with GET /v2/catalog/gpus",
  // Only the GPU types need the catalog: count and CUDA constraints read back as toV1 gives them.
  catalogOutputs: [0],
  codemodToV1: v1FormOf((gpu) => [undefined, `${gpu} ? ${gpu}.count : undefined`, `${gpu} ? ${gpu}.allowedCudaVersions : undefined`, `${gpu} ? (${gpu}.minCudaVersion ?? undefined) : undefined`]),
});

/** Endpoint update: as endpointGpu, and the CUDA constraint not sent is cleared (v2 keeps it otherwise). */
export const endpointGpuUpdate = define({
  ...endpointGpu,
  name: "endpointGpuUpdate",
  summary: "As `endpointGpu`, for updates: v2 keeps a CUDA constraint the PATCH does not mention, so setting `allowedCudaVersions` also clears the floor (`minCudaVersion: \"\"`) and setting `minCudaVersion` clears the set (`allowedCudaVersions: []`), as v1's replace semantics did.",
  toV2: (v1, ctx) => endpointGpuToV2(v1, ctx, true),
});

/** v1 create says `computeType: "CPU"`; v1 update only sends `cpuFlavorIds`, so computeType comes last. */
export const endpointCpu = define({
  name: "endpointCpu",
  summary: "v1 endpoint `cpuFlavorIds` + `vcpuCount` (+ `computeType: \"CPU\"` on create) ⇄ v2 `cpu` [{id, vcpuCount}] (one entry per flavour).",
  lossless: false,
  accepts: [{ kind: "string[]" }, { kind: "integer" }, { kind: COMPUTE_TYPES }],
  toV2: ([cpuFlavorIds, vcpuCount, computeType]) => {
    const isCpu = computeType === "CPU" || (computeType === undefined && nonEmpty(cpuFlavorIds));
    if (!isCpu) return [undefined];
    const ids = nonEmpty(cpuFlavorIds) ? [...new Set(cpuFlavorIds)] : ["cpu3c"];
    return [ids.map((id) => ({ id, vcpuCount: vcpuCount ?? 2 }))];
  },
  toV1: ([cpu]) => {
    if (!nonEmpty(cpu)) return [undefined, undefined, undefined];
    const list = cpu as { id: string; vcpuCount: number }[];
    return [list.map((c) => c.id), list[0]!.vcpuCount, "CPU"];
  },
  codemod: ([cpuFlavorIds, vcpuCount, computeType]) => {
    // Without computeType (every update) a non-empty list means CPU, as in toV2.
    const kind = computeType ? knownValue(computeType)?.value : undefined;
    if (computeType && kind === undefined) return null;
    if (computeType && kind !== "CPU") return [undefined];
    const vcpu = orElse(vcpuCount, "2");
    // The count is written once per flavour: a computed one would be computed again for each.
    if (!isPure(vcpu)) return null;
    const param = /\bid\b/.test(vcpu) ? "flavorId" : "id";
    const each = `.map((${param}) => ({ ${param === "id" ? "id" : `id: ${param}`}, vcpuCount: ${vcpu} }))`;
    if (!cpuFlavorIds) return [kind === "CPU" ? `["cpu3c"]${each}` : undefined];
    const known = knownValue(cpuFlavorIds)?.value;
    const list = Array.isArray(known) && new Set(known).size === known.length ? cpuFlavorIds.source : distinct(cpuFlavorIds.source);
    if (nonEmptyList(cpuFlavorIds)) return [`${list}${each}`];
    const test = hasEntries(cpuFlavorIds);
    return [kind === "CPU" ? `(${test} ? ${list} : ["cpu3c"])${each}` : `${test} ? ${list}${each} : undefined`];
  },
  // As toV1, an entry that is not an object throws (reading its id).
  codemodToV1: v1FormOf((cpu) => {
    const listed = `Array.isArray(${cpu}) && ${cpu}.length > 0`;
    return [`${listed} ? ${cpu}.map((entry) => entry.id) : undefined`, `${listed} ? ${cpu}[0].vcpuCount : undefined`, `${listed} ? "CPU" : undefined`];
  }),
});


/** Endpoint update: as endpointCpu, but half the pair is completed from the endpoint's current cpu list (endpointCpuReadModifyWrite), which the codemod cannot read. */
export const endpointCpuUpdate = define(
  wholePairOnUpdate(
    endpointCpu,
    "endpointCpuUpdate",
    "As `endpointCpu`, for updates: v2 replaces `cpu` as a whole, so a v1 update sending only `cpuFlavorIds` (which would reset vcpuCount to 2) or only `vcpuCount` (which has no flavours to go with) is completed from the endpoint's current cpu list (the gateway reads it first).",
    "v2 replaces an endpoint's cpu list as a whole, so cpuFlavorIds or vcpuCount alone needs the current list first (GET, then PATCH both); the gateway does that read",
  ),
);
