// One v1 request in flight: what was asked, what the table says, and how to reach upstream.
// Emulations receive this object; it is the only state they may touch.
import type { ConvertContext, OperationMapping } from "../../mappings/index.ts";
import type { V1Match } from "../../mappings/table.ts";
import type { CatalogCache } from "./catalog-cache.ts";
import type { Deadline } from "./deadline.ts";
import type { GatewayConfig } from "../config.ts";
import type { ListFilter } from "../translation/translate-request.ts";
import type { UpstreamRequest, UpstreamResponse } from "./upstream.ts";

export interface GatewayDeps {
  config: GatewayConfig;
  catalog: CatalogCache;
  /** Parsed v1 OpenAPI document, when the reference directory has one. */
  v1Document: unknown | null;
  upstream(req: UpstreamRequest, operation: string): Promise<UpstreamResponse>;
}

export interface V1Call {
  op: OperationMapping;
  match: V1Match;
  requestId: string;
  authorization?: string;
  userAgent?: string;
  /** Cache key for per-API-key lookups (keyed hash; "anonymous" without a key). */
  cacheKey: string;
  v1Body?: Record<string, unknown>;
  v2Path: string | null;
  v2Query: URLSearchParams;
  filters: ListFilter[];
  /** v1 include expansions asked for (true) that an emulation serves. */
  expansions: string[];
  /** Values of other emulated v1 query parameters (e.g. billing `grouping`). */
  emulatedParams: Record<string, string>;
  /** Everything forwarded without its v1 meaning (→ V2-Bridge-Warning). */
  warnings: string[];
  /** Names of the v1 inputs (body fields, query parameters) v2 drops: counted per client in usage. */
  dropped: string[];
  /** The answer fields v2 cannot supply (`answer.<field>`, lost-fields.ts): one list from the table, counted as a whole. */
  lostDrops?: readonly string[];
  /** Converter context (the catalog, when an emulation loaded it). */
  convert: ConvertContext;
  /** Values of v1 fields the lens marked "emulate". */
  emulate: Record<string, unknown>;
  /** Headers of the last upstream answer (rate limits are passed on from it). */
  lastUpstreamHeaders?: Record<string, string | string[] | undefined>;
  deps: GatewayDeps;
  /** The request's total budget for upstream work (an emulation that waits stays inside it). */
  deadline: Deadline;
  /** Calls upstream for this operation, recording metrics and rate-limit headers. */
  callUpstream(req: Omit<UpstreamRequest, "authorization" | "requestId" | "userAgent" | "deadline">): Promise<UpstreamResponse>;
}
