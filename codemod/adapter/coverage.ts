// Whether the adapter holds a conversion, asked per kind and operation (or resource for records):
// true, or the one-line reason it does not (the site stays marked with it).
import { buildPlan, canonicalKey, type AdapterKind, type AdapterPlan } from "./plan.ts";
import { mappingTable, type AdapterTable } from "./table.ts";
import { annotate } from "./source-text.ts";

const plans = new WeakMap<AdapterTable, AdapterPlan>();

/** The plan (TypeScript flavour; coverage does not depend on the language), once per table. */
export function planOf(table: AdapterTable): AdapterPlan {
  let plan = plans.get(table);
  if (!plan) {
    plan = buildPlan(table, annotate("ts"));
    plans.set(table, plan);
  }
  return plan;
}

/** Every reason the adapter does not hold this conversion (empty when it does), for `audit --format json`. */
export function adapterCoverageReasons(kind: AdapterKind, key: string, table: AdapterTable = mappingTable): string[] {
  if (kind === "problem") return [];
  const found = planOf(table).coverage.get(`${kind}:${canonicalKey(table, key)}`);
  if (found !== undefined) return found;
  return [kind === "record" ? `unknown operation or resource "${key}"` : `unknown operation "${key}"`];
}

/** True, or one line for the site's mark: the first reason, and how many more the details hold. */
export function adapterCovers(kind: AdapterKind, key: string, table: AdapterTable = mappingTable): true | string {
  const reasons = adapterCoverageReasons(kind, key, table);
  if (!reasons.length) return true;
  return reasons.length > 1 ? `${reasons[0]} (+${reasons.length - 1} more)` : reasons[0]!;
}

/**
 * The v1 fields the adapter leaves out of this record conversion, where that is all that keeps it
 * from holding it (the caller must know nothing reads them); undefined otherwise.
 */
export function adapterOmissions(kind: AdapterKind, key: string, table: AdapterTable = mappingTable): string[] | undefined {
  if (kind !== "record" && kind !== "recordList") return undefined;
  return planOf(table).omits.get(`${kind}:${canonicalKey(table, key)}`);
}

/** True when `filterList` holds the v1 list filter `param` of `operation`, else why not (one line). */
export function adapterFilters(operation: string, param: string, table: AdapterTable = mappingTable): true | string {
  const reasons = planOf(table).coverage.get(`filter:${canonicalKey(table, operation)}:${param}`);
  if (!reasons) return `${param} is not a v1 list filter of ${operation}`;
  return reasons.length ? reasons[0]! : true;
}
