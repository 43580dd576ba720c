// /v2/serverless: endpoints CRUD, /workers (synthesised from the worker settings), /releases
// (one per create/update, with a diff), and worker log streams.
import type { FastifyInstance } from "fastify";
import { findCpuType, findDataCenter, GPU_POOLS, GPU_TYPES } from "../catalog.ts";
import { bodyObject, isObject, strArray, strRecord, type SandboxContext } from "../context.ts";
import { badRequest, notFound, unprocessable } from "../problem.ts";
import { podRules } from "../rules/pods.ts";
import { serverlessRules } from "../rules/serverless.ts";
import { sendLogStream } from "../sse.ts";
import type { SandboxClock } from "../clock.ts";
import type { EndpointState, Json } from "../store.ts";
import { assertRegistry } from "./registries.ts";
import { findTemplate } from "./templates.ts";

const SERVERLESS_BASE = "https://api.runpod.ai/v2";

function requestUrls(id: string, type: string): Json {
  const base = `${SERVERLESS_BASE}/${id}`;
  return type === "LOAD_BALANCER"
    ? { base: `https://${id}.api.runpod.ai`, health: `https://${id}.api.runpod.ai/ping` }
    : {
        run: `${base}/run`,
        runSync: `${base}/runsync`,
        status: `${base}/status`,
        stream: `${base}/stream`,
        cancel: `${base}/cancel`,
        retry: `${base}/retry`,
        purgeQueue: `${base}/purge-queue`,
        health: `${base}/health`,
      };
}

function gpuConfig(v: unknown, previous?: Json | null): Json {
  const g = bodyObject(v);
  podRules.cudaConstraintsMutuallyExclusive(g);
  const { pools, excludedTypes } = serverlessRules.selectionAfter(previous ?? undefined, g);
  if (pools.length === 0) throw unprocessable("gpu.pools must name at least one pool");
  for (const pool of pools) if (!GPU_POOLS.includes(pool)) throw badRequest(`unknown gpu pool ${pool}`, [`/gpu/pools unknown pool '${pool}' (known: ${GPU_POOLS.join(", ")})`]);
  serverlessRules.excludedTypesInPools(pools, excludedTypes);
  serverlessRules.selectionKeepsAType(pools, excludedTypes);
  const out: Json = {
    pools,
    count: typeof g.count === "number" ? g.count : (previous?.count ?? 1),
    // An explicit [] clears the set and "" clears the floor; an omitted field is left unchanged.
    allowedCudaVersions: g.allowedCudaVersions !== undefined ? strArray(g.allowedCudaVersions) : (previous?.allowedCudaVersions ?? []),
    minCudaVersion: g.minCudaVersion !== undefined ? (g.minCudaVersion === "" ? null : g.minCudaVersion) : (previous?.minCudaVersion ?? null),
  };
  // Setting one CUDA constraint does not clear the other: the result must not carry both.
  podRules.cudaConstraintsMutuallyExclusive({ allowedCudaVersions: out.allowedCudaVersions, minCudaVersion: out.minCudaVersion ?? undefined });
  if (excludedTypes.length) out.excludedTypes = excludedTypes;
  return out;
}

function cpuConfigs(v: unknown): Json[] {
  return (Array.isArray(v) ? v : []).map((c: Json) => {
    const type = findCpuType(String(c?.id));
    if (!type) throw badRequest(`unknown cpu flavor ${c?.id}`);
    const vcpuCount = Number(c.vcpuCount);
    podRules.vcpuCountValid(vcpuCount, type.vcpu, type.id);
    return { id: type.id, vcpuCount, memory: Math.round(vcpuCount * type.ramGbPerVcpu) };
  });
}

function checkVolumes(ctx: SandboxContext, ids: string[]): void {
  for (const id of ids) if (!ctx.store.networkVolumes.has(id)) throw notFound(`network volume ${id} not found`);
}

function checkDataCenters(ids: string[]): void {
  for (const id of ids) if (!findDataCenter(id)) throw badRequest(`unknown data center ${id}`);
}

function workersFor(state: EndpointState, clock: SandboxClock): Json[] {
  const e = state.endpoint;
  const count = Math.min(Number(e.workers?.min ?? 0), 10);
  const gpuType = e.gpu ? GPU_TYPES.find((g) => e.gpu.pools.includes(g.pool) && !(e.gpu.excludedTypes ?? []).includes(g.id)) : undefined;
  const existing = state.workers.slice(0, count);
  while (existing.length < count) {
    existing.push({ id: clock.id(), startedAt: clock.iso() });
  }
  state.workers = existing;
  return existing.map((w) => ({
    id: w.id,
    status: "IDLE",
    isStale: false,
    version: state.version,
    gpuCount: e.gpu ? e.gpu.count : 0,
    image: e.image ?? null,
    uptimeSeconds: Math.max(0, Math.floor((clock.now() - Date.parse(w.startedAt)) / 1000)),
    gpuTypeId: gpuType?.id ?? null,
    dataCenterId: e.dataCenterIds[0] ?? "EU-RO-1",
    startedAt: w.startedAt,
  }));
}

export function registerServerlessRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const get = (id: string) => {
    const s = store.endpoints.get(id);
    if (!s) throw notFound(`endpoint ${id} not found`);
    return s;
  };

  app.get("/v2/serverless", async () => ({ endpoints: [...store.endpoints.values()].map((s) => s.endpoint) }));

  app.post("/v2/serverless", async (req, reply) => {
    const b = bodyObject(req.body);
    let tpl: Json | undefined;
    if (b.templateId !== undefined) {
      tpl = findTemplate(ctx, String(b.templateId));
      if (!tpl) throw notFound(`template ${b.templateId} not found`);
      serverlessRules.endpointTemplateIsServerless(tpl);
    }
    serverlessRules.exactlyOneComputeKind(b, !!tpl);
    const image = typeof b.image === "string" ? b.image : tpl?.image;
    if (!image) throw unprocessable("image is required when no templateId is given");
    const type = typeof b.type === "string" ? b.type : "QUEUE";
    const scaling = isObject(b.scaling) ? b.scaling : { type: "QUEUE_DELAY", queueDelay: 4 };
    serverlessRules.queueDelayOnlyForQueue(type, scaling);
    serverlessRules.idleTimeoutNotWithRequestCount(type, scaling, bodyObject(b.workers));
    const workers = { min: 0, max: 3, ...(scaling.type === "REQUEST_COUNT" && type === "QUEUE" ? {} : { idleTimeout: 10 }), ...bodyObject(b.workers) };
    if (workers.min > workers.max) throw unprocessable(`workers.min (${workers.min}) must not exceed workers.max (${workers.max})`);
    const dataCenterIds = strArray(b.dataCenterIds);
    checkDataCenters(dataCenterIds);
    const networkVolumes = strArray(b.networkVolumes);
    checkVolumes(ctx, networkVolumes);
    const registry = b.registry !== undefined ? (typeof b.registry === "string" ? b.registry : null) : (tpl?.registry ?? null);
    assertRegistry(ctx, registry);
    const id = ctx.clock.id();
    const endpoint: Json = {
      id,
      name: String(b.name ?? ""),
      type,
      requestUrls: requestUrls(id, type),
      image,
      args: typeof b.args === "string" ? b.args : (tpl?.args ?? ""),
      disk: typeof b.disk === "number" ? b.disk : (tpl?.disk ?? 20),
      env: { ...strRecord(tpl?.env), ...strRecord(b.env) },
      ports: b.ports !== undefined ? strArray(b.ports) : strArray(tpl?.ports),
      registry,
      workers,
      scaling,
      dataCenterIds,
      networkVolumes,
      timeout: typeof b.timeout === "number" ? b.timeout : 300000,
      flashboot: typeof b.flashboot === "string" ? b.flashboot : "OFF",
      createdAt: ctx.clock.iso(),
    };
    if (b.cpu !== undefined) endpoint.cpu = cpuConfigs(b.cpu);
    else {
      // The template's CUDA set seeds the GPU create when the body states no CUDA constraint.
      const g: Json = isObject(b.gpu) ? { ...b.gpu } : { pools: [GPU_TYPES[0].pool] };
      if (tpl && g.allowedCudaVersions === undefined && g.minCudaVersion === undefined && strArray(tpl.allowedCudaVersions).length) g.allowedCudaVersions = strArray(tpl.allowedCudaVersions);
      endpoint.gpu = gpuConfig(g);
    }
    const state: EndpointState = {
      endpoint,
      version: 1,
      workers: [],
      releases: [{ id: ctx.clock.id(), version: 1, source: "MANUAL", buildId: null, createdByUserId: "user_sandbox", workerCount: 0, createdAt: endpoint.createdAt, diff: [] }],
    };
    store.endpoints.set(id, state);
    return reply.code(201).send(endpoint);
  });

  app.get<{ Params: { id: string } }>("/v2/serverless/:id", async (req) => get(req.params.id).endpoint);

  app.patch<{ Params: { id: string } }>("/v2/serverless/:id", async (req) => {
    const state = get(req.params.id);
    const e = state.endpoint;
    const b = bodyObject(req.body);
    const before = structuredClone(e);
    let tpl: Json | undefined;
    if (b.templateId !== undefined && b.templateId !== "") {
      tpl = findTemplate(ctx, String(b.templateId));
      if (!tpl) throw notFound(`template ${b.templateId} not found`);
      serverlessRules.endpointTemplateIsServerless(tpl);
    }
    serverlessRules.computeFamilyImmutable(e, b);
    if (b.dataCenterIds !== undefined) checkDataCenters(strArray(b.dataCenterIds));
    if (b.networkVolumes !== undefined) checkVolumes(ctx, strArray(b.networkVolumes));
    if (b.registry !== undefined) assertRegistry(ctx, typeof b.registry === "string" ? b.registry : null);
    const scaling = isObject(b.scaling) ? b.scaling : e.scaling;
    serverlessRules.queueDelayOnlyForQueue(e.type, scaling);
    serverlessRules.idleTimeoutNotWithRequestCount(e.type, scaling, bodyObject(b.workers));
    const workers = serverlessRules.workersForResponse(e.type, scaling, { ...e.workers, ...bodyObject(b.workers) });
    if (workers.min > workers.max) throw unprocessable(`workers.min (${workers.min}) must not exceed workers.max (${workers.max})`);
    if (tpl) for (const key of ["image", "args", "disk", "ports", "registry"]) if (tpl[key] !== undefined) e[key] = structuredClone(tpl[key]);
    // Template env merges with the body's per key (body wins) and replaces the endpoint's env.
    if (tpl) e.env = { ...strRecord(tpl.env), ...(b.env !== undefined ? strRecord(b.env) : {}) };
    for (const key of ["name", "image", "args", "disk", "timeout", "flashboot"]) if (b[key] !== undefined) e[key] = b[key];
    if (b.env !== undefined && !tpl) e.env = strRecord(b.env);
    if (b.ports !== undefined) e.ports = strArray(b.ports);
    if (b.registry !== undefined) e.registry = typeof b.registry === "string" ? b.registry : null;
    if (b.dataCenterIds !== undefined) e.dataCenterIds = strArray(b.dataCenterIds);
    if (b.networkVolumes !== undefined) e.networkVolumes = strArray(b.networkVolumes);
    if (isObject(b.scaling)) e.scaling = b.scaling;
    e.workers = workers;
    if (b.cpu !== undefined) e.cpu = cpuConfigs(b.cpu); // a complete replacement of the CPU selection
    else if (isObject(b.gpu)) e.gpu = gpuConfig(b.gpu, e.gpu);
    const diff = Object.keys(e)
      .filter((k) => JSON.stringify(e[k]) !== JSON.stringify(before[k]))
      .map((field) => ({ field, old: before[field] ?? null, new: e[field] ?? null }));
    if (diff.length) {
      state.version += 1;
      state.releases.unshift({ id: ctx.clock.id(), version: state.version, source: "MANUAL", buildId: null, createdByUserId: "user_sandbox", workerCount: 0, createdAt: ctx.clock.iso(), diff });
    }
    return e;
  });

  app.delete<{ Params: { id: string } }>("/v2/serverless/:id", async (req, reply) => {
    get(req.params.id);
    store.endpoints.delete(req.params.id);
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>("/v2/serverless/:id/workers", async (req) => {
    const state = get(req.params.id);
    const workers = workersFor(state, ctx.clock);
    return {
      workers,
      summary: { running: 0, idle: workers.length, initializing: 0, throttled: 0, unhealthy: 0, total: workers.length },
      endpointVersion: state.version,
    };
  });

  app.get<{ Params: { id: string } }>("/v2/serverless/:id/releases", async (req) => {
    const state = get(req.params.id);
    const workers = workersFor(state, ctx.clock);
    const releases = state.releases.map((r) => ({ ...r, workerCount: r.version === state.version ? workers.length : 0 }));
    return {
      endpointVersion: state.version,
      rollout: { inProgress: false, workersOnLatest: workers.length, workersTotal: workers.length, percentOnLatest: 100 },
      releases,
    };
  });

  app.get<{ Params: { id: string; workerId: string }; Querystring: Record<string, unknown> }>(
    "/v2/serverless/:id/workers/:workerId/logs",
    async (req, reply) => {
      const state = get(req.params.id);
      const worker = workersFor(state, ctx.clock).find((w) => w.id === req.params.workerId);
      if (!worker) throw notFound(`worker ${req.params.workerId} not found on endpoint ${state.endpoint.id}`);
      return sendLogStream(
        reply,
        [
          { source: "system", line: `worker ${worker.id} pulling ${state.endpoint.image}` },
          { source: "container", line: "handler ready" },
          { source: "container", line: "waiting for jobs" },
        ],
        req.query,
        ctx.clock.now(),
      );
    },
  );
}
