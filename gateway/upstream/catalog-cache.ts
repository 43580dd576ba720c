// The catalog some translations need: GPU type ⇄ serverless pool, and list prices (a stopped pod's
// hourly rate). Cached per API key (keyed by a keyed hash of the key, never shared between keys),
// bounded and short-lived.
import { LRUCache } from "lru-cache";
import type { CatalogView, HourlyRateQuery } from "../../mappings/index.ts";
import type { Upstream } from "./upstream.ts";
import { V1Error, upstreamError } from "../translation/v1-errors.ts";

interface GpuRow {
  id: string;
  name?: string;
  pool: string | null;
  price?: { secure?: number; community?: number };
}

interface CpuRow {
  id: string;
  price?: { securePerVcpu?: number };
}

const money = (n: number) => Number(n.toFixed(4));

export function catalogView(rows: GpuRow[], cpuRows: CpuRow[] = []): CatalogView {
  const poolOf = new Map<string, string>();
  const byPool = new Map<string, string[]>();
  const gpuPrice = new Map<string, GpuRow["price"]>();
  const gpuName = new Map<string, string>();
  for (const row of rows) {
    if (!row || typeof row.id !== "string") continue;
    if (typeof row.name === "string") gpuName.set(row.id, row.name);
    if (row.price && typeof row.price === "object") gpuPrice.set(row.id, row.price);
    if (typeof row.pool !== "string") continue;
    poolOf.set(row.id, row.pool);
    const list = byPool.get(row.pool) ?? [];
    list.push(row.id);
    byPool.set(row.pool, list);
  }
  const cpuPrice = new Map<string, number>();
  for (const row of cpuRows) {
    if (row && typeof row.id === "string" && typeof row.price?.securePerVcpu === "number") cpuPrice.set(row.id, row.price.securePerVcpu);
  }
  return {
    poolOfGpuType: (id) => poolOf.get(id),
    gpuTypesInPool: (pool) => byPool.get(pool) ?? [],
    hourlyRate: ({ gpu, cpu, cloud }: HourlyRateQuery) => {
      if (gpu && typeof gpu.id === "string") {
        const perGpu = cloud === "COMMUNITY" ? gpuPrice.get(gpu.id)?.community : gpuPrice.get(gpu.id)?.secure;
        return typeof perGpu === "number" ? money(perGpu * (gpu.count ?? 1)) : undefined;
      }
      if (cpu && typeof cpu.id === "string") {
        const perVcpu = cpuPrice.get(cpu.id);
        return perVcpu === undefined ? undefined : money(perVcpu * (cpu.vcpuCount ?? 1));
      }
      return undefined;
    },
    gpuType: (id: string) => {
      const name = gpuName.get(id);
      const price = gpuPrice.get(id);
      return name === undefined && price === undefined ? undefined : { name, price };
    },
  };
}

/** How long a failed catalog lookup answers for the next ones (at most the cache's TTL). */
const FAILURE_TTL_MS = 5_000;

export class CatalogCache {
  private readonly cache: LRUCache<string, Promise<CatalogView>>;
  lookups = 0;
  fetches = 0;

  constructor(
    private readonly upstream: Upstream,
    max: number,
    ttlMs: number,
  ) {
    this.cache = new LRUCache({ max, ttl: Math.max(ttlMs, 1), ttlAutopurge: false });
    this.failureTtlMs = Math.max(1, Math.min(ttlMs, FAILURE_TTL_MS));
  }

  private readonly failureTtlMs: number;

  /** The catalog as seen with this Authorization; upstream errors become v1 errors (401 stays 401). */
  get(cacheKey: string, authorization: string | undefined, requestId: string): Promise<CatalogView> {
    this.lookups++;
    let pending = this.cache.get(cacheKey);
    if (!pending) {
      this.fetches++;
      pending = this.fetch(authorization, requestId);
      this.cache.set(cacheKey, pending);
      // A failed lookup is remembered briefly, not for the whole TTL: while the catalog fails (an
      // outage, a 429), asking again on every v1 request would send two more upstream requests each
      // time, on the caller's own rate limit.
      pending.catch(() => this.cache.get(cacheKey) === pending && this.cache.set(cacheKey, pending!, { ttl: this.failureTtlMs }));
    }
    return pending;
  }

  private async rows<T>(path: string, keys: string[], authorization: string | undefined, requestId: string): Promise<T[]> {
    const res = await this.upstream.request({ method: "GET", path, authorization, requestId });
    if (res.status !== 200) throw upstreamError(res, `catalog lookup ${path} failed`, "upstream");
    const body = res.json as Record<string, unknown> | unknown[] | undefined;
    const rows = Array.isArray(body) ? body : keys.map((k) => body?.[k]).find(Array.isArray);
    if (!Array.isArray(rows)) throw new V1Error(502, `catalog lookup ${path} returned an unexpected shape`, "upstream");
    return rows as T[];
  }

  private async fetch(authorization: string | undefined, requestId: string): Promise<CatalogView> {
    const [gpus, cpus] = await Promise.all([
      this.rows<GpuRow>("/v2/catalog/gpus", ["gpuTypes", "gpus"], authorization, requestId),
      this.rows<CpuRow>("/v2/catalog/cpus", ["cpus"], authorization, requestId),
    ]);
    return catalogView(gpus, cpus);
  }

  get size(): number {
    return this.cache.size;
  }
}
