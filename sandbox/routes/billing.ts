// /v2/billing*: aggregated and per-resource billing history from seeded + live resources.
import type { FastifyInstance } from "fastify";
import { activeHours, iso, money, RATES, resolveWindow, seedInterval, type BillingWindow } from "../billing.ts";
import { BILLING_SEED } from "../catalog.ts";
import type { SandboxContext } from "../context.ts";

type Q = Record<string, unknown>;
type Amounts = Record<string, number>;
type Source = { id: string; from: number; to: number; amounts: (hours: number) => Amounts };

function sum(records: Amounts[], keys: string[]): Amounts {
  const out: Amounts = {};
  for (const k of keys) out[k] = money(records.reduce((acc, r) => acc + (r[k] ?? 0), 0));
  return out;
}

function build(window: BillingWindow, sources: Source[], idField: string, keys: string[]) {
  const records: Array<Record<string, unknown>> = [];
  const ids = new Set<string>();
  for (const b of window.buckets) {
    for (const s of sources) {
      const h = activeHours(b, s.from, s.to);
      if (h <= 0) continue;
      const a = s.amounts(h);
      for (const k of keys) a[k] = money(a[k] ?? 0);
      records.push({ startTime: iso(b.start), endTime: iso(b.end), ...a, [idField]: s.id });
      ids.add(s.id);
    }
  }
  return { records, ids, totals: sum(records as Amounts[], keys) };
}

function query(window: BillingWindow, extra: Record<string, unknown> = {}) {
  return { startTime: iso(window.start), endTime: iso(window.end), bucketSize: window.bucketSize, ...extra };
}

const filterValue = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

export function registerBillingRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;

  const podSources = (): Source[] => {
    const now = ctx.clock.now();
    const [from, to] = seedInterval(now);
    const gpuPod = (h: number) => ({ totalAmount: (RATES.podGpu + RATES.podDisk) * h, gpuAmount: RATES.podGpu * h, cpuAmount: 0, diskAmount: RATES.podDisk * h });
    const cpuPod = (h: number) => ({ totalAmount: (RATES.podCpu + RATES.podDisk) * h, gpuAmount: 0, cpuAmount: RATES.podCpu * h, diskAmount: RATES.podDisk * h });
    return [
      { id: BILLING_SEED.podIds[0], from, to, amounts: gpuPod },
      { id: BILLING_SEED.podIds[1], from, to, amounts: cpuPod },
      ...[...store.pods.values()].map((p) => ({ id: p.id, from: Date.parse(p.createdAt), to: now, amounts: p.gpu ? gpuPod : cpuPod })),
    ];
  };
  const serverlessSources = (): Source[] => {
    const now = ctx.clock.now();
    const [from, to] = seedInterval(now);
    const amounts = (h: number) => ({
      totalAmount: (RATES.serverlessGpu + RATES.serverlessFee) * h,
      gpuAmount: RATES.serverlessGpu * h,
      cpuAmount: 0,
      diskAmount: 0,
      feeAmount: RATES.serverlessFee * h,
    });
    return [
      ...BILLING_SEED.serverlessIds.map((id) => ({ id, from, to, amounts })),
      ...[...store.endpoints.values()].map((s) => ({ id: s.endpoint.id, from: Date.parse(s.endpoint.createdAt), to: now, amounts })),
    ];
  };
  const volumeSources = (): Source[] => {
    const now = ctx.clock.now();
    const [from, to] = seedInterval(now);
    const amounts = (size: number, type: string) => (h: number) => {
      const standard = type === "STANDARD" ? (RATES.storageStandard * size * h) / 100 : 0;
      const high = type === "HIGH_PERFORMANCE" ? (RATES.storageHighPerformance * size * h) / 100 : 0;
      return { totalAmount: standard + high, standardAmount: standard, highPerformanceAmount: high };
    };
    return [
      ...BILLING_SEED.networkVolumeIds.map((id) => ({ id, from, to, amounts: amounts(100, "STANDARD") })),
      ...[...store.networkVolumes.values()].map((v) => ({
        id: v.id,
        from: Date.parse(store.volumeCreatedAt.get(v.id) ?? new Date(now).toISOString()),
        to: now,
        amounts: amounts(v.size, v.type),
      })),
    ];
  };
  const publicEndpointSource = (): Source[] => {
    const now = ctx.clock.now();
    return [{ id: "public", from: seedInterval(now)[0], to: now, amounts: (h) => ({ totalAmount: RATES.publicEndpoint * h }) }];
  };

  const POD_KEYS = ["totalAmount", "gpuAmount", "cpuAmount", "diskAmount"];
  const SLS_KEYS = ["totalAmount", "gpuAmount", "cpuAmount", "diskAmount", "feeAmount"];
  const NV_KEYS = ["totalAmount", "standardAmount", "highPerformanceAmount"];
  const CL_KEYS = ["totalAmount", "gpuAmount", "diskAmount", "networkingAmount"];

  app.get<{ Querystring: Q }>("/v2/billing/pods", async (req) => {
    const window = resolveWindow(req.query, new Date(ctx.clock.now()));
    const podId = filterValue(req.query.podId);
    const r = build(window, podSources().filter((s) => !podId || s.id === podId), "podId", POD_KEYS);
    return { records: r.records, metadata: { query: query(window, { podId }), recordCount: r.records.length, uniquePodCount: r.ids.size, totals: r.totals } };
  });

  app.get<{ Querystring: Q }>("/v2/billing/serverless", async (req) => {
    const window = resolveWindow(req.query, new Date(ctx.clock.now()));
    const serverlessId = filterValue(req.query.serverlessId);
    const r = build(window, serverlessSources().filter((s) => !serverlessId || s.id === serverlessId), "serverlessId", SLS_KEYS);
    return {
      records: r.records,
      metadata: { query: query(window, { serverlessId }), recordCount: r.records.length, uniqueServerlessCount: r.ids.size, totals: r.totals },
    };
  });

  app.get<{ Querystring: Q }>("/v2/billing/network-volumes", async (req) => {
    const window = resolveWindow(req.query, new Date(ctx.clock.now()));
    const networkVolumeId = filterValue(req.query.networkVolumeId);
    const r = build(window, volumeSources().filter((s) => !networkVolumeId || s.id === networkVolumeId), "networkVolumeId", NV_KEYS);
    return {
      records: r.records,
      metadata: { query: query(window, { networkVolumeId }), recordCount: r.records.length, uniqueNetworkVolumeCount: r.ids.size, totals: r.totals },
    };
  });

  app.get<{ Querystring: Q }>("/v2/billing/clusters", async (req) => {
    const window = resolveWindow(req.query, new Date(ctx.clock.now()));
    const clusterId = filterValue(req.query.clusterId);
    return {
      records: [],
      metadata: { query: query(window, { clusterId }), recordCount: 0, uniqueClusterCount: 0, totals: sum([], CL_KEYS) },
    };
  });

  app.get<{ Querystring: Q }>("/v2/billing/endpoints", async (req) => {
    const window = resolveWindow(req.query, new Date(ctx.clock.now()));
    const r = build(window, publicEndpointSource(), "_", ["totalAmount"]);
    const records = r.records.map(({ _: _id, ...rest }) => rest);
    return { records, metadata: { query: query(window), recordCount: records.length, totals: r.totals } };
  });

  app.get<{ Querystring: Q }>("/v2/billing", async (req) => {
    const window = resolveWindow(req.query, new Date(ctx.clock.now()));
    const pods = podSources();
    const sls = serverlessSources();
    const vols = volumeSources();
    const pub = publicEndpointSource();
    const total = (sources: Source[], b: { start: Date; end: Date }, key: string) =>
      sources.reduce((acc, s) => {
        const h = activeHours(b, s.from, s.to);
        return h > 0 ? acc + (s.amounts(h)[key] ?? 0) : acc;
      }, 0);
    const records = window.buckets.map((b) => {
      const a: Record<string, number> = {
        podGpuAmount: total(pods, b, "gpuAmount"),
        podCpuAmount: total(pods, b, "cpuAmount"),
        podDiskAmount: total(pods, b, "diskAmount"),
        serverlessGpuAmount: total(sls, b, "gpuAmount"),
        serverlessCpuAmount: total(sls, b, "cpuAmount"),
        serverlessDiskAmount: total(sls, b, "diskAmount"),
        serverlessFeeAmount: total(sls, b, "feeAmount"),
        storageStandardAmount: total(vols, b, "standardAmount"),
        storageHighPerformanceAmount: total(vols, b, "highPerformanceAmount"),
        endpointAmount: total(pub, b, "totalAmount"),
        clusterGpuAmount: 0,
        clusterDiskAmount: 0,
        clusterNetworkingAmount: 0,
      };
      const rounded: Record<string, number> = {};
      for (const [k, v] of Object.entries(a)) rounded[k] = money(v);
      rounded.totalAmount = money(Object.values(a).reduce((x, y) => x + y, 0));
      return { startTime: iso(b.start), endTime: iso(b.end), ...rounded };
    });
    const keys = ["totalAmount", ...Object.keys(records[0] ?? {}).filter((k) => k.endsWith("Amount") && k !== "totalAmount")];
    const allKeys = keys.length > 1 ? keys : ["totalAmount", "podGpuAmount", "podCpuAmount", "podDiskAmount", "serverlessGpuAmount", "serverlessCpuAmount", "serverlessDiskAmount", "serverlessFeeAmount", "storageStandardAmount", "storageHighPerformanceAmount", "endpointAmount", "clusterGpuAmount", "clusterDiskAmount", "clusterNetworkingAmount"];
    return { records, metadata: { query: query(window), recordCount: records.length, totals: sum(records as unknown as Amounts[], allKeys) } };
  });
}
