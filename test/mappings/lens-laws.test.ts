// Property tests: lossless converters and lenses obey toV1(toV2(x)) == x, and every v1 body the
// v1 document allows translates to a v2 body the v2 document accepts (or to an explicit rejection).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadV1, loadV2, type OpenApiDocument } from "../../openapi/reference.ts";
import { createV2Validator } from "../../openapi/validator.ts";
import { converters, lenses, operations, toV1, toV2, type CatalogView } from "../../mappings/index.ts";
import { componentSchema } from "../helpers/schema-walk.ts";
import { refDescribe } from "../helpers/reference.ts";

const RUNS = { numRuns: 300, interruptAfterTimeLimit: 5_000 };

/** v1-side inputs for each lossless converter. A lossless converter without one fails the suite. */
const losslessInputs: Record<string, fc.Arbitrary<unknown[]>> = {
  flashboot: fc.tuple(fc.boolean()),
  argv: fc.tuple(fc.array(fc.string({ unit: "grapheme-ascii" }), { minLength: 1, maxLength: 6 })),
  scaling: fc.oneof(
    fc.tuple(fc.constant("QUEUE_DELAY"), fc.integer({ min: 1, max: 600 })),
    fc.tuple(fc.constant("REQUEST_COUNT"), fc.integer({ min: 1, max: 1000 })),
  ),
};
// The update forms convert as the create forms do (the gateway reads the endpoint first where they differ).
losslessInputs.scalingUpdate = losslessInputs.scaling!;
losslessInputs.flashbootUpdate = losslessInputs.flashboot!;

describe("lossless converters round-trip", () => {
  const lossless = Object.values(converters).filter((c) => c.lossless);

  it("every lossless converter has a property test", () => {
    for (const c of lossless) expect(losslessInputs[c.name], c.name).toBeDefined();
  });

  it.each(lossless.map((c) => [c.name, c] as const))("%s: toV1(toV2(x)) == x", (name, c) => {
    fc.assert(
      fc.property(losslessInputs[name]!, (input) => {
        expect(c.toV1(c.toV2(input, {}), {})).toEqual(input);
      }),
      RUNS,
    );
  });
});

describe("argv quoting survives shell-special characters", () => {
  it("keeps spaces, quotes and empty words", () => {
    const words = ["python", "-c", "print('hi there')", "", "a\"b", "$HOME"];
    expect(converters.argv!.toV1(converters.argv!.toV2([words], {}), {})).toEqual([words]);
  });
});

type Schema = Record<string, any>;

function deref(doc: OpenApiDocument, s: Schema): Schema {
  while (s?.$ref) s = s.$ref.replace(/^#\//, "").split("/").reduce((n: any, k: string) => n?.[k], doc);
  return s;
}

/** Arbitrary values for a v1 field from its v1 schema, kept to realistic ranges. */
function arbitraryFor(doc: OpenApiDocument, schema: Schema, name: string): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case "boolean":
      return fc.boolean();
    case "integer":
    case "number":
      return fc.integer({ min: 10, max: 500 });
    case "array":
      return fc.array(arbitraryFor(doc, s.items ?? { type: "string" }, name), { minLength: 1, maxLength: 3 });
    case "object":
      return fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), fc.string({ maxLength: 12 }), { maxKeys: 3 });
    default:
      return name.toLowerCase().endsWith("id") ? fc.stringMatching(/^[a-z0-9]{6,14}$/) : fc.string({ minLength: 1, maxLength: 24 });
  }
}

function v1BodyArbitrary(doc: OpenApiDocument, schemaName: string, omit: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const root = componentSchema(doc, schemaName)!;
  const props = Object.entries(root.properties ?? {}).filter(([k]) => !omit.includes(k));
  const shape = Object.fromEntries(props.map(([k, v]) => [k, arbitraryFor(doc, v as Schema, k)]));
  return fc.record(shape, { requiredKeys: (root.required ?? []).filter((k: string) => !omit.includes(k)) }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Every GPU type id any v1 schema enumerates. */
function v1GpuTypeIds(doc: OpenApiDocument): string[] {
  const ids = new Set<string>();
  for (const schema of Object.values(doc.components!.schemas) as Schema[]) {
    for (const prop of Object.values(schema.properties ?? {}) as Schema[]) {
      if (prop.type === "array" && prop.items?.enum?.some((v: string) => v.startsWith("NVIDIA"))) for (const id of prop.items.enum) ids.add(id);
    }
  }
  return [...ids];
}

/** A stand-in catalog: every v1 GPU type id sits in one of three pools. */
function fakeCatalog(doc: OpenApiDocument): CatalogView {
  const ids = v1GpuTypeIds(doc);
  const poolOf = (id: string) => `POOL_${ids.indexOf(id) % 3}`;
  return { poolOfGpuType: (id) => (ids.includes(id) ? poolOf(id) : undefined), gpuTypesInPool: (p) => ids.filter((id) => poolOf(id) === p) };
}

/**
 * Rules v1 enforced that its schema does not express (from the v1 field descriptions): a pod needs
 * an image or a template; GPU count and CUDA filters of an endpoint describe the GPU types listed.
 */
function acceptedByV1(lensName: string, body: Record<string, unknown>): boolean {
  if (lensName === "pod-create") return body.imageName !== undefined || body.templateId !== undefined;
  if (lensName === "endpoint-create") {
    const gpuDetail = ["gpuCount", "allowedCudaVersions", "minCudaVersion"].some((k) => body[k] !== undefined);
    return !gpuDetail || body.gpuTypeIds !== undefined;
  }
  return true;
}

refDescribe("lenses against the published documents", () => {
  const v1 = loadV1();
  const v2 = loadV2();
  const validator = createV2Validator(v2);
  const ctx = { catalog: fakeCatalog(v1) };
  const requestLenses = operations.filter((o) => o.request?.lens && !o.key.includes("#"));

  it.each(requestLenses.map((o) => [o.request!.lens!, o] as const))(
    "%s: any v1 body becomes a valid v2 body or an explicit rejection",
    (lensName, op) => {
      const lens = lenses[lensName]!;
      fc.assert(
        fc.property(v1BodyArbitrary(v1, lens.v1Schema).filter((b) => acceptedByV1(lensName, b)), (body) => {
          const result = toV2(lens, body, ctx);
          if (result.rejections.length) return;
          // v2 rejects an empty PATCH; the table answers those with a read (emptyUpdateAsRead).
          if (!Object.keys(result.body).length && op.emulations?.includes("emptyUpdateAsRead")) return;
          const verdict = validator.validateRequestBody(op.v2!.method, op.v2!.path, result.body);
          expect(verdict, JSON.stringify({ body, v2: result.body })).toEqual({ ok: true });
        }),
        { numRuns: 150, interruptAfterTimeLimit: 5_000 },
      );
    },
  );

  const allLossless = Object.values(lenses).filter(
    (l) => !l.v1Defaults && l.fields.every((f) => !f.only && (!f.converter || converters[f.converter]!.lossless)),
  );

  it("some lenses are wholly lossless (network volumes, registries)", () => {
    expect(allLossless.map((l) => l.name)).toEqual(expect.arrayContaining(["network-volume-create", "registry-create"]));
  });

  it.each(allLossless.map((l) => [l.name, l] as const))("%s: toV1(toV2(x)) == x", (_, lens) => {
    fc.assert(
      fc.property(v1BodyArbitrary(v1, lens.v1Schema), (body) => {
        expect(toV1(lens, toV2(lens, body, ctx).body, ctx)).toEqual(body);
      }),
      RUNS,
    );
  });
});
