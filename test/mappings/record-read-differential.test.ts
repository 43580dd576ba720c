// Differential property for response records: a v1 record read the codemod rewrites
// (`pod.containerDiskInGb` → `pod.disk`) reads from the v2 record what the gateway's toV1 gives
// the v1 read, over values generated from the v2 record schema (absent, null and every kind the
// schema allows). A field behind a converter with a v1 form (`desiredStatus`) is read through the
// helper the codemod writes; one without (`costPerHr`, the catalog) is marked and left as written. One codemod run per field gives the
// rewritten read; fast-check then evaluates it on generated records (a failure prints its seed).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeSource } from "../../codemod/single-file.ts";
import { lenses, operations, toV1, type BodyLens, type FieldLens, type OperationMapping } from "../../mappings/index.ts";
import { loadV2, type OpenApiDocument } from "../../openapi/reference.ts";
import { refDescribe } from "../helpers/reference.ts";
import { componentSchema, schemaAt } from "../helpers/schema-walk.ts";
import { deref } from "../helpers/v1-field-cases.ts";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 60), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) };

/** Each record lens with the first GET operation that answers one record of it. */
function recordReads(): { op: OperationMapping; lens: BodyLens }[] {
  const seen = new Set<string>();
  const out: { op: OperationMapping; lens: BodyLens }[] = [];
  for (const op of operations) {
    if (op.v1.method !== "GET" || op.response.kind !== "record" || op.status === "no-equivalent" || seen.has(op.response.lens)) continue;
    seen.add(op.response.lens);
    out.push({ op, lens: lenses[op.response.lens]! });
  }
  return out;
}

/** The v1 client's read of a field, and what the codemod makes of it. */
function rewrite(op: OperationMapping, v1Path: string): { read: string; output: string } {
  const read = `rec.${v1Path.split(".").join("?.")}`;
  const url = `https://rest.runpod.io/v1${op.v1.path.replace(/\{[^}]+\}/g, "x1")}`;
  const source = `export async function read(): Promise<unknown> {\n  const res = await fetch("${url}");\n  const rec = await res.json();\n  return ${read};\n}\n`;
  return { read, output: analyzeSource(source, { fileName: "/record-read/client.ts" }).output };
}

/** Values a v2 record may hold at a path, from its schema: absent, null, and values of each type it allows. */
function v2Value(doc: OpenApiDocument, schema: Record<string, any> | undefined): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  const types: string[] = [s.type ?? []].flat();
  const of = (t: string): fc.Arbitrary<unknown> => {
    if (s.enum) return fc.constantFrom(...s.enum);
    if (t === "integer" || t === "number") return fc.integer({ min: 0, max: 100 });
    if (t === "boolean") return fc.boolean();
    if (t === "array") return fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 });
    if (t === "object") return fc.dictionary(fc.constantFrom("a", "b"), fc.string({ maxLength: 3 }), { maxKeys: 2 });
    return fc.string({ maxLength: 6 });
  };
  const kinds = types.filter((t) => t !== "null").map(of);
  return fc.oneof(fc.constant(undefined), fc.constant(null), ...(kinds.length ? kinds : [fc.string({ maxLength: 6 })]));
}

const setAt = (obj: Record<string, any>, dotted: string, value: unknown) => {
  const segs = dotted.split(".");
  let o = obj;
  for (const s of segs.slice(0, -1)) o = o[s] ??= {};
  if (value !== undefined) o[segs.at(-1)!] = value;
  return obj;
};
/** v1 records never carry null where v2 does (toV1 leaves it out): a read sees absent either way. */
const read = (expr: string, rec: unknown) => new Function("rec", `return ${expr};`)(rec) ?? undefined;

refDescribe("v1 record reads the codemod rewrites read what the gateway gives", () => {
  const v2 = loadV2();
  const reads = recordReads();

  it("covers the record lenses of single-record reads", () => {
    expect(reads.map((r) => r.lens.name)).toEqual(expect.arrayContaining(["pod-record", "endpoint-record", "template-record", "network-volume-record"]));
  });

  const fields = reads.flatMap(({ op, lens }) => lens.fields.filter((f) => f.only !== "toV2").flatMap((f) => f.v1.map((v1, i) => ({ op, lens, field: f, v1, i }))));

  it.each(fields.map((x) => [`${x.lens.name} ${x.v1}${x.field.converter ? ` (${x.field.converter})` : ""}`, x] as const))("%s", (_, { op, lens, field, v1 }) => {
    const { read: v1Read, output } = rewrite(op, v1);
    // The read is the last function's return (a converted read's helper comes first).
    const written = [...output.matchAll(/return (.*);\n\}/g)].at(-1)![1]!;
    // A converted read calls a helper the codemod wrote into the file (the converter's v1 form).
    const helpers = [...output.matchAll(/^function v1\w+\(value(?:: any)?\)(?:: any)? \{\n.*\n\}$/gm)].map((m) => m[0].replace("value: any", "value").replace("): any {", ") {")).join("\n");
    if (field.converter && !helpers) {
      // No source form for this read: it stays as written, under a mark naming the field.
      expect(written, output).toBe(v1Read);
      expect(output).toMatch(new RegExp(`TODO\\(v2-migration\\)[^\\n]*${v1.replace(/\./g, "\\.")}`));
      return;
    }
    if (field.converter) {
      expect(output, "a converted read carries no mark").not.toMatch(/TODO\(v2-migration\)/);
      const v2Path = field.v2[0]!;
      const schema = schemaAt(v2, componentSchema(v2, lens.v2Schema)!, v2Path);
      fc.assert(
        fc.property(v2Value(v2, schema), (value) => {
          const record = setAt({}, v2Path, value);
          const ours = new Function("rec", `${helpers}\nreturn ${written};`)(record) ?? undefined;
          expect(ours, `${written} on ${JSON.stringify(record)} vs ${v1Read} on ${JSON.stringify(toV1(lens, record))}`).toEqual(read(v1Read, toV1(lens, record)));
        }),
        RUNS,
      );
      return;
    }
    const v2Path = (field as FieldLens).v2[0]!;
    // A renamed field read as written would read nothing in v2: it must carry a mark.
    if (written === v1Read && v2Path !== v1) return void expect(output, "a read left as written carries a mark").toMatch(/TODO\(v2-migration\)/);
    const schema = schemaAt(v2, componentSchema(v2, lens.v2Schema)!, v2Path);
    fc.assert(
      fc.property(v2Value(v2, schema), (value) => {
        const record = setAt({}, v2Path, value);
        expect(read(written, record), `${written} on ${JSON.stringify(record)} vs ${v1Read} on ${JSON.stringify(toV1(lens, record))}`).toEqual(read(v1Read, toV1(lens, record)));
      }),
      RUNS,
    );
  });
});
