// What the generated module holds, worked out from the table once: a function per lens the adapter
// can write, the operations and resources that use each, the list wrappers, and for everything
// else the reason it is left out (the engine keeps those sites marked with it).
import type { BodyLens, OperationMapping } from "../../mappings/types.ts";
import { clientAnswer } from "../../mappings/client-answer.ts";
import type { AdapterTable } from "./table.ts";
import { emulationsOn, type EmulationSide } from "./emulation-sides.ts";
import { lensSource, type LensSource } from "./lens-source.ts";
import { camel, type Annotate } from "./source-text.ts";
import { listFiltersOf, type ListFilters } from "./filters.ts";
import { queryRulesOf, type QueryRules } from "./query-source.ts";

export type AdapterKind = "requestBody" | "record" | "list" | "recordList" | "problem" | "query";

export interface AdapterPlan {
  /** Function source per lens, in table order. */
  functions: { name: string; code: string }[];
  toV2Body: [operation: string, fn: string][];
  toV1Record: [resource: string, fn: string][];
  lists: [operation: string, wrapper: string, v2Operation: string][];
  recordLists: [operation: string, fn: string][];
  /** v1 list filters `filterList` applies, per operation (filters.ts). */
  filters: ListFilters;
  /** v1 query objects `toV2Query` translates, per operation (query-source.ts). */
  queries: QueryRules;
  /** `kind:key` → why the adapter does not hold it, each reason one line; empty when it does. */
  coverage: Map<string, string[]>;
  /**
   * `kind:key` → the v1 record fields its conversion leaves out, where that is all that keeps it
   * from `coverage` (the hourly rate and GPU types need the live catalog; a create answer's
   * templateId comes from the request). A site may use it when nothing reads those fields.
   */
  omits: Map<string, string[]>;
}

/** Record-side emulations whose only effect is fields the adapter then leaves out (beside the catalog converters' own). */
const OMITTED_BY: Readonly<Record<string, string[]>> = { hourlyRateFromCatalog: [], gpuDetailsFromCatalog: [], gpuPoolsFromCatalog: [], templateIdFromRequest: ["templateId"] };

/** `UpdatePod#post-update` is `UpdatePod` sent another way: one entry serves both. */
export function canonicalKey(table: AdapterTable, key: string): string {
  const base = key.split("#")[0]!;
  return base !== key && table.operations.some((o) => o.key === base) ? base : key;
}

export function resourceName(lensName: string): string {
  return camel(lensName.replace(/-record$/, ""));
}

function blockedBy(op: OperationMapping, sides: EmulationSide[]): string[] {
  const names = [...new Set(sides.flatMap((side) => emulationsOn(op.emulations, side)))];
  return names.length ? [`needs the gateway's extra calls or lookups (${names.join(", ")})`] : [];
}

const why = (s: LensSource): string[] => (s.ok ? [] : s.reasons);

export function buildPlan(table: AdapterTable, t: Annotate): AdapterPlan {
  const plan: AdapterPlan = { functions: [], toV2Body: [], toV1Record: [], lists: [], recordLists: [], filters: [], queries: [], coverage: new Map(), omits: new Map() };
  const sources = new Map<string, LensSource>();
  const lensFn = (lens: BodyLens, direction: "toV2" | "toV1"): LensSource => {
    const id = `${direction}:${lens.name}`;
    let s = sources.get(id);
    if (!s) {
      s = lensSource(lens, direction, table, t);
      sources.set(id, s);
      if (s.ok) plan.functions.push({ name: s.name, code: s.code });
    }
    return s;
  };
  const lensOf = (name: string): BodyLens => {
    const lens = table.lenses[name];
    if (!lens) throw new Error(`the table names an unknown lens "${name}"`);
    return lens;
  };

  // Records per resource (each lens an operation answers with).
  for (const op of table.operations) {
    const answer = clientAnswer(op);
    if (answer.kind !== "record" && answer.kind !== "list") continue;
    const resource = resourceName(answer.lens);
    if (plan.coverage.has(`record:${resource}`)) continue;
    const s = lensFn(lensOf(answer.lens), "toV1");
    plan.coverage.set(`record:${resource}`, s.ok ? (s.omits ?? []).map((o) => o.reason) : s.reasons);
    if (s.ok && s.omits) plan.omits.set(`record:${resource}`, s.omits.flatMap((o) => o.fields));
    if (s.ok) plan.toV1Record.push([resource, s.name]);
  }

  for (const op of table.operations) {
    const key = canonicalKey(table, op.key);
    if (key !== op.key) continue;
    const missing = !op.v2 || op.status === "no-equivalent" ? [`${key} has no v2 operation`] : [];

    let body: string[];
    if (op.request?.lens) {
      const s = lensFn(lensOf(op.request.lens), "toV2");
      body = [...missing, ...blockedBy(op, ["request", "operation"]), ...why(s)];
      if (!body.length && s.ok) plan.toV2Body.push([key, s.name]);
    } else body = [op.request?.fixedBody ? `${key} takes no v1 body (v2's is fixed: ${JSON.stringify(op.request.fixedBody)})` : `${key} takes no request body`];
    plan.coverage.set(`requestBody:${key}`, body);

    // A pod action's answer (v1 documents none) is the pod v2 answers: held as GetPod's record.
    const shape = clientAnswer(op);
    if (shape.kind !== "record" && shape.kind !== "list") {
      const none = [`${key} answers no ${shape.kind === "empty" ? "record" : "JSON records"}`];
      for (const kind of ["record", "list", "recordList"]) plan.coverage.set(`${kind}:${key}`, none);
      continue;
    }
    const resource = plan.coverage.get(`record:${resourceName(shape.lens)}`)!;
    const record = [...missing, ...blockedBy(op, ["record", "operation"]), ...resource];
    plan.coverage.set(`record:${key}`, record);
    // Left out, not blocked: the resource's catalog fields and what the record-side emulations fill.
    const recordEmulations = emulationsOn(op.emulations, "record");
    const omitted = plan.omits.get(`record:${resourceName(shape.lens)}`) ?? [];
    const partial = !missing.length && emulationsOn(op.emulations, "operation").length === 0 && recordEmulations.every((e) => e in OMITTED_BY) && (omitted.length > 0 || recordEmulations.length > 0);
    if (partial) plan.omits.set(`record:${key}`, [...new Set([...omitted, ...recordEmulations.flatMap((e) => OMITTED_BY[e]!)])]);
    if (shape.kind === "record") {
      for (const kind of ["list", "recordList"]) plan.coverage.set(`${kind}:${key}`, [`${key} answers one record, not a list`]);
      continue;
    }
    const list = [...missing, ...blockedBy(op, ["list", "operation"])];
    plan.coverage.set(`list:${key}`, list);
    if (!list.length) plan.lists.push([key, shape.wrapper, op.v2!.operationId]);
    const recordList = [...new Set([...list, ...record])];
    plan.coverage.set(`recordList:${key}`, recordList);
    if (!list.length && partial) plan.omits.set(`recordList:${key}`, plan.omits.get(`record:${key}`)!);
    if (!recordList.length || (!list.length && partial)) plan.recordLists.push([key, plan.toV1Record.find(([r]) => r === resourceName(shape.lens))![1]]);
  }
  plan.filters = listFiltersOf(table, plan.recordLists.map(([op]) => op), plan.coverage);
  plan.queries = queryRulesOf(table);
  for (const op of table.operations) {
    const key = canonicalKey(table, op.key);
    plan.coverage.set(`query:${key}`, plan.queries.some(([k]) => k === key) ? [] : [`${key} takes no v1 query parameters v2 translates`]);
  }
  // A lens function no operation or resource uses would be dead code (and a noUnusedLocals error).
  const used = new Set([...plan.toV2Body, ...plan.toV1Record].map(([, fn]) => fn));
  plan.functions = plan.functions.filter((f) => used.has(f.name));
  return plan;
}
