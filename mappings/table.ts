// The mapping table: lookups over operations.ts for the gateway, codemod, audit and docs.
import type { HttpMethod, OperationMapping } from "./types.ts";
import { operationEntries } from "./data/operations.ts";
import { versionChanges } from "./data/changes.ts";
import type { OperationEntry } from "./types.ts";

/** The named changes that touch an operation, in the changes list's order, computed from its entry. */
export function changesOf(op: OperationEntry): string[] {
  return versionChanges.filter((c) => c.appliesTo !== "every operation" && c.appliesTo(op)).map((c) => c.id);
}

/** Every v1 operation with the version changes that touch it (computed, never listed by hand). */
export const operations: OperationMapping[] = operationEntries.map((op) => ({ ...op, changes: changesOf(op) }));

export interface V1Match {
  operation: OperationMapping;
  /** v1 path parameter values by v1 name (decoded). */
  params: Record<string, string>;
}

interface CompiledRoute {
  operation: OperationMapping;
  pattern: RegExp;
  names: string[];
  literalSegments: number;
}

function compile(operation: OperationMapping): CompiledRoute {
  const names: string[] = [];
  const segments = operation.v1.path.split("/").filter(Boolean);
  const source = segments
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (m) {
        names.push(m[1]!);
        return "/([^/]+)";
      }
      return "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { operation, pattern: new RegExp(`^${source}/?$`), names, literalSegments: segments.length - names.length };
}

// Literal segments win over parameters, so `/pods/{podId}/start` never reads as an id lookup.
const routes = operations.map(compile).sort((a, b) => b.literalSegments - a.literalSegments);

/** Matches a v1 path (relative to the v1 base, e.g. `/pods/abc/start`). */
export function matchV1(method: string, path: string): V1Match | null {
  for (const route of routes) {
    if (route.operation.v1.method !== method.toUpperCase()) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    return { operation: route.operation, params };
  }
  return null;
}

/** The methods v1 accepts on a path, for 405 answers. */
export function v1MethodsFor(path: string): HttpMethod[] {
  return routes.filter((r) => r.pattern.test(path)).map((r) => r.operation.v1.method);
}

export function operationByKey(key: string): OperationMapping {
  const op = operations.find((o) => o.key === key);
  if (!op) throw new Error(`unknown operation "${key}"`);
  return op;
}

/** Builds the v2 path for a v1 match: `{id}` filled with the (re-encoded) v1 parameter value. */
export function v2PathFor(match: V1Match): string | null {
  const { operation, params } = match;
  if (!operation.v2) return null;
  const byV2Name: Record<string, string> = {};
  for (const [v1Name, v2Name] of Object.entries(operation.pathParams ?? {})) byV2Name[v2Name] = params[v1Name]!;
  return operation.v2.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(byV2Name[name] ?? ""));
}
