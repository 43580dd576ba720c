// /v2/catalog: GPU types, CPU flavours, data centers and public templates (built-in data).
import type { FastifyInstance } from "fastify";
import { CPU_TYPES, DATA_CENTERS, GPU_TYPES, PUBLIC_TEMPLATES, type SandboxCpuType, type SandboxGpuType } from "../catalog.ts";
import { queryList, type SandboxContext } from "../context.ts";
import { notFound } from "../problem.ts";
import { catalogRules } from "../rules/catalog.ts";

type Q = Record<string, unknown>;

function availabilityRequested(q: Q): boolean {
  const wants = catalogRules.availabilityFiltersNeedInclude(q);
  catalogRules.cudaFiltersMutuallyExclusive(q);
  return wants;
}

const dcName = (id: string) => DATA_CENTERS.find((d) => d.id === id)?.name ?? id;

function gpuView(g: SandboxGpuType, withAvailability: boolean): Record<string, unknown> {
  const { hasCapacity, dataCenters, cudaVersions, ...rest } = g;
  const out: Record<string, unknown> = { ...rest, price: { ...g.price }, maxCount: { ...g.maxCount } };
  if (withAvailability) {
    out.availability = hasCapacity ? "HIGH" : "NONE";
    if (hasCapacity) out.dataCenters = dataCenters.map((id) => ({ id, name: dcName(id), availability: "HIGH" }));
    out.cudaVersions = cudaVersions.map((version) => ({ version, available: hasCapacity }));
  }
  return out;
}

function cpuView(c: SandboxCpuType, withAvailability: boolean): Record<string, unknown> {
  const { dataCenters, ...rest } = c;
  const out: Record<string, unknown> = { ...rest, vcpu: { ...c.vcpu }, price: { ...c.price } };
  if (withAvailability) {
    out.availability = "HIGH";
    out.dataCenters = dataCenters.map((id) => ({ id, name: dcName(id), availability: "HIGH" }));
  }
  return out;
}

function dcView(id: string, include: string[]): Record<string, unknown> {
  const dc = DATA_CENTERS.find((d) => d.id === id)!;
  const out: Record<string, unknown> = { ...dc, networkVolumeTypes: [...dc.networkVolumeTypes], compliance: [...dc.compliance] };
  if (include.includes("GPU_AVAILABILITY")) {
    const gpus = GPU_TYPES.filter((g) => g.dataCenters.includes(id));
    if (gpus.length) out.gpuAvailability = gpus.map((g) => ({ id: g.id, name: g.name, availability: g.hasCapacity ? "HIGH" : "NONE" }));
  }
  if (include.includes("CPU_AVAILABILITY")) {
    const cpus = CPU_TYPES.filter((c) => c.dataCenters.includes(id));
    if (cpus.length) out.cpuAvailability = cpus.map((c) => ({ id: c.id, name: c.name, availability: "HIGH" }));
  }
  return out;
}

export function registerCatalogRoutes(app: FastifyInstance, _ctx: SandboxContext): void {
  app.get<{ Querystring: Q }>("/v2/catalog/gpus", async (req) => {
    const avail = availabilityRequested(req.query);
    return { gpus: GPU_TYPES.map((g) => gpuView(g, avail)) };
  });
  app.get<{ Params: { id: string }; Querystring: Q }>("/v2/catalog/gpus/:id", async (req) => {
    const avail = availabilityRequested(req.query);
    const g = GPU_TYPES.find((x) => x.id === req.params.id);
    if (!g) throw notFound(`gpu type ${req.params.id} not found`);
    return gpuView(g, avail);
  });
  app.get<{ Querystring: Q }>("/v2/catalog/cpus", async (req) => {
    const avail = availabilityRequested(req.query);
    catalogRules.vcpuCountPowerOfTwo(req.query);
    return { cpus: CPU_TYPES.map((c) => cpuView(c, avail)) };
  });
  app.get<{ Params: { id: string }; Querystring: Q }>("/v2/catalog/cpus/:id", async (req) => {
    const avail = availabilityRequested(req.query);
    catalogRules.vcpuCountPowerOfTwo(req.query);
    const c = CPU_TYPES.find((x) => x.id === req.params.id);
    if (!c) throw notFound(`cpu flavor ${req.params.id} not found`);
    return cpuView(c, avail);
  });
  app.get<{ Querystring: Q }>("/v2/catalog/datacenters", async (req) => {
    const include = queryList(req.query.include);
    const dcs = DATA_CENTERS.filter((d) => catalogRules.dataCenterMatches(d, req.query));
    return { dataCenters: dcs.map((d) => dcView(d.id, include)) };
  });
  app.get<{ Params: { id: string }; Querystring: Q }>("/v2/catalog/datacenters/:id", async (req) => {
    if (!DATA_CENTERS.some((d) => d.id === req.params.id)) throw notFound(`data center ${req.params.id} not found`);
    return dcView(req.params.id, queryList(req.query.include));
  });
  app.get<{ Querystring: Q }>("/v2/catalog/templates", async (req) => {
    const source = typeof req.query.source === "string" ? req.query.source : "official";
    return {
      templates: PUBLIC_TEMPLATES.filter((t) => t.source === source).map(({ source: _s, ...t }) => structuredClone(t)),
    };
  });
}
