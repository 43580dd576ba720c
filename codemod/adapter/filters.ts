// v1 list filters in the generated module: the gateway applies each v1 filter (decision "emulate"
// with a `filterField`) to the list translated to v1 (gateway/translation/translate-response.ts
// applyFilters); `filterList` does the same to a v2 list and returns the v2 records it keeps, so a
// site can drop the v1 query parameters and keep v2 shapes. Held for a list whose records the
// adapter converts (no extra requests), and only for fields a v2 record can give (not `v1Lost`).
import type { AdapterTable } from "./table.ts";
import type { Annotate } from "./source-text.ts";

/** Per list operation, each v1 filter parameter and the v1 record field it compares. */
export type ListFilters = [operation: string, filters: [param: string, field: string][]][];

/**
 * The filters the module holds, for the operations whose record lists it holds (`recordLists`);
 * `coverage` gets `filter:<operation>:<param>` → why not, for the others.
 */
export function listFiltersOf(table: AdapterTable, recordLists: readonly string[], coverage: Map<string, string[]>): ListFilters {
  const out: ListFilters = [];
  for (const op of table.operations) {
    const filters = (op.query ?? []).filter((q) => q.decision === "emulate" && q.filterField);
    if (!filters.length) continue;
    const lens = op.response.kind === "list" ? table.lenses[op.response.lens] : undefined;
    const lost = new Set((lens?.v1Lost ?? []).map((l) => l.v1));
    const held: [string, string][] = [];
    for (const q of filters) {
      const field = q.filterField!;
      const why = !recordLists.includes(op.key)
        ? [`the adapter does not convert ${op.key}'s records (${q.reason ?? "the gateway filters with extra requests"})`]
        : lost.has(field.split(".")[0]!)
          ? [`v2 ${op.key} records have no ${field.split(".")[0]} to filter on (the gateway's filter keeps no record either)`]
          : [];
      coverage.set(`filter:${op.key}:${q.v1}`, why);
      if (!why.length) held.push([q.v1, field]);
    }
    if (held.length) out.push([op.key, held]);
  }
  return out;
}

/** `filterList` (applyFilters over the records' v1 translation); uses `recordLists` and `get`. */
export function filterListSource(t: Annotate): string {
  return `/**
 * The v2 records (unchanged) whose v1 translation v1's list filters keep, as the gateway filters:
 * \`filters\` holds each v1 query parameter's value as the request would have sent it (comma-separated
 * values, any one matching); a value that is undefined or null is no filter.
 */
function filterList${t("<T>")}(records${t(": T[]")}, operation${t(": string")}, filters${t(": { [param: string]: unknown }")})${t(": T[]")} {
  const fields = listFilters[operation];
  const toV1 = recordLists[operation];
  if (!fields || !toV1) throw new Error("v2-bridge adapter: " + operation + " is not a list it filters");
  const active${t(": [string, string[]][]")} = [];
  for (const [param, value] of Object.entries(filters)) {
    const field = fields[param];
    if (!field) throw new Error("v2-bridge adapter: " + param + " is not a filter of " + operation + " it holds");
    if (value === undefined || value === null) continue;
    active.push([field, String(value).split(",").filter(Boolean)]);
  }
  if (!active.length) return records;
  return records.filter((record) => {
    const v1 = toV1(record);
    return active.every(([field, values]) => {
      const value = get(v1, field);
      if (value === undefined || value === null) return false;
      const candidates = Array.isArray(value) ? value.map(String) : [String(value)];
      return values.some((v) => candidates.includes(v));
    });
  });
}`;
}
