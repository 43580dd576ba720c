// The per-API-key catalog (cached), loaded into the call's converter context once per call.
import type { V1Call } from "../upstream/call.ts";

export async function loadCatalog(call: V1Call): Promise<void> {
  if (call.convert.catalog) return;
  call.convert.catalog = await call.deps.catalog.get(call.cacheKey, call.authorization, call.requestId);
}
