// An enum input known only at run time (mappings/enum-split.ts): every converter that reads an enum
// writes, for each value the input can take (and for its absence when it is optional), text that
// evaluates to what the gateway's toV2 gives for that value; a form it still cannot write stays null
// (or throws the reason toV2 refuses it for).
import { describe, expect, it } from "vitest";
import { converters, lenses, type Converter, type SourceInput, type V1Kind } from "../../mappings/index.ts";

const SAMPLE: Record<string, unknown> = { integer: 3, string: "x", "string[]": ["a", "b"], boolean: true };
const sample = (kind: V1Kind) => (typeof kind === "string" ? SAMPLE[kind] : kind[0]);

/** How many v1 inputs the table's lenses give each converter (an update may pass fewer than its accepts list). */
const arity = new Map<string, number>();
for (const lens of Object.values(lenses)) for (const f of lens.fields) if (f.converter) arity.set(f.converter, Math.max(arity.get(f.converter) ?? 0, f.v1.length));

/** Converters with an enum input the table passes, and that input's index. */
const withEnums = Object.values(converters).flatMap((c) =>
  c.codemod && c.accepts ? c.accepts.flatMap((a, i) => (typeof a.kind === "string" || i >= (arity.get(c.name) ?? 0) ? [] : [{ c, i, values: a.kind }])) : [],
);

function evaluate(text: string | undefined, scope: Record<string, unknown>): unknown {
  if (text === undefined) return undefined;
  // eslint-disable-next-line no-new-func
  return new Function(...Object.keys(scope), `return (${text});`)(...Object.values(scope));
}

const json = (v: unknown) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function expected(c: Converter, values: unknown[]): unknown[] | "refused" {
  try {
    return c.toV2(values, {}).map(json);
  } catch {
    return "refused";
  }
}

describe("a converter's form for an enum input known only at run time", () => {
  it("the table has converters that branch on an enum", () => {
    expect(withEnums.map((e) => e.c.name)).toEqual(expect.arrayContaining(["podCompute", "endpointCpu"]));
  });

  for (const { c, i, values } of withEnums) {
    for (const others of ["absent", "present"] as const) {
      for (const optional of [false, true]) {
        it(`${c.name}: input ${i} unknown (${optional ? "optional" : "always there"}), other inputs ${others}`, () => {
          const inputs: (SourceInput | undefined)[] = c.accepts!.slice(0, arity.get(c.name)).map((a, k) =>
            k === i ? { source: "opts.kind", optional } : others === "present" ? { source: `v${k}`, optional: false } : undefined,
          );
          let written: (string | undefined)[] | null;
          try {
            written = c.codemod!(inputs);
          } catch {
            written = null; // refused as toV2 refuses (a GPU pod without a type): marked with the reason
          }
          if (written === null) return; // marked: nothing to check
          const cases: (unknown | undefined)[] = optional ? [...values, undefined] : [...values];
          for (const value of cases) {
            const runtime = c.accepts!.slice(0, arity.get(c.name)).map((a, k) => (k === i ? value : others === "present" ? sample(a.kind) : undefined));
            const want = expected(c, runtime);
            if (want === "refused") continue;
            const scope: Record<string, unknown> = { opts: { kind: value } };
            c.accepts!.forEach((a, k) => k !== i && (scope[`v${k}`] = sample(a.kind)));
            const got = written.map((t) => json(evaluate(t, scope)));
            expect({ value, got }).toEqual({ value, got: want.slice(0, got.length).concat(Array(Math.max(0, got.length - want.length)).fill(undefined)) });
          }
        });
      }
    }
  }

  it("splits podCompute on a run-time computeType instead of giving up", () => {
    const written = converters.podCompute!.codemod!([{ source: "kind", optional: false, oneOf: ["GPU", "CPU"] }, { source: "[gpu]", optional: false }, undefined, undefined, undefined, undefined]);
    expect(written).not.toBeNull();
    expect(written!.filter((w) => w?.includes("kind === ")).length).toBe(2);
  });

  it("does not split on an expression it would compute more than once", () => {
    const written = converters.podCompute!.codemod!([{ source: "pickKind()", optional: false }, { source: "[gpu]", optional: false }, undefined, undefined, undefined, undefined]);
    expect(written).toBeNull();
  });
});
