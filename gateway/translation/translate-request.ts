// v1 request → v2 request pieces, read entirely from the mapping table: path (with re-encoded
// parameters), query parameters (forward / emulate / drop-with-warning / reject; harmless values
// left out silently) and body lens.
import { isHarmlessQuery, matchV1, toV2, v1MethodsFor, type ConvertContext, type OperationMapping } from "../../mappings/index.ts";
import type { V1Match } from "../../mappings/table.ts";
import { isSafeParam } from "../upstream/path-safety.ts";
import { V1Error } from "./v1-errors.ts";

/** A v1 list filter the gateway applies itself (decision "emulate"). */
export interface ListFilter {
  param: string;
  field: string;
  values: string[];
}

export interface TranslatedQuery {
  v2: URLSearchParams;
  filters: ListFilter[];
  /** v1 include parameters the gateway serves itself (decision "emulate" without a filter field), when set to true. */
  expansions: string[];
  /** Values of the other emulated parameters (decision "emulate", no filter field), e.g. billing grouping. */
  emulatedParams: Record<string, string>;
  warnings: string[];
  /** v1 query parameters forwarded without their meaning (counted in usage; refused under --strict). */
  dropped: string[];
  rejections: string[];
}

export type Resolved = { kind: "match"; match: V1Match } | { kind: "method"; allowed: string[] } | { kind: "unknown" };

/** Matches the raw v1 path (after `/v1`). Encoded separators never split segments; parameters are checked. */
export function resolveV1(method: string, rawPath: string): Resolved {
  if (!rawPath.startsWith("/") || rawPath.includes("\\") || rawPath.includes("//")) return { kind: "unknown" };
  let match: V1Match | null;
  try {
    match = matchV1(method, rawPath);
  } catch {
    // decodeURIComponent of a malformed escape
    throw new V1Error(400, "malformed percent-encoding in the request path");
  }
  if (match) {
    for (const [name, value] of Object.entries(match.params)) {
      if (!isSafeParam(value)) throw new V1Error(400, `invalid path parameter ${name}: ${JSON.stringify(value.slice(0, 80))}`);
    }
    return { kind: "match", match };
  }
  const allowed = [...new Set(v1MethodsFor(rawPath))];
  return allowed.length ? { kind: "method", allowed } : { kind: "unknown" };
}

export function translateQuery(op: OperationMapping, query: URLSearchParams): TranslatedQuery {
  const out: TranslatedQuery = { v2: new URLSearchParams(), filters: [], expansions: [], emulatedParams: {}, warnings: [], dropped: [], rejections: [] };
  const names = [...new Set(query.keys())];
  for (const name of names) {
    const values = query.getAll(name);
    const mapping = op.query?.find((q) => q.v1 === name);
    if (!mapping) {
      out.warnings.push(`${name} ignored: not a query parameter of v1 ${op.v1.operationId}`);
      out.dropped.push(name);
      continue;
    }
    if (mapping.v2) {
      for (const v of values) out.v2.append(mapping.v2, v);
      continue;
    }
    switch (mapping.decision) {
      case "emulate":
        if (!mapping.filterField) {
          if (values.includes("true")) out.expansions.push(name);
          out.emulatedParams[name] = values.at(-1)!;
          break;
        }
        out.filters.push({ param: name, field: mapping.filterField ?? name, values: values.flatMap((v) => v.split(",")).filter(Boolean) });
        break;
      case "reject":
        if (isHarmlessQuery(mapping, values)) break;
        out.rejections.push(`query parameter ${name} is not supported by v2: ${mapping.reason}; ${mapping.advice}`);
        break;
      default:
        // A value that asks for what v2 does anyway (`includeMachine=false`) is no loss: nothing to warn about.
        if (isHarmlessQuery(mapping, values)) break;
        out.warnings.push(`${name} ignored: ${mapping.reason ?? "no v2 equivalent"}`);
        out.dropped.push(name);
    }
  }
  // Left out where v1's default asked for a narrower answer than v2 gives (endpoint-bound
  // templates): said on the answer, not refused (the client asked for nothing v2 drops).
  for (const m of op.query ?? []) {
    if (m.v1Default && m.decision !== "emulate" && !names.includes(m.v1)) out.warnings.push(`${m.v1} not given: ${m.v1Default.reason}`);
  }
  return out;
}

export interface TranslatedBody {
  body: Record<string, unknown>;
  warnings: string[];
  dropped: string[];
  emulate: Record<string, unknown>;
}

/**
 * Applies the operation's request lens (or fixed body). Rejections, including values a converter
 * cannot place (the lens engine catches those), become a v1 400.
 */
export function translateBody(op: OperationMapping, v1Body: Record<string, unknown> | undefined, ctx: ConvertContext): TranslatedBody | undefined {
  if (op.request?.fixedBody) return { body: { ...op.request.fixedBody }, warnings: [], dropped: [], emulate: {} };
  if (!op.request?.lens) return undefined;
  const result = toV2(op.request.lens, v1Body ?? {}, ctx);
  if (result.rejections.length) throw new V1Error(400, result.rejections.join("; "));
  return { body: result.body, warnings: result.warnings, dropped: result.dropped, emulate: result.emulate };
}
