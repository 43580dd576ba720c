// Named value converters. Each says whether it is lossless and how the codemod writes it.
import type { Converter, ConvertContext } from "../types.ts";
import { joinWords, splitWords } from "../shell-words.ts";
import { recordConverters } from "./record-converters.ts";

const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

function define(converter: Converter): Converter {
  return converter;
}

export const flashboot = define({
  name: "flashboot",
  summary: "v1 boolean `flashboot` ⇄ v2 enum: true → \"FLASHBOOT\", false → \"OFF\"; v2 \"PRIORITY_FLASHBOOT\" reads back as true.",
  lossless: true,
  toV2: ([on]) => [on === undefined ? undefined : on ? "FLASHBOOT" : "OFF"],
  toV1: ([mode]) => [mode === undefined ? undefined : mode !== "OFF"],
  codemod: ([on]) => [on === undefined ? undefined : `(${on}) ? "FLASHBOOT" : "OFF"`],
});

export const argv = define({
  name: "argv",
  summary: "v1 argv array (`dockerStartCmd`) ⇄ v2 `args` command-line string, shell-quoted so splitting gives the array back; `[]` (the image's own CMD) is `\"\"`, which also clears args on an update.",
  lossless: true,
  toV2: ([words]) => [isArray(words) ? joinWords(words.map(String)) : undefined],
  toV1: ([line]) => [typeof line === "string" && line.length ? splitWords(line) : line === undefined ? undefined : []],
  codemod: null,
  codemodReason: "a non-literal argv array cannot be quoted safely at build time; join it yourself or move the command into the image",
});

export const podStatus = define({
  name: "podStatus",
  summary: "v2 pod `status` → v1 `desiredStatus`: PROVISIONING/STARTING/RUNNING → RUNNING, EXITED/ERROR → EXITED, TERMINATED → TERMINATED.",
  lossless: false,
  toV2: ([desired]) => [desired],
  toV1: ([status]) => {
    if (status === undefined) return [undefined];
    if (status === "EXITED" || status === "ERROR") return ["EXITED"];
    if (status === "TERMINATED") return ["TERMINATED"];
    return ["RUNNING"];
  },
  codemod: null,
  codemodReason: "v2 `status` has more states than v1 `desiredStatus`; compare against the v2 states explicitly",
});

export const scaling = define({
  name: "scaling",
  summary: "v1 `scalerType` + `scalerValue` ⇄ v2 `scaling` {type, queueDelay | requestCount}; v1's default type is QUEUE_DELAY and default value 4.",
  lossless: true,
  toV2: ([type, value]) => {
    if (type === undefined && value === undefined) return [undefined];
    const t = (type ?? "QUEUE_DELAY") as string;
    const v = value ?? 4;
    return [t === "REQUEST_COUNT" ? { type: t, requestCount: v } : { type: t, queueDelay: v }];
  },
  toV1: ([s]) => {
    if (!s || typeof s !== "object") return [undefined, undefined];
    const obj = s as Record<string, unknown>;
    return [obj.type, obj.type === "REQUEST_COUNT" ? obj.requestCount : obj.queueDelay];
  },
  codemod: ([type, value]) => {
    if (type === undefined && value === undefined) return [undefined];
    const t = type ?? `"QUEUE_DELAY"`;
    const v = value ?? "4";
    return [`(${t}) === "REQUEST_COUNT" ? { type: "REQUEST_COUNT", requestCount: ${v} } : { type: ${t}, queueDelay: ${v} }`];
  },
});

/** v2's persistent mounts have a 10 GB floor (PersistentMount.size minimum); say so before sending. */
const PERSISTENT_FLOOR_GB = 10;
function persistentMount(size: number, path: string): { persistent: { size: number; path: string } } {
  if (size < PERSISTENT_FLOOR_GB) throw new Error(`v2 pod volumes are at least ${PERSISTENT_FLOOR_GB} GB (volumeInGb ${size}); ask for ${PERSISTENT_FLOOR_GB} or more, or 0 for none`);
  return { persistent: { size, path } };
}

/** v2 rejects an idle timeout on queue-based endpoints that scale on REQUEST_COUNT (v1 endpoints are all queue-based). */
export const idleTimeout = define({
  name: "idleTimeout",
  summary: "v1 `idleTimeout` (+ `scalerType`) ⇄ v2 `workers.idleTimeout`; left out (with a warning) when `scalerType` is REQUEST_COUNT, where v2 does not apply it and rejects it.",
  lossless: false,
  toV2: ([timeout, scalerType], ctx) => {
    if (timeout !== undefined && scalerType === "REQUEST_COUNT") {
      ctx.warn?.("idleTimeout ignored: v2 does not apply an idle timeout to endpoints scaling on REQUEST_COUNT (it rejects one)", "idleTimeout");
      return [undefined];
    }
    return [timeout];
  },
  toV1: ([timeout]) => [timeout, undefined],
  codemod: ([timeout, scalerType]) => {
    if (timeout === undefined) return [undefined];
    if (scalerType === undefined || scalerType === `"QUEUE_DELAY"` || scalerType === `'QUEUE_DELAY'`) return [timeout];
    return [`(${scalerType}) === "REQUEST_COUNT" ? undefined : ${timeout}`];
  },
});

/** v1 pods mount a network volume at volumeMountPath instead of the local volume. */
export const podMounts = define({
  name: "podMounts",
  summary: "v1 `volumeInGb` + `volumeMountPath` + `networkVolumeId` (+ `computeType`) ⇄ v2 `mounts` {persistent {size, path}} or {network [{volumeId, path}]}; volumeInGb 0 means no volume. v2 CPU pods take no persistent mount: v1's default volume is left out for them and an explicit volumeInGb is a 400.",
  lossless: false,
  toV2: ([size, mountPath, networkVolumeId, computeType]) => {
    const path = (mountPath as string | undefined) ?? "/workspace";
    if (typeof networkVolumeId === "string" && networkVolumeId) {
      return [{ network: [{ volumeId: networkVolumeId, path }] }];
    }
    if (typeof size === "number" && size > 0) {
      if (computeType === "CPU") {
        throw new Error("v2 CPU pods cannot have a pod volume (mounts.persistent is invalid when cpu is set); leave volumeInGb out or 0 and keep data on a network volume (networkVolumeId)");
      }
      return [persistentMount(size, path)];
    }
    if (size === undefined && mountPath !== undefined) return [undefined];
    return [size === 0 ? {} : undefined];
  },
  toV1: ([mounts]) => {
    const m = (mounts ?? {}) as { persistent?: { size: number; path: string }; network?: { volumeId: string; path: string }[] };
    const net = m.network?.[0];
    if (net) return [m.persistent?.size ?? 0, net.path, net.volumeId];
    if (m.persistent) return [m.persistent.size, m.persistent.path, undefined];
    return [mounts === undefined ? undefined : 0, undefined, undefined];
  },
  codemod: ([size, mountPath, networkVolumeId, computeType]) => {
    const path = mountPath ?? `"/workspace"`;
    if (networkVolumeId !== undefined) return [`{ network: [{ volumeId: ${networkVolumeId}, path: ${path} }] }`];
    // A persistent mount on a pod that may be a CPU pod cannot be decided at build time.
    if (size !== undefined && computeType !== undefined && computeType !== `"GPU"` && computeType !== `'GPU'`) return null;
    // As toV2: volumeInGb 0 means no volume (an empty mounts object), not a 0 GB persistent mount.
    if (size !== undefined) return [`(${size}) > 0 ? { persistent: { size: ${size}, path: ${path} } } : {}`];
    return [undefined];
  },
});

/** A persistent mount back to v1's `volumeInGb` + `volumeMountPath` (0 when the record has other mounts). */
function persistentToV1([mounts]: unknown[]): unknown[] {
  const p = (mounts as { persistent?: { size: number; path: string } } | undefined)?.persistent;
  return p ? [p.size, p.path] : [mounts === undefined ? undefined : 0, undefined];
}

function persistentToV2(size: unknown, mountPath: unknown): unknown[] {
  return typeof size === "number" && size > 0 ? [persistentMount(size, (mountPath as string) ?? "/workspace")] : [undefined];
}

/**
 * An update's volume: v2 can resize or move it but never remove it, so `volumeInGb: 0` is refused
 * (`removal` says why) and the codemod marks a literal 0 for review instead.
 */
function volumeUpdate(name: string, summary: string, removal: string, mountSource: (size: string, path: string) => string): Converter {
  return define({
    name,
    summary,
    lossless: false,
    toV2: ([size, mountPath]) => {
      if (size === 0) throw new Error(removal);
      return persistentToV2(size, mountPath);
    },
    toV1: persistentToV1,
    codemod: ([size, mountPath]) => (size === undefined ? [undefined] : size.trim() === "0" ? null : [mountSource(size, mountPath ?? `"/workspace"`)]),
  });
}

/** Pod update: v2 can resize or move the pod volume but never remove it. */
export const podVolumeUpdate = volumeUpdate(
  "podVolumeUpdate",
  "v1 pod update `volumeInGb` + `volumeMountPath` ⇄ v2 `mounts.persistent` {size, path}; `volumeInGb: 0` (remove the volume) is a 400 because v2 cannot clear a pod's mounts.",
  "v2 cannot remove a pod's volume (clearing mounts is not supported, and the mount kind is fixed at create); leave volumeInGb out, or create a new pod without a volume",
  (size, path) => `{ persistent: { size: ${size}, path: ${path} } }`,
);

export const templateMounts = define({
  name: "templateMounts",
  summary: "v1 template `volumeInGb` + `volumeMountPath` ⇄ v2 `mounts.persistent` {size, path}.",
  lossless: false,
  toV2: ([size, mountPath]) => persistentToV2(size, mountPath),
  toV1: persistentToV1,
  codemod: ([size, mountPath]) =>
    size === undefined ? [undefined] : [`(${size}) > 0 ? { persistent: { size: ${size}, path: ${mountPath ?? `"/workspace"`} } } : undefined`],
});

/** Template updates: v2 keeps a template's mount when `mounts` is omitted or `{}`, so none can be removed. */
export const templateVolumeUpdate = volumeUpdate(
  "templateVolumeUpdate",
  "v1 template update `volumeInGb` + `volumeMountPath` ⇄ v2 `mounts.persistent` {size, path}; `volumeInGb: 0` (remove the volume) is a 400 because a v2 template PATCH cannot clear its mount.",
  "v2 cannot remove a template's volume (a PATCH without mounts keeps the existing one); leave volumeInGb out, or create a new template without a volume",
  (size, path) => `(${size}) > 0 ? { persistent: { size: ${size}, path: ${path} } } : undefined`,
);

/** Pods: v1 chooses GPU or CPU with computeType; v2 has exactly one of gpu / cpu. */
export const podCompute = define({
  name: "podCompute",
  summary: "v1 `computeType`, `gpuTypeIds`, `gpuCount`, `allowedCudaVersions`, `cpuFlavorIds`, `vcpuCount` ⇄ v2 `gpu` {id, count, allowedCudaVersions} or `cpu` {id, vcpuCount}. Only the first GPU type / CPU flavour fits in v2; the gateway emulates the rest of a priority list.",
  lossless: false,
  toV2: ([computeType, gpuTypeIds, gpuCount, cuda, cpuFlavorIds, vcpuCount]) => {
    if (computeType === "CPU") {
      if (!nonEmpty(cpuFlavorIds) && vcpuCount === undefined) return [undefined, { id: "cpu3c", vcpuCount: 2 }];
      return [undefined, { id: nonEmpty(cpuFlavorIds) ? cpuFlavorIds[0] : "cpu3c", vcpuCount: vcpuCount ?? 2 }];
    }
    if (!nonEmpty(gpuTypeIds)) return [gpuCount !== undefined ? undefined : undefined, undefined];
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
    if (computeType !== undefined && computeType !== `"GPU"` && computeType !== `'GPU'`) {
      if (computeType === `"CPU"` || computeType === `'CPU'`) {
        return [undefined, `{ id: ${cpuFlavorIds ? `${cpuFlavorIds}[0]` : `"cpu3c"`}, vcpuCount: ${vcpuCount ?? "2"} }`];
      }
      return null;
    }
    if (gpuTypeIds === undefined) return [undefined, undefined];
    const cudaPart = cuda ? `, allowedCudaVersions: ${cuda}` : "";
    return [`{ id: ${gpuTypeIds}[0], count: ${gpuCount ?? "1"}${cudaPart} }`, undefined];
  },
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
    const isGpu = computeType === `"GPU"` || computeType === `'GPU'`;
    const isCpu = computeType === `"CPU"` || computeType === `'CPU'` || (computeType === undefined && cpuFlavorIds !== undefined);
    if (isGpu || (computeType === undefined && cpuFlavorIds === undefined)) return [undefined];
    if (!isCpu) return null;
    return [`${cpuFlavorIds ?? `["cpu3c"]`}.map((id) => ({ id, vcpuCount: ${vcpuCount ?? "2"} }))`];
  },
});

export const computeKind = define({
  name: "computeKind",
  summary: "v2 endpoint or pod `gpu` / `cpu` → v1 `computeType` (\"CPU\" when a CPU flavour is set, else \"GPU\").",
  lossless: false,
  toV2: () => [undefined, undefined],
  // Endpoints carry a `cpu` list, pods a single `cpu` object: either means CPU.
  toV1: ([, cpu]) => [nonEmpty(cpu) || (!!cpu && typeof cpu === "object" && !Array.isArray(cpu)) ? "CPU" : "GPU"],
  codemod: null,
  codemodReason: "check whether the v2 endpoint has `cpu` entries instead",
});

export const networkVolumeList = define({
  name: "networkVolumeList",
  summary: "v1 endpoint `networkVolumeId` + `networkVolumeIds` ⇄ v2 `networkVolumes` (one list; the single id comes first).",
  lossless: false,
  toV2: ([single, many]) => {
    const list: string[] = [];
    if (typeof single === "string" && single) list.push(single);
    if (isArray(many)) for (const id of many) if (!list.includes(String(id))) list.push(String(id));
    return [single === undefined && many === undefined ? undefined : list];
  },
  toV1: ([list]) => {
    if (!isArray(list)) return [undefined, undefined];
    return [list[0], list];
  },
  codemod: ([single, many]) => {
    if (single === undefined && many === undefined) return [undefined];
    if (many === undefined) return [`[${single}]`];
    if (single === undefined) return [many];
    return [`[${single}, ...${many}]`];
  },
});

export const cpuDetails = define({
  name: "cpuDetails",
  summary: "v2 pod `cpu` {id, vcpuCount, memory} → v1 `cpuFlavorId`, `vcpuCount`, `memoryInGb`.",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([cpu]) => {
    const c = cpu as { id?: string; vcpuCount?: number; memory?: number } | undefined | null;
    return c ? [c.id, c.vcpuCount, c.memory] : [undefined, undefined, undefined];
  },
  codemod: null,
  codemodReason: "read v2 `cpu.id`, `cpu.vcpuCount`, `cpu.memory` instead",
});


export const converters: Record<string, Converter> = Object.fromEntries(
  [flashboot, argv, podStatus, scaling, idleTimeout, podMounts, podVolumeUpdate, templateMounts, templateVolumeUpdate, podCompute, endpointGpu, endpointGpuUpdate, endpointCpu, computeKind, networkVolumeList, cpuDetails, ...recordConverters].map((c) => [c.name, c]),
);

export function converterNamed(name: string): Converter {
  const converter = converters[name];
  if (!converter) throw new Error(`unknown converter "${name}"`);
  return converter;
}
