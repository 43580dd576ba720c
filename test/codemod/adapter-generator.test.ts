// The generator's machinery on a table of the test's own: converters written once per combination
// of present inputs (toward v2 with `codemod`, toward v1 with `codemodToV1`), nested and numeric
// paths, v1 defaults with their exceptions, refused inputs, v2 defaults, null left out of v1
// records, operation synonyms, and the reasons a lens is left out. Same differential as the real
// table's: the generated module against the gateway's compiled lens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import type { BodyLens, Converter, OperationMapping } from "../../mappings/types.ts";
import { converters } from "../../mappings/data/converters.ts";
import { compiledLens } from "../../mappings/compiled-lens.ts";
import { adapterCall, adapterCoverageReasons, adapterCovers, adapterModule, type AdapterTable } from "../../codemod/adapter/index.ts";
import { loadAdapter, outcome } from "./adapter-load.ts";

const seed = process.env.ADAPTER_SEED ? Number(process.env.ADAPTER_SEED) : undefined;

const probeStatus: Converter = {
  name: "probeStatus",
  summary: "test: v2 status → v1 desiredStatus",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([s]) => [s === undefined ? undefined : s === "EXITED" || s === "ERROR" ? "EXITED" : "RUNNING"],
  codemod: null,
  codemodToV1: ([s]) => [s === undefined ? undefined : `(${s}) === "EXITED" || (${s}) === "ERROR" ? "EXITED" : "RUNNING"`],
};

/** Two inputs, two outputs, a form that differs by which inputs are present, and nulls to leave out. */
const probePair: Converter = {
  name: "probePair",
  summary: "test: two v2 fields → two v1 fields",
  lossless: false,
  toV2: () => [undefined, undefined],
  toV1: ([a, b]) => [a ?? "none", b === undefined ? undefined : b === null ? null : String(b)],
  codemod: null,
  codemodToV1: ([a, b]) => [a === undefined ? `"none"` : `(${a}) ?? "none"`, b === undefined ? undefined : `(${b}) === null ? null : String(${b})`],
};

/** The first present of two inputs: one form for "first set" whatever the second, so two masks share a branch. */
const probeFirst: Converter = {
  name: "probeFirst",
  summary: "test: first present of two",
  lossless: false,
  toV2: ([a, b]) => [a !== undefined ? a : b],
  toV1: () => [undefined, undefined],
  codemod: ([a, b]) => [(a ?? b)?.source],
};

const reviewed: Converter = { ...probeStatus, name: "probeReviewed", toV2: ([x]) => [x], codemod: ([x]) => [x?.source], codemodReview: () => "only the first entry is used" };
const noForm: Converter = { ...probeStatus, name: "probeNoForm", toV2: ([x]) => [x], codemod: null, codemodReason: "no way to write it" };

const body: BodyLens = {
  name: "probe-create",
  v1Schema: "ProbeInput",
  v2Schema: "CreateProbe",
  fields: [
    { v1: ["name"], v2: ["name"] },
    { v1: ["volumeId"], v2: ["mounts.network.0.volumeId"] },
    { v1: ["region"], v2: ["placement.dataCenter"] },
    { v1: ["flashboot"], v2: ["flashboot"], converter: "flashboot" },
    { v1: ["idleTimeout", "scalerType"], v2: ["workers.idleTimeout"], converter: "idleTimeout" },
    { v1: ["primary", "fallback"], v2: ["choice"], converter: "probeFirst" },
    { v1: ["readBack"], v2: ["readBack"], only: "toV1" },
  ],
  unmapped: [
    { v1: "entry", decision: "reject", harmlessValue: [], reason: "no entrypoint", advice: "use the image's" },
    { v1: "spot", decision: "reject", harmlessValue: false, reason: "no spot", advice: "on demand" },
    { v1: "hint", decision: "drop-with-warning", reason: "no hints", advice: "none" },
  ],
  v1Defaults: { scalerType: "QUEUE_DELAY", idleTimeout: 5, name: "my probe", tags: ["a", "b"] },
  v1DefaultsUnless: "templateId",
  v1DefaultsExcept: [{ field: "idleTimeout", when: { scalerType: "REQUEST_COUNT" }, reason: "v2 refuses it" }],
  v2Defaults: { type: "QUEUE", "workers.min": 0 },
};

const record: BodyLens = {
  name: "probe-record",
  v1Schema: "Probe",
  v2Schema: "Probe",
  fields: [
    { v1: ["id"], v2: ["id"] },
    { v1: ["machine.dataCenterId"], v2: ["dataCenterId"] },
    { v1: ["gpuTypeId"], v2: ["gpu.id"] },
    { v1: ["desiredStatus"], v2: ["status"], converter: "probeStatus", only: "toV1" },
    { v1: ["x", "y"], v2: ["a", "b"], converter: "probePair", only: "toV1" },
    { v1: ["sentOnly"], v2: ["sentOnly"], only: "toV2" },
  ],
};

const blocked = (name: string, fields: BodyLens["fields"], unmapped: BodyLens["unmapped"] = []): BodyLens => ({ name, v1Schema: "X", v2Schema: "Y", fields, unmapped });

const op = (key: string, extra: Partial<OperationMapping>): OperationMapping => ({
  key,
  summary: key,
  v1: { operationId: key.split("#")[0]!, method: "POST", path: `/${key}`, status: 200 },
  v2: { operationId: `v2${key}`, method: "POST", path: `/v2/${key}`, status: 201 },
  status: "mapped",
  response: { kind: "record", lens: "probe-record" },
  changes: [],
  ...extra,
});

const table: AdapterTable = {
  operations: [
    op("CreateProbe", { request: { lens: "probe-create" } }),
    op("CreateProbe#post-update", { request: { lens: "probe-create" } }),
    op("ListProbes", { response: { kind: "list", wrapper: "probes", lens: "probe-record" } }),
    op("LockedProbe", { request: { lens: "probe-create" }, emulations: ["lockOnCreate"] }),
    op("NoFormProbe", { request: { lens: "no-form-probe" } }),
    op("CatalogProbe", { request: { lens: "catalog-probe" } }),
    op("ComputeProbe", { request: { lens: "compute-probe" } }),
    op("ReviewProbe", { request: { lens: "review-probe" } }),
    op("EmulateProbe", { request: { lens: "emulate-probe" } }),
  ],
  lenses: {
    "probe-create": body,
    "probe-record": record,
    "no-form-probe": blocked("no-form-probe", [{ v1: ["cmd"], v2: ["args"], converter: "probeNoForm" }]),
    "catalog-probe": blocked("catalog-probe", [{ v1: ["gpuTypeIds"], v2: ["gpu"], converter: "endpointGpu" }]),
    "compute-probe": blocked("compute-probe", [{ v1: ["computeType", "gpuTypeIds", "gpuCount", "allowedCudaVersions", "cpuFlavorIds", "vcpuCount"], v2: ["gpu", "cpu"], converter: "podCompute" }]),
    "review-probe": blocked("review-probe", [{ v1: ["ids"], v2: ["id"], converter: "probeReviewed" }]),
    "emulate-probe": blocked("emulate-probe", [{ v1: ["name"], v2: ["name"] }], [{ v1: "locked", decision: "emulate", reason: "set by a PATCH after create", advice: "PATCH it" }]),
  },
  converters: { ...converters, probeStatus, probePair, probeFirst, probeReviewed: reviewed, probeNoForm: noForm },
  emulations: ["lockOnCreate"],
};

// The gateway's compiled lens finds converters in the table's registry: lend it the test's own.
beforeAll(() => Object.assign(converters, { probeStatus, probePair, probeFirst }));
afterAll(() => {
  delete converters.probeStatus;
  delete converters.probePair;
  delete converters.probeFirst;
});

describe("a generated module from a table with converters, defaults and refusals", () => {
  const text = adapterModule({ language: "ts", moduleKind: "esm" }, table).text;
  const adapter = loadAdapter(text);

  it("holds the writable operations once (synonyms share an entry) and leaves the others out with their reasons", () => {
    expect(Object.keys(adapter.toV2Body)).toEqual(["CreateProbe"]);
    expect(adapterCall("requestBody", "CreateProbe#post-update", "b", undefined, table)).toBe("v2Adapter.toV2Body.CreateProbe(b)");
    expect(Object.keys(adapter.toV1Record)).toEqual(["probe"]);
    expect(adapterCovers("requestBody", "LockedProbe", table)).toBe("needs the gateway's extra calls or lookups (lockOnCreate)");
    expect(adapterCovers("requestBody", "NoFormProbe", table)).toBe("cmd: probeNoForm has no source form (no way to write it)");
    expect(adapterCovers("requestBody", "CatalogProbe", table)).toBe("gpuTypeIds: endpointGpu needs the live GPU catalog");
    // computeType is written per value (mappings/enum-split.ts); what stops it is the GPU fallback list.
    expect(adapterCovers("requestBody", "ComputeProbe", table)).toMatch(/gpuTypeIds is left out \(or empty\)/);
    expect(adapterCovers("requestBody", "ReviewProbe", table)).toBe("ids: only the first entry is used");
    expect(adapterCoverageReasons("requestBody", "EmulateProbe", table)).toEqual(["locked: set by a PATCH after create"]);
    expect(() => adapterCall("requestBody", "LockedProbe", "b", undefined, table)).toThrow(/does not hold requestBody LockedProbe: needs the gateway's extra calls/);
  });

  it("v1 body → v2 body equals the compiled lens, refusals included", () => {
    const lens = compiledLens(body);
    const v1Bodies = fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null)),
        volumeId: fc.oneof(fc.constantFrom("v1", ""), fc.constant(null)),
        region: fc.constantFrom("EU", ""),
        flashboot: fc.boolean(),
        idleTimeout: fc.constantFrom(0, 5, 30),
        scalerType: fc.constantFrom("QUEUE_DELAY", "REQUEST_COUNT"),
        primary: fc.oneof(fc.constantFrom(0, "", "p"), fc.constant(null)),
        fallback: fc.constantFrom(1, "f"),
        readBack: fc.constant("x"),
        entry: fc.constantFrom([], ["sh"], ""),
        spot: fc.boolean(),
        hint: fc.string({ maxLength: 3 }),
        templateId: fc.constantFrom("t1", ""),
        tags: fc.constantFrom([], ["z"]),
        unknownField: fc.integer(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(v1Bodies, (v1) => {
        const g = lens.toV2(v1, {});
        const gateway = g.rejections.length ? { threw: g.rejections.join("; ") } : { value: g.body };
        expect(outcome(() => adapter.toV2Body.CreateProbe!(v1)), JSON.stringify(v1)).toStrictEqual(gateway);
      }),
      { numRuns: 400, seed, examples: [[{}], [{ scalerType: "REQUEST_COUNT" }], [{ templateId: "t1" }], [{ entry: ["sh"], spot: true }]] },
    );
  });

  it("v2 record → v1 record equals the compiled lens, nulls left out", () => {
    const lens = compiledLens(record);
    const value = fc.oneof(fc.constant(null), fc.constant(0), fc.string({ maxLength: 3 }), fc.constantFrom("EXITED", "ERROR", "RUNNING"));
    const v2Records = fc.record(
      { id: value, dataCenterId: value, gpu: fc.oneof(fc.constant(null), fc.record({ id: value }, { requiredKeys: [] })), status: value, a: value, b: value, sentOnly: value },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(v2Records, (v2) => {
        expect(adapter.toV1Record.probe!(v2), JSON.stringify(v2)).toStrictEqual(lens.toV1(v2, {}));
        expect(adapter.toV1List({ probes: [v2, v2] }, "ListProbes")).toStrictEqual([lens.toV1(v2, {}), lens.toV1(v2, {})]);
      }),
      { numRuns: 400, seed },
    );
  });

  it("type-checks under strict (converter reads, presence masks) with no dependency", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "adapter-gen-"));
    try {
      const file = path.join(dir, "v2-bridge-adapter.ts");
      writeFileSync(file, text);
      const program = ts.createProgram([file], {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        noImplicitReturns: true,
        noPropertyAccessFromIndexSignature: true,
        noEmit: true,
        module: ts.ModuleKind.ES2022,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2022.d.ts"],
        types: [],
      });
      expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes each combination of present inputs once, sharing branches that write the same thing", () => {
    // probeFirst writes the first input whether or not the second is set; idleTimeout writes nothing for scalerType alone.
    expect(text).toContain("const m = (a0 !== undefined ? 1 : 0) | (a1 !== undefined ? 2 : 0);");
    expect(text).toMatch(/if \(m === 1 \|\| m === 3\) \{\n\s+put\(out, "choice", a0\);\n\s+\}\n\s+else if \(m === 2\) \{\n\s+put\(out, "choice", a1\);/);
    expect(text).toMatch(/if \(m === 1\) \{\n\s+put\(out, "workers\.idleTimeout", a0\);\n\s+\}\n\s+else if \(m === 3\) \{/);
  });
});
