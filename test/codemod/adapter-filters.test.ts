// Differential test of the adapter's v1 list filters: for every filter the table emulates and the
// module holds, over v2 lists generated from the v2 document and values drawn from the records'
// own v1 fields (so filters match), arbitrary text, comma lists and "absent", the v2 records
// `filterList` keeps, translated to v1, are the gateway's answer to the v1 request with that query
// (translateQuery → toV1Answer → applyFilters), less the fields the adapter leaves out.
// ADAPTER_SEED=<n> replays a failure.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadV2 } from "../../openapi/reference.ts";
import { operations, type CatalogView, type OperationMapping } from "../../mappings/index.ts";
import { getPath } from "../../mappings/object-paths.ts";
import { translateQuery } from "../../gateway/translation/translate-request.ts";
import { applyFilters, toV1Answer, v2RecordsOf } from "../../gateway/translation/translate-response.ts";
import { adapterModule, adapterFilters } from "../../codemod/adapter/index.ts";
import { planOf } from "../../codemod/adapter/coverage.ts";
import { mappingTable } from "../../codemod/adapter/table.ts";
import { arbitraryFor } from "../helpers/schema-arbitrary.ts";
import { refDescribe } from "../helpers/reference.ts";
import { loadAdapter } from "./adapter-load.ts";

const seed = process.env.ADAPTER_SEED ? Number(process.env.ADAPTER_SEED) : undefined;
const RUNS = { numRuns: 80, seed };
const catalog: CatalogView = { poolOfGpuType: () => "POOL", gpuTypesInPool: () => ["NVIDIA L4"], hourlyRate: () => 0.5 };
const ctx = { catalog };
const opByKey = (key: string): OperationMapping => operations.find((o) => o.key === key)!;
const strip = (fields: string[]) => (r: any) => Object.fromEntries(Object.entries(r).filter(([k]) => !fields.includes(k)));

refDescribe("adapter filterList ≡ gateway list filters", () => {
  const v2 = loadV2();
  const plan = planOf(mappingTable);
  const adapter = loadAdapter(adapterModule({ language: "ts", moduleKind: "esm" }).text);

  it("holds every ListPods filter a v2 pod can answer; billing's gpuTypeId (extra requests) and templateId (v2 keeps none) stay out", () => {
    expect(plan.filters).toEqual([["ListPods", [["computeType", "computeType"], ["cpuFlavorId", "cpuFlavorId"], ["dataCenterId", "machine.dataCenterId"], ["desiredStatus", "desiredStatus"], ["gpuTypeId", "gpu.id"], ["id", "id"], ["imageName", "image"], ["name", "name"], ["networkVolumeId", "networkVolume.id"]]]]);
    expect(adapterFilters("ListPods", "templateId")).toMatch(/no templateId/);
    expect(adapterFilters("PodBilling", "gpuTypeId")).toMatch(/does not convert PodBilling/);
    expect(adapterFilters("ListPods", "endpointId")).toMatch(/not a v1 list filter/);
  });

  describe.each(plan.filters.map(([key, fields]) => [key, fields] as const))("%s", (key, fields) => {
    const op = opByKey(key);
    const wrapper = op.response.kind === "list" ? op.response.wrapper : "";
    const schema = v2.paths[op.v2!.path]![op.v2!.method.toLowerCase()].responses["200"].content["application/json"].schema;
    const left = plan.omits.get(`recordList:${key}`) ?? [];
    const gatewayV1 = (answer: unknown) => toV1Answer(op, v2RecordsOf(op, answer), ctx).json as Record<string, unknown>[];
    /** A value for a filter: a record's own field (one of them, or two joined by a comma), text, a number, empty, absent. */
    const valueFor = (v1: Record<string, unknown>[], field: string) => {
      const own = v1.flatMap((r) => [getPath(r, field)].flat()).filter((v) => v !== undefined && v !== null).map(String);
      return fc.oneof(
        ...(own.length ? [fc.constantFrom(...own), fc.tuple(fc.constantFrom(...own), fc.constantFrom(...own)).map(([a, b]) => `${a},${b}`)] : []),
        fc.string({ maxLength: 6 }),
        fc.constantFrom<unknown>(undefined, null, "", ",", "GPU", "CPU", "RUNNING", "EXITED", 1, true),
      );
    };
    const translates = (answer: unknown) => {
      try {
        return gatewayV1(answer) && true;
      } catch {
        return false; // the gateway answers 502 (a record it cannot translate): no list to filter
      }
    };
    const lists = fc.array(arbitraryFor(v2, schema, wrapper), { minLength: 1, maxLength: 3 }).map((answers) => ({ [wrapper]: answers.flatMap((a: any) => (Array.isArray(a?.[wrapper]) ? a[wrapper] : [])) }));
    const scenario = lists.filter(translates).chain((answer) => {
      const v1 = gatewayV1(answer);
      const params = fc.subarray(fields.map(([p]) => p), { minLength: 1, maxLength: 3 });
      return params.chain((names) => fc.tuple(fc.constant(answer), fc.tuple(...names.map((n) => valueFor(v1, fields.find(([p]) => p === n)![1]).map((v) => [n, v] as const)))));
    });

    it.each(fields.map(([param]) => [param]))("%s, alone and with others", (param) => {
      const withParam = scenario.filter(([, pairs]) => pairs.some(([n]) => n === param));
      fc.assert(
        fc.property(withParam, ([answer, pairs]) => {
          const given = Object.fromEntries(pairs);
          const query = new URLSearchParams();
          // The v1 request: an absent value (undefined, null) is no parameter, as axios sends it.
          for (const [n, v] of pairs) if (v !== undefined && v !== null) query.append(n, String(v));
          const filters = translateQuery(op, query).filters;
          const gateway = applyFilters(gatewayV1(answer), filters).map(strip(left));
          const kept = adapter.filterList(v2RecordsOf(op, answer), key, given);
          expect(kept.every((r) => (answer[wrapper] as unknown[]).includes(r)), "v2 records come back as they were").toBe(true);
          expect(kept.map((r) => strip(left)(gatewayV1({ [wrapper]: [r] })[0])), JSON.stringify({ given })).toStrictEqual(gateway);
          // A list that leaves sight whole: toV1List with the same filters is the gateway's v1 answer.
          expect(adapter.toV1List(answer, key, given).map(strip(left)), JSON.stringify({ given })).toStrictEqual(gateway);
        }),
        RUNS,
      );
      // Every record passes through when the parameter is absent; an empty value keeps none (as v1's gateway).
      const one = { [wrapper]: [{ id: "p1", name: "a" }] };
      expect(adapter.filterList(v2RecordsOf(op, one), key, { [param]: undefined })).toHaveLength(1);
      expect(adapter.filterList(v2RecordsOf(op, one), key, { [param]: "" })).toHaveLength(0);
    });
  });

  it("a parameter it does not hold is refused, not ignored", () => {
    expect(() => adapter.filterList([], "ListPods", { templateId: "t" })).toThrow(/not a filter of ListPods/);
    expect(() => adapter.filterList([], "PodBilling", { gpuTypeId: "x" })).toThrow(/not a list it filters/);
  });
});
