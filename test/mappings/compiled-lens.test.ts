// Compiled lenses (mappings/compiled-lens.ts) must behave exactly like reading the lens table field by
// field. The reference reading below is the straightforward interpreter the gateway used before
// lenses were compiled; random records built from each lens's own paths must give equal results.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { converterNamed, knownV1Fields, lenses, toV1, toV2, withV1Defaults, type BodyLens, type CatalogView, type ConvertContext, type FieldLens } from "../../mappings/index.ts";
import { getPath, setPath } from "../../mappings/object-paths.ts";

const applies = (f: FieldLens, direction: "toV2" | "toV1") => !f.only || f.only === direction;

function referenceToV2(lens: BodyLens, v1Input: Record<string, unknown>, ctx: ConvertContext) {
  const v1 = withV1Defaults(lens, v1Input);
  const result = { body: {} as Record<string, unknown>, warnings: [] as string[], rejections: [] as string[], emulate: {} as Record<string, unknown>, dropped: [] as string[] };
  // Converters that drop an input say so through the context's warn (V2-Bridge-Warning), naming it.
  ctx = {
    ...ctx,
    warn: (message, droppedField) => {
      result.warnings.push(message);
      if (droppedField) result.dropped.push(droppedField);
    },
  };
  for (const f of lens.fields) {
    if (!applies(f, "toV2")) continue;
    const inputs = f.v1.map((p) => getPath(v1, p));
    if (inputs.every((v) => v === undefined)) continue;
    let outputs: unknown[];
    try {
      outputs = f.converter ? converterNamed(f.converter).toV2(inputs, ctx) : inputs;
    } catch (error) {
      result.rejections.push(`${f.v1.join(", ")}: ${(error as Error).message}`);
      continue;
    }
    f.v2.forEach((p, i) => setPath(result.body, p, outputs[i]));
  }
  for (const u of lens.unmapped ?? []) {
    const value = v1[u.v1];
    if (value === undefined || (u.harmlessValue !== undefined && JSON.stringify(value) === JSON.stringify(u.harmlessValue))) continue;
    if (u.decision === "reject") result.rejections.push(`${u.v1}: ${u.reason}; ${u.advice}`);
    else if (u.decision === "drop-with-warning") {
      result.warnings.push(`${u.v1} ignored: ${u.reason}`);
      result.dropped.push(u.v1);
    }
    else result.emulate[u.v1] = value;
  }
  const known = knownV1Fields(lens);
  for (const name of Object.keys(v1Input)) {
    if (known.has(name)) continue;
    result.warnings.push(`${name} ignored: not a v1 ${lens.v1Schema} field`);
    result.dropped.push(name);
  }
  for (const [path, value] of Object.entries(lens.v2Defaults ?? {})) if (getPath(result.body, path) === undefined) setPath(result.body, path, value);
  return result;
}

function referenceToV1(lens: BodyLens, v2: Record<string, unknown>, ctx: ConvertContext) {
  const out: Record<string, unknown> = {};
  for (const f of lens.fields) {
    if (!applies(f, "toV1")) continue;
    const inputs = f.v2.map((p) => getPath(v2, p));
    if (inputs.every((v) => v === undefined)) continue;
    const outputs = f.converter ? converterNamed(f.converter).toV1(inputs, ctx) : inputs;
    f.v1.forEach((p, i) => {
      if (outputs[i] !== null) setPath(out, p, outputs[i]);
    });
  }
  return out;
}

/** Result or thrown message, so both sides can be compared even when a converter throws. */
function outcome(fn: () => unknown): unknown {
  try {
    return { ok: fn() };
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

const catalog: CatalogView = {
  poolOfGpuType: (id) => (id.startsWith("NVIDIA") ? "POOL_A" : id === "AMD MI300X" ? "POOL_B" : undefined),
  gpuTypesInPool: (pool) => (pool === "POOL_A" ? ["NVIDIA RTX A5000", "NVIDIA A100"] : pool === "POOL_B" ? ["AMD MI300X"] : []),
};

const leaf = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 100 }),
  fc.constantFrom("", "RUNNING", "EXITED", "GPU", "CPU", "QUEUE_DELAY", "REQUEST_COUNT", "NVIDIA RTX A5000", "AMD MI300X", "python -c 'x y'", "/workspace"),
  fc.array(fc.constantFrom("NVIDIA RTX A5000", "AMD MI300X", "a b", "8888/http"), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom("size", "path", "id", "count", "type", "queueDelay", "requestCount", "volumeId"), fc.oneof(fc.integer({ min: 0, max: 50 }), fc.string({ maxLength: 4 })), { maxKeys: 3 }),
);

/** A record holding random values at (prefixes of) the given dotted paths, plus a stray key. */
function recordAt(paths: string[]): fc.Arbitrary<Record<string, unknown>> {
  const spots = [...new Set(paths.flatMap((p) => p.split(".").map((_, i, all) => all.slice(0, i + 1).join("."))))];
  return fc.tuple(fc.array(fc.tuple(fc.constantFrom(...spots), leaf), { maxLength: spots.length + 2 }), fc.boolean()).map(([entries, stray]) => {
    const out: Record<string, unknown> = stray ? { strayField: 1 } : {};
    for (const [path, value] of entries) {
      try {
        setPath(out, path, value);
      } catch {
        // a primitive already sits on the way: skip this entry
      }
    }
    return out;
  });
}

const RUNS = { numRuns: 200 };

describe.each(Object.values(lenses).map((l) => [l.name, l] as const))("compiled lens %s", (_name, lens) => {
  for (const ctx of [{}, { catalog }] as ConvertContext[]) {
    const label = ctx.catalog ? "with a catalog" : "without a catalog";
    it(`toV1 matches the table reading (${label})`, () => {
      fc.assert(
        fc.property(recordAt(lens.fields.flatMap((f) => f.v2)), (v2) => {
          expect(outcome(() => toV1(lens, structuredClone(v2), ctx))).toEqual(outcome(() => referenceToV1(lens, structuredClone(v2), ctx)));
        }),
        RUNS,
      );
    });
    it(`toV2 matches the table reading (${label})`, () => {
      const v1Paths = [...lens.fields.flatMap((f) => f.v1), ...(lens.unmapped ?? []).map((u) => u.v1), ...(lens.v1DefaultsUnless ? [lens.v1DefaultsUnless] : [])];
      fc.assert(
        fc.property(recordAt(v1Paths), (v1) => {
          expect(outcome(() => toV2(lens, structuredClone(v1), ctx))).toEqual(outcome(() => referenceToV2(lens, structuredClone(v1), ctx)));
        }),
        RUNS,
      );
    });
  }

  // The compiled toV2 reads each field from the body and falls back to the default only where the
  // body has no own field: a field given as undefined stays undefined, as in `{ ...defaults, ...body }`.
  const defaultable = [...Object.keys(lens.v1Defaults ?? {}), ...(lens.v1DefaultsUnless ? [lens.v1DefaultsUnless] : [])];
  if (defaultable.length) {
    it("toV2 keeps a body's own undefined fields over the v1 defaults", () => {
      const v1Paths = [...lens.fields.flatMap((f) => f.v1), ...(lens.unmapped ?? []).map((u) => u.v1), ...defaultable];
      fc.assert(
        fc.property(recordAt(v1Paths), fc.subarray(defaultable), (v1, blank) => {
          for (const name of blank) v1[name] = undefined;
          expect(outcome(() => toV2(lens, structuredClone(v1), { catalog }))).toStrictEqual(outcome(() => referenceToV2(lens, structuredClone(v1), { catalog })));
        }),
        RUNS,
      );
    });
  }
});
