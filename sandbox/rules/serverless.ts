// Serverless endpoint rules the v2 document states in prose (createEndpoint, updateEndpoint,
// EndpointWorkers, the scaling variants, the GPU selection and its CUDA constraints).
import { findGpuType, GPU_TYPES } from "../catalog.ts";
import { isObject } from "../context.ts";
import { badRequest, unprocessable } from "../problem.ts";
import type { Json } from "../store.ts";

export const serverlessRules = {
  /** Create: exactly one of `gpu` or `cpu` (or a template); neither or both returns 400. */
  exactlyOneComputeKind(body: Json, hasTemplate: boolean): void {
    const gpu = isObject(body.gpu);
    const cpu = body.cpu !== undefined;
    if (gpu && cpu) throw badRequest("specify exactly one of gpu or cpu, not both");
    if (!gpu && !cpu && !hasTemplate) throw badRequest("specify exactly one of gpu or cpu (or a templateId)");
  },

  /** Update: compute family is immutable (`gpu` on CPU, `cpu` on GPU, or both → 400). */
  computeFamilyImmutable(endpoint: Json, body: Json): void {
    const gpu = body.gpu !== undefined;
    const cpu = body.cpu !== undefined;
    if (gpu && cpu) throw badRequest("send gpu or cpu, not both");
    if (cpu && !endpoint.cpu) throw badRequest("cpu is valid only for an existing CPU endpoint; endpoint compute family cannot be changed");
    if (gpu && !endpoint.gpu) throw badRequest("gpu is valid only for an existing GPU endpoint; endpoint compute family cannot be changed");
  },

  /** `idleTimeout` is rejected for queue-based endpoints scaling on REQUEST_COUNT. */
  idleTimeoutNotWithRequestCount(type: string, scaling: Json | undefined, workers: Json | undefined): void {
    if (type === "QUEUE" && scaling?.type === "REQUEST_COUNT" && workers?.idleTimeout !== undefined) {
      throw badRequest("workers.idleTimeout is not applicable to queue-based endpoints scaling on REQUEST_COUNT", ["/workers/idleTimeout is rejected with scaling.type REQUEST_COUNT"]);
    }
  },

  /** ...and omitted from responses for that combination. */
  workersForResponse(type: string, scaling: Json | undefined, workers: Json): Json {
    if (type === "QUEUE" && scaling?.type === "REQUEST_COUNT") {
      const { idleTimeout: _omitted, ...rest } = workers;
      return rest;
    }
    return workers;
  },

  /** QUEUE_DELAY scaling is for queue-based endpoints only (load balancers scale on REQUEST_COUNT). */
  queueDelayOnlyForQueue(type: string, scaling: Json | undefined): void {
    if (type === "LOAD_BALANCER" && scaling && scaling.type !== "REQUEST_COUNT") {
      throw badRequest("QUEUE_DELAY scaling is for queue-based endpoints only; LOAD_BALANCER endpoints require REQUEST_COUNT");
    }
  },

  /**
   * The GPU selection after a request: a supplied `pools` replaces the selection wholesale (its
   * `excludedTypes` with it); omitting `pools` keeps both. Exclusions are trimmed.
   */
  selectionAfter(previous: Json | undefined, gpu: Json): { pools: string[]; excludedTypes: string[] } {
    if (Array.isArray(gpu.pools)) {
      return { pools: [...gpu.pools], excludedTypes: (Array.isArray(gpu.excludedTypes) ? gpu.excludedTypes : []).map((t: string) => String(t).trim()) };
    }
    return { pools: [...(previous?.pools ?? [])], excludedTypes: [...(previous?.excludedTypes ?? [])] };
  },

  /** Each exclusion must be a GPU type in one of `pools` (400). */
  excludedTypesInPools(pools: string[], excludedTypes: string[]): void {
    for (const t of excludedTypes) {
      const type = findGpuType(t);
      if (!type || !pools.includes(type.pool ?? "")) throw badRequest(`excluded gpu type '${t}' is not a GPU type in any of the selected pools (${pools.join(", ")})`);
    }
  },

  /** The selection must keep at least one GPU type. */
  selectionKeepsAType(pools: string[], excludedTypes: string[]): void {
    const left = GPU_TYPES.filter((g) => g.pool && pools.includes(g.pool) && !excludedTypes.includes(g.id));
    if (left.length === 0) throw badRequest("the GPU selection leaves no GPU type: keep at least one type of the selected pools");
  },

  /** An endpoint's templateId must name a serverless template (422). */
  endpointTemplateIsServerless(template: Json): void {
    if (template.serverless !== true) throw unprocessable(`template ${template.id} is a pod template; endpoints need a serverless template`);
  },
};
