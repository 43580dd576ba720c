// A v2 read an expansion needs, with its failure told as a v1 error naming the expansion.
import type { V1Call } from "../upstream/call.ts";
import { upstreamError } from "../translation/v1-errors.ts";

export async function readForExpansion(call: V1Call, expansion: string, path: string, query?: URLSearchParams): Promise<Record<string, unknown>> {
  const res = await call.callUpstream({ method: "GET", path, query });
  if (res.status !== 200 || !res.json || typeof res.json !== "object") throw upstreamError(res, `${expansion}: GET ${path} failed`);
  return res.json as Record<string, unknown>;
}

export const isRecord = (v: unknown): v is Record<string, any> => !!v && typeof v === "object" && !Array.isArray(v);
