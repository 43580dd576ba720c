// Pod rules the v2 document states in prose (CreatePodRequest, UpdatePodRequest, Mounts,
// PersistentMount, CreateGpuConfig, the pod operations). Each is one small named check that
// throws a problem; sandbox/rules/accounting.ts quotes the sentence each one enforces.
import { findDataCenter } from "../catalog.ts";
import { isObject } from "../context.ts";
import { statusAfterBoot } from "../pod-lifecycle.ts";
import { badRequest, conflict, unprocessable } from "../problem.ts";
import type { Json, PodStatus } from "../store.ts";

/** The actions each status allows, as the pod action operation lists them. */
const ACTIONS: Record<PodStatus, string[]> = {
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
  TERMINATED: [],
};

/** "major.minor" compared numerically (12.11 > 12.2), as the document says. */
export function compareCuda(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
}

const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

export const podRules = {
  /** The valid state transitions for a status (published in the pod's `actions`). */
  actionsFor(status: string): string[] {
    return [...(ACTIONS[status as PodStatus] ?? [])];
  },

  /** An action not valid for the pod's current status is a 409. */
  actionAllowed(pod: Json, action: string): void {
    if (!podRules.actionsFor(pod.status).includes(action)) {
      throw conflict(`action ${action} is not valid for a pod in status ${pod.status} (valid: ${podRules.actionsFor(pod.status).join(", ") || "none"})`);
    }
  },

  /** Locked pods cannot be stopped (v2 has no reset; restart keeps the container disk). */
  lockedPodCannotStop(pod: Json, action: string): void {
    if (action === "stop" && pod.locked) throw conflict(`pod ${pod.id} is locked; unlock it before stopping`);
  },

  /** Create: PROVISIONING, then STARTING, then RUNNING (sandbox/pod-lifecycle.ts times it). */
  statusAfterBoot,

  /** A pod created from a template keeps no link to it: `template` stays null. */
  templateLink(_template: Json | undefined): null {
    return null;
  },

  /**
   * Exactly one of `gpu` or `cpu`, with or without a template: a template resolves into container
   * settings only (CreatePodRequest.templateId lists them; compute is not among them).
   */
  exactlyOneComputeKind(body: Json): void {
    const gpu = isObject(body.gpu);
    const cpu = isObject(body.cpu);
    if (gpu && cpu) throw badRequest("exactly one of gpu or cpu must be set, not both");
    if (!gpu && !cpu) throw badRequest("exactly one of gpu or cpu must be set (a template supplies neither)");
  },

  /** `mounts.persistent` is invalid when `cpu` is set (CPU pods: container disk and network volumes only). */
  persistentMountInvalidOnCpu(isCpu: boolean, mounts: Json | undefined): void {
    if (isCpu && isObject(mounts?.persistent)) {
      throw badRequest("mounts.persistent is invalid on CPU pods: CPU pods support container disk and network volumes only", ["/mounts/persistent is not allowed when cpu is set"]);
    }
  },

  /** At most one of `persistent` or `network`. */
  mountsMutuallyExclusive(mounts: Json | undefined): void {
    if (isObject(mounts?.persistent) && Array.isArray(mounts?.network) && mounts.network.length > 0) {
      throw badRequest("mounts.persistent and mounts.network are mutually exclusive");
    }
  },

  /** PATCH: an explicit `network: []` is rejected (clearing mounts is not supported). */
  clearingMountsNotSupported(patchMounts: Json | undefined): void {
    if (Array.isArray(patchMounts?.network) && patchMounts.network.length === 0) {
      throw badRequest("clearing mounts is not supported: an explicit mounts.network [] is rejected");
    }
  },

  /** PATCH: mount kind is fixed at create (no new kind, none on a mountless pod). */
  mountKindFixedAtCreate(current: Json, patchMounts: Json | undefined): void {
    const kind = isObject(current.persistent) ? "persistent" : nonEmpty(current.network) ? "network" : "none";
    for (const wanted of ["persistent", "network"] as const) {
      const sent = wanted === "persistent" ? isObject(patchMounts?.persistent) : nonEmpty(patchMounts?.network);
      if (sent && kind !== wanted) {
        throw badRequest(`mount kind is fixed at create: this pod has ${kind === "none" ? "no mount" : `a ${kind} mount`}, so a ${wanted} mount cannot be added`);
      }
    }
  },

  /** PATCH: the `volumeId` of a network mount is immutable. */
  networkVolumeIdImmutable(current: Json, patchMounts: Json | undefined): void {
    const before = current.network?.[0]?.volumeId;
    const after = patchMounts?.network?.[0]?.volumeId;
    if (before && after && before !== after) throw badRequest(`the volumeId of a network mount is immutable (${before}); a different volumeId is rejected`);
  },

  /** A non-empty `allowedCudaVersions` and `minCudaVersion` are mutually exclusive (an explicit [] may accompany a floor). */
  cudaConstraintsMutuallyExclusive(gpu: Json | undefined, where = "gpu"): void {
    if (nonEmpty(gpu?.allowedCudaVersions) && typeof gpu?.minCudaVersion === "string" && gpu.minCudaVersion !== "") {
      throw badRequest(`${where}.allowedCudaVersions (non-empty) and ${where}.minCudaVersion are mutually exclusive`);
    }
  },

  /**
   * The host's CUDA version: the newest one the GPU type offers that meets the constraint. A
   * version no machine reports is a capacity error, not a fallback.
   */
  cudaVersionFor(offered: string[], allowed: string[] | undefined, min: string | undefined, gpuId: string): string {
    const fits = offered.filter((v) => (!nonEmpty(allowed) || allowed.includes(v)) && (!min || compareCuda(v, min) >= 0));
    if (!fits.length) {
      const want = nonEmpty(allowed) ? `CUDA ${allowed.join(", ")}` : `CUDA >= ${min}`;
      throw badRequest(`no instances available for gpu type ${gpuId} with ${want} (offered: ${offered.join(", ")})`);
    }
    return [...fits].sort(compareCuda).at(-1)!;
  },

  /** vcpuCount must be valid for the flavour and a power of two. */
  vcpuCountValid(count: number, range: { min: number; max: number }, flavour: string): void {
    if (count < range.min || count > range.max) throw badRequest(`cpu flavor ${flavour} allows ${range.min} to ${range.max} vCPUs`);
    if (!Number.isInteger(count) || (count & (count - 1)) !== 0) throw badRequest(`vcpuCount must be a power of two (got ${count})`);
  },

  /** Global networking needs an NVIDIA GPU... */
  globalNetworkingNeedsNvidiaGpu(enabled: boolean, gpuManufacturer: string | undefined): void {
    if (enabled && gpuManufacturer !== "NVIDIA") throw badRequest("global networking requires an NVIDIA GPU pod");
  },

  /** ...and a global-networking-enabled data center. */
  globalNetworkingDataCenter(enabled: boolean, dataCenterId: string): void {
    if (enabled && !findDataCenter(dataCenterId)?.globalNetwork) {
      throw badRequest(`data center ${dataCenterId} does not support global networking (see GET /v2/catalog/datacenters, globalNetwork)`);
    }
  },

  /** A pod's templateId must not name a serverless template (422). */
  podTemplateNotServerless(template: Json): void {
    if (template.serverless === true) throw unprocessable(`template ${template.id} is a serverless template; pods need a pod template`);
  },

  /** `cost` is 0.0 when EXITED or TERMINATED. */
  costFor(status: string, hourly: number): number {
    return status === "EXITED" || status === "TERMINATED" ? 0 : Number(hourly.toFixed(4));
  },
};
