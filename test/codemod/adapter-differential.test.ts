// Differential test of the boundary adapter: for every conversion the generated module holds, over
// values generated from the reference documents (v1 request schemas, v2 response schemas), the
// module's answer equals what the gateway computes for the same input (gateway/translate-*.ts and
// the mapping table's lenses). A failure prints fast-check's seed; ADAPTER_SEED=<n> replays it.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadV1, loadV2, type OpenApiDocument } from "../../openapi/reference.ts";
import { isHarmlessQuery, lenses, operations, toV1, type CatalogView, type OperationMapping } from "../../mappings/index.ts";
import { problemToV1Message, type Problem } from "../../mappings/errors.ts";
import { translateBody, translateQuery } from "../../gateway/translation/translate-request.ts";
import { toV1Answer, v2RecordsOf } from "../../gateway/translation/translate-response.ts";
import { upstreamError } from "../../gateway/translation/v1-errors.ts";
import { adapterModule } from "../../codemod/adapter/index.ts";
import { planOf } from "../../codemod/adapter/coverage.ts";
import { resourceName } from "../../codemod/adapter/plan.ts";
import { mappingTable } from "../../codemod/adapter/table.ts";
import { componentArbitrary, edgeExamples, arbitraryFor } from "../helpers/schema-arbitrary.ts";
import { refDescribe } from "../helpers/reference.ts";
import { createV2Validator } from "../../openapi/validator.ts";
import { loadAdapter, outcome, type Outcome } from "./adapter-load.ts";

const seed = process.env.ADAPTER_SEED ? Number(process.env.ADAPTER_SEED) : undefined;
const RUNS = { numRuns: 250, seed };

// The gateway always has a catalog; a lens the adapter holds must not depend on it.
const catalog: CatalogView = { poolOfGpuType: () => "POOL", gpuTypesInPool: () => ["NVIDIA L4"], hourlyRate: () => 0.5 };
const ctx = { catalog };

const opByKey = (key: string): OperationMapping => operations.find((o) => o.key === key)!;
const lensOfResource = (resource: string) => Object.values(lenses).find((l) => resourceName(l.name) === resource)!;

/**
 * Same answer, or both refuse (request bodies: with the gateway's 400 message). A body the
 * gateway refuses for a value rule of v2's (a volume under 10 GB) may instead reach v2, if v2's
 * document refuses it too (`v2Refuses`): the app then gets v2's 400.
 */
function expectSame(adapter: Outcome, gateway: Outcome, input: unknown, sameMessage: boolean, v2Refuses?: (body: unknown) => boolean): void {
  const where = JSON.stringify(input);
  if ("threw" in gateway && "value" in adapter && v2Refuses) {
    expect(v2Refuses(adapter.value), `gateway refused ${where} (${gateway.threw}); the adapter sent ${JSON.stringify(adapter.value)}, which v2 takes`).toBe(true);
    return;
  }
  if ("threw" in gateway) {
    expect("threw" in adapter, `gateway refused ${where} (${gateway.threw}); the adapter answered ${JSON.stringify(adapter)}`).toBe(true);
    // The gateway may also name a value rule of v2's the adapter leaves to v2 (v2Refuses above).
    if (sameMessage && v2Refuses) expect(gateway.threw, where).toContain((adapter as { threw: string }).threw);
    else if (sameMessage) expect((adapter as { threw: string }).threw, where).toBe(gateway.threw);
    return;
  }
  expect(adapter, where).toStrictEqual(gateway);
}

/** The gateway's answer without the v1 fields the adapter leaves out (the hourly rate, GPU types: the live catalog). */
function without(answer: Outcome, fields: string[]): Outcome {
  if (!fields.length || !("value" in answer)) return answer;
  const strip = (r: unknown) => (r && typeof r === "object" && !Array.isArray(r) ? Object.fromEntries(Object.entries(r).filter(([k]) => !fields.includes(k))) : r);
  return { value: Array.isArray(answer.value) ? answer.value.map(strip) : strip(answer.value) };
}

/** The JSON schema of a v2 operation's 200 answer. */
function v2AnswerSchema(doc: OpenApiDocument, op: OperationMapping): Record<string, unknown> {
  const path = doc.paths[op.v2!.path]![op.v2!.method.toLowerCase()];
  return path.responses["200"].content["application/json"].schema;
}

refDescribe("boundary adapter ≡ gateway translation", () => {
  const v1 = loadV1();
  const v2 = loadV2();
  const plan = planOf(mappingTable);
  const adapter = loadAdapter(adapterModule({ language: "ts", moduleKind: "esm" }).text);
  const v2Validator = createV2Validator(v2);

  it("holds the conversions the table allows today (bodies, records, lists)", () => {
    // A change here is a change in what the codemod can migrate through the adapter: say so in docs/codemod.md.
    expect(plan.toV2Body.map(([op]) => op)).toEqual(["CreateTemplate", "CreateNetworkVolume", "CreateContainerRegistryAuth"]);
    // Pod and endpoint records leave out their hourly rate and GPU types (the live catalog): a site may use them only where nothing reads those.
    expect(plan.toV1Record.map(([r]) => r)).toEqual(["pod", "endpoint", "template", "networkVolume", "registry", "podBilling", "serverlessBilling", "networkVolumeBilling"]);
    // The catalog's GPU name and prices are left out too (gpuDetailsFromCatalog in the gateway).
    const catalogGpu = ["gpu.displayName", "gpu.securePrice", "gpu.communityPrice", "machine.gpuDisplayName"];
    expect(plan.omits.get("record:pod")).toEqual([...catalogGpu, "costPerHr", "adjustedCostPerHr"]);
    expect(plan.omits.get("record:endpoint")).toEqual(["gpuTypeIds"]);
    expect(plan.omits.get("record:CreatePod")).toEqual([...catalogGpu, "costPerHr", "adjustedCostPerHr", "templateId"]);
    // A pod action's answer (v1 documents none; v2 answers the updated pod) is held as GetPod's record.
    for (const key of ["StartPod", "StopPod", "RestartPod"]) {
      expect(plan.omits.get(`record:${key}`), key).toEqual(plan.omits.get("record:GetPod"));
      expect(plan.coverage.get(`record:${key}`), key).toEqual(plan.coverage.get("record:pod"));
    }
    expect(plan.coverage.get("record:DeletePod")).toEqual(["DeletePod answers no record"]);
    expect(plan.lists.map(([op]) => op)).toEqual(["ListPods", "ListEndpoints", "ListTemplates", "ListNetworkVolumes", "ListContainerRegistryAuths", "EndpointBilling"]);
    expect(plan.recordLists.map(([op]) => op)).toEqual(["ListPods", "ListEndpoints", "ListTemplates", "ListNetworkVolumes", "ListContainerRegistryAuths", "EndpointBilling"]);
    expect(Object.keys(adapter.toV2Body)).toEqual(plan.toV2Body.map(([op]) => op));
    expect(Object.keys(adapter.toV1Record)).toEqual(plan.toV1Record.map(([r]) => r));
  });

  describe("toV2Body.<operation>(v1 body) ≡ translateBody", () => {
    it.each(plan.toV2Body.map(([key]) => [key]))("%s", (key) => {
      const op = opByKey(key);
      const schema = lenses[op.request!.lens!]!.v1Schema;
      const v2Refuses = (sent: unknown) => !v2Validator.validateRequestBody(op.v2!.method, op.v2!.path, sent).ok;
      const check = (body: Record<string, unknown>) =>
        expectSame(outcome(() => adapter.toV2Body[key]!(body)), outcome(() => translateBody(op, body, ctx)!.body), body, true, v2Refuses);
      fc.assert(fc.property(componentArbitrary(v1, schema), check), { ...RUNS, examples: edgeExamples(v1, schema).map((e) => [e]) });
      // The gateway reads an absent body as {}.
      expect(adapter.toV2Body[key]!(undefined)).toStrictEqual(translateBody(op, undefined, ctx)!.body);
    });
  });

  describe("toV1Record.<resource>(v2 record) ≡ the table's toV1 (less the fields it says it leaves out)", () => {
    it.each(plan.toV1Record.map(([resource]) => [resource]))("%s", (resource) => {
      const lens = lensOfResource(resource);
      const left = plan.omits.get(`record:${resource}`) ?? [];
      const check = (record: Record<string, unknown>) => expectSame(outcome(() => adapter.toV1Record[resource]!(record)), without(outcome(() => toV1(lens, record, ctx)), left), record, false);
      fc.assert(fc.property(componentArbitrary(v2, lens.v2Schema), check), { ...RUNS, examples: edgeExamples(v2, lens.v2Schema).map((e) => [e]) });
    });
  });

  describe("unwrapList / toV1List(v2 answer, operation) ≡ v2RecordsOf / toV1Answer", () => {
    const malformed = (wrapper: string) => fc.constantFrom<unknown>(null, [], "x", {}, { [wrapper]: null }, { [wrapper]: {} }, { [wrapper]: [1] }, { [wrapper]: [[]] }, { [wrapper]: [null] });

    it.each(plan.lists.map(([key, wrapper]) => [key, wrapper]))("%s (%s)", (key, wrapper) => {
      const op = opByKey(key);
      const holdsRecords = plan.recordLists.some(([k]) => k === key);
      const answers = fc.oneof({ weight: 5, arbitrary: arbitraryFor(v2, v2AnswerSchema(v2, op), wrapper) }, { weight: 1, arbitrary: malformed(wrapper) });
      const empty = { [wrapper]: [] };
      fc.assert(
        fc.property(answers, (answer) => {
          expectSame(outcome(() => adapter.unwrapList(answer, key)), outcome(() => v2RecordsOf(op, answer)), answer, false);
          if (holdsRecords) {
            const left = plan.omits.get(`recordList:${key}`) ?? [];
            expectSame(outcome(() => adapter.toV1List(answer, key)), without(outcome(() => toV1Answer(op, v2RecordsOf(op, answer), ctx).json), left), answer, false);
          }
        }),
        { ...RUNS, examples: [[empty]] },
      );
    });

    it("an operation the adapter holds no list for is refused, not guessed", () => {
      expect(() => adapter.unwrapList({ records: [] }, "PodBilling")).toThrow(/not a list operation/);
      expect(() => adapter.toV1List({ records: [] }, "PodBilling")).toThrow(/not a record list/);
    });
  });

  it("v1Message(problem, status) ≡ the gateway's v1 message for a v2 error answer", () => {
    const problems = fc.oneof(
      arbitraryFor(v2, v2.components!.schemas.ErrorResponse),
      fc.record({ title: fc.string(), detail: fc.oneof(fc.constant(""), fc.string()), errors: fc.array(fc.oneof(fc.string(), fc.integer())) }, { requiredKeys: [] }),
      fc.record({ message: fc.string() }),
      fc.constantFrom<unknown>(null, "text", [], { status: 400 }),
    );
    const statuses = fc.constantFrom(400, 401, 403, 404, 409, 422, 429);
    fc.assert(
      fc.property(problems, statuses, (problem, status) => {
        const ours = adapter.v1Message(problem, status).message;
        expect(ours, JSON.stringify(problem)).toBe(upstreamError({ status, json: problem, text: JSON.stringify(problem) ?? "" }).message);
        if (problem && typeof problem === "object" && ("detail" in problem || "title" in problem)) expect(ours).toBe(problemToV1Message(problem as Problem, status).message);
      }),
      RUNS,
    );
    // Without a status (the app may not pass one) the message says no "undefined".
    expect(adapter.v1Message({ title: "", detail: "" }).message).toBe("upstream error");
    expect(adapter.v1Message({ title: "", status: 409 }).message).toBe("upstream error 409");
    expect(adapter.v1Message("Bad Gateway").message).toBe("upstream error");
  });

  // A relay with no status test (`res.status(r.status).json(toV1Record.pod(await r.json()))`) hands
  // the converters v2's error answers too: they answer the v1 message the gateway answers for it.
  it("toV1Record.<resource>(v2 error answer) and toV1List(v2 error answer) ≡ the gateway's v1 message", () => {
    // v2's ErrorResponse, with its required `title`, `status` and `detail`.
    const problems = fc.record({ title: fc.string(), status: fc.integer({ min: 400, max: 599 }), detail: fc.string(), errors: fc.array(fc.string(), { maxLength: 3 }) }, { requiredKeys: ["title", "status", "detail"] });
    const listed = plan.recordLists.map(([op]) => op);
    fc.assert(
      fc.property(problems, fc.constantFrom(...plan.toV1Record.map(([r]) => r)), fc.constantFrom(...listed), (problem, resource, op) => {
        const gateway = { message: upstreamError({ status: 404, json: problem, text: JSON.stringify(problem) }).message };
        expect(adapter.toV1Record[resource]!(problem), JSON.stringify(problem)).toStrictEqual(gateway);
        expect(adapter.toV1List(problem, op), JSON.stringify(problem)).toStrictEqual(gateway);
      }),
      RUNS,
    );
    // Before: a 404 relayed through the pod converter came out as a running pod.
    expect(adapter.toV1Record.pod!({ title: "Not Found", status: 404, detail: "pod not found" })).toStrictEqual({ message: "pod not found" });
    // A record is never taken for a problem: it has neither `title` nor `detail`, and no numeric status.
    expect(adapter.toV1Record.pod!({ id: "p1", status: "RUNNING" })).not.toHaveProperty("message");
  });
});

// toV2Query: the query object a call passes, as v1 took it, against the gateway's translateQuery of
// the same request (values serialised as a request sends them: undefined, null and [] not at all,
// an array one pair per item). Where the gateway only forwards (renames, harmless values left
// out, names v1 did not take dropped, at most a "not given" note), the adapter's query is the gateway's; where it refuses, warns
// and drops, filters, expands or emulates an absent default, the adapter throws.
refDescribe("toV2Query.<operation>(v1 query) ≡ translateQuery", () => {
  const v1 = loadV1();
  const plan = planOf(mappingTable);
  const adapter = loadAdapter(adapterModule({ language: "ts", moduleKind: "esm" }).text);

  /** The v1 document's query parameter names of an operation, with the table's and one v1 never had. */
  const namesOf = (op: OperationMapping): string[] => {
    const params = (v1.paths[op.v1.path]?.[op.v1.method.toLowerCase()]?.parameters ?? []) as { in?: string; name?: string }[];
    const documented = params.filter((p) => p.in === "query" && p.name).map((p) => p.name!);
    return [...new Set([...documented, ...(op.query ?? []).map((q) => q.v1), "notAV1Param"])];
  };
  const valueFor = (op: OperationMapping, name: string) => {
    const m = op.query?.find((q) => q.v1 === name);
    const own = [...(m?.harmless?.values ?? []), ...(m?.v1Default ? [m.v1Default.value] : [])];
    const scalar = fc.oneof(fc.constantFrom<unknown>(true, false, "true", "false", "", "GPU", "podId", "day", 3), fc.string({ maxLength: 5 }), ...(own.length ? [fc.constantFrom(...own)] : []));
    return fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.constantFrom<unknown>(undefined, null));
  };
  const sent = (query: Record<string, unknown>): URLSearchParams => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null) continue;
      for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined && x !== null) qs.append(k, String(x));
    }
    return qs;
  };
  const pairs = (qs: URLSearchParams) => [...qs.entries()];

  it("translates the query of every operation with v1 query parameters and a v2 operation", () => {
    expect(plan.queries.map(([op]) => op)).toEqual(operations.filter((o) => o.v2 && o.status !== "no-equivalent" && o.query?.length && !o.key.includes("#")).map((o) => o.key));
    expect(Object.keys(adapter.toV2Query)).toEqual(plan.queries.map(([op]) => op));
  });

  it.each(plan.queries.map(([key]) => [key]))("%s", (key) => {
    const op = opByKey(key);
    const names = namesOf(op);
    const queries = fc.subarray(names, { maxLength: Math.min(4, names.length) }).chain((chosen) => fc.tuple(...chosen.map((n) => valueFor(op, n).map((v) => [n, v] as const))).map((kv) => Object.fromEntries(kv) as Record<string, unknown>));
    fc.assert(
      fc.property(queries, (query) => {
        const qs = sent(query);
        const gateway = translateQuery(op, qs);
        const given = new Set(qs.keys());
        const emulatesAbsent = (op.query ?? []).some((m) => m.decision === "emulate" && m.v1Default && !isHarmlessQuery(m, [m.v1Default.value]) && !given.has(m.v1));
        const emulates = Object.entries(gateway.emulatedParams).some(([n, v]) => !isHarmlessQuery(op.query!.find((q) => q.v1 === n), [v]));
        const forwardsOnly = !gateway.rejections.length && !gateway.filters.length && !gateway.expansions.length && !emulates && !emulatesAbsent && gateway.warnings.every((w) => / not given: | ignored: not a query parameter of v1 /.test(w)) && gateway.dropped.every((n) => !op.query?.some((q) => q.v1 === n));
        const ours = outcome(() => adapter.toV2Query[key]!(query));
        const where = JSON.stringify(query);
        if (!forwardsOnly) expect("threw" in ours, `the gateway does more than forward ${where}; the adapter answered ${JSON.stringify(ours)}`).toBe(true);
        else {
          expect("value" in ours, `${where}: ${JSON.stringify(ours)}`).toBe(true);
          expect(pairs(sent((ours as { value: Record<string, unknown> }).value)), where).toStrictEqual(pairs(gateway.v2));
        }
      }),
      { ...RUNS, examples: [[{}]] },
    );
    // An absent query object is an empty one.
    expect(outcome(() => adapter.toV2Query[key]!(undefined))).toStrictEqual(outcome(() => adapter.toV2Query[key]!({})));
  });
});
