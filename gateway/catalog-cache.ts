// The GPU catalog some translations need (GPU type ⇄ serverless pool). Cached per API key
// (keyed by a keyed hash of the key, never shared between keys), bounded and short-lived.
import { LRUCache } from "lru-cache";
import type { CatalogView } from "../mappings/index.ts";
import type { Upstream } from "./upstream.ts";
import { V1Error, upstreamError } from "./v1-errors.ts";

interface GpuRow {
  id: string;
  pool: string | null;
}

export function catalogView(rows: GpuRow[]): CatalogView {
  const poolOf = new Map<string, string>();
  const byPool = new Map<string, string[]>();
  for (const row of rows) {
    if (!row || typeof row.id !== "string" || typeof row.pool !== "string") continue;
    poolOf.set(row.id, row.pool);
    const list = byPool.get(row.pool) ?? [];
    list.push(row.id);
    byPool.set(row.pool, list);
  }
  return {
    poolOfGpuType: (id) => poolOf.get(id),
    gpuTypesInPool: (pool) => byPool.get(pool) ?? [],
  };
}

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
  }

  /** The catalog as seen with this Authorization; upstream errors become v1 errors (401 stays 401). */
  get(cacheKey: string, authorization: string | undefined, requestId: string): Promise<CatalogView> {
    this.lookups++;
    let pending = this.cache.get(cacheKey);
    if (!pending) {
      this.fetches++;
      pending = this.fetch(authorization, requestId);
      this.cache.set(cacheKey, pending);
      // A failed lookup is not remembered: the next request asks again.
      pending.catch(() => this.cache.get(cacheKey) === pending && this.cache.delete(cacheKey));
    }
    return pending;
  }

  private async fetch(authorization: string | undefined, requestId: string): Promise<CatalogView> {
    const res = await this.upstream.request({ method: "GET", path: "/v2/catalog/gpus", authorization, requestId });
    if (res.status !== 200) throw upstreamError(res, "GPU catalog lookup failed", "upstream");
    const body = res.json as { gpuTypes?: GpuRow[]; gpus?: GpuRow[] } | GpuRow[] | undefined;
    const rows = Array.isArray(body) ? body : (body?.gpuTypes ?? body?.gpus);
    if (!Array.isArray(rows)) throw new V1Error(502, "GPU catalog lookup returned an unexpected shape", "upstream");
    return catalogView(rows);
  }

  get size(): number {
    return this.cache.size;
  }
}
