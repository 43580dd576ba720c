// Generated v1 body fields for the codemod's differential property: each field's value comes
// from its v1 request schema (every enum value, zero, empty lists, ids that repeat across fields,
// null where the schema allows it, and wrong types), written in the client's source in one of the
// ways real clients write it (a literal, a typed or untyped expression, a value of one literal
// type, a call), with the value it has when the client runs.
import fc from "fast-check";
import type { OpenApiDocument } from "../../openapi/reference.ts";

type Schema = Record<string, any>;

/** How the client writes the field: what the codemod can know about it differs for each. */
export type Written =
  | "literal" // `volumeInGb: 20`
  | "typed" // `volumeInGb: t.volumeInGb` with `t: { volumeInGb: number }`
  | "known" // `scalerType: k.scalerType` with `k: { scalerType: "QUEUE_DELAY" }` (an `as const` value)
  | "known-optional" // as known, declared `scalerType?: "QUEUE_DELAY"`: the value or undefined
  | "untyped" // `volumeInGb: v.volumeInGb` with `v: any`: any valid value, or undefined
  | "call"; // `volumeInGb: c.volumeInGb()`: computed, so it must be computed once

export interface FieldCase {
  name: string;
  written: Written;
  /** Its value when the client runs (undefined: left out of the JSON). */
  value: unknown;
  /** The v1 schema's TypeScript type for `typed` (a literal type for `known`). */
  type: string;
}

export function deref(doc: OpenApiDocument, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  while (s && typeof s.$ref === "string") s = s.$ref.replace(/^#\//, "").split("/").reduce((n: any, k: string) => n?.[k], doc);
  return s ?? {};
}

/** Ids drawn from a pool of two, so a single id and a list of ids overlap, and lists repeat ids. */
const IDS = ["vol_a", "vol_b"];

function validValue(doc: OpenApiDocument, schema: Schema, name: string): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  const base = ((): fc.Arbitrary<unknown> => {
    if (s.enum) return fc.constantFrom(...s.enum);
    switch (s.type) {
      case "boolean":
        return fc.boolean();
      case "integer":
      case "number": {
        const min = s.minimum ?? 0;
        return fc.oneof(fc.constant(0), fc.constant(min), fc.integer({ min, max: s.maximum ?? 120 }));
      }
      case "array": {
        const item = deref(doc, s.items);
        const entry = item.enum ? fc.constantFrom(...item.enum) : fc.constantFrom(...IDS);
        return fc.array(entry, { maxLength: 3 });
      }
      default:
        if (/Path$/.test(name)) return fc.constantFrom("/workspace", "/data");
        return fc.constantFrom(...IDS, "");
    }
  })();
  return s.nullable ? fc.oneof(base, fc.constant(null)) : base;
}

function wrongValue(doc: OpenApiDocument, schema: Schema): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  if (s.enum) return fc.constantFrom("NOT_A_VALUE", 3);
  if (s.type === "boolean") return fc.constantFrom("yes", 1);
  if (s.type === "integer" || s.type === "number") return fc.constantFrom("20", true);
  if (s.type === "array") return fc.constantFrom("vol_a", 5);
  return fc.constantFrom(5, true);
}

/** The TypeScript type a client would declare for the field. */
export function typeOf(doc: OpenApiDocument, schema: Schema): string {
  const s = deref(doc, schema);
  const t = s.enum
    ? s.enum.map((e: unknown) => JSON.stringify(e)).join(" | ")
    : s.type === "array"
      ? `(${typeOf(doc, s.items ?? {})})[]`
      : s.type === "integer" || s.type === "number"
        ? "number"
        : s.type === "boolean"
          ? "boolean"
          : "string";
  return s.nullable ? `${t} | null` : t;
}

const isScalar = (v: unknown) => ["string", "number", "boolean"].includes(typeof v);

/** One field, or null when the body leaves it out. */
export function fieldCase(doc: OpenApiDocument, schema: Schema, name: string): fc.Arbitrary<FieldCase | null> {
  const valid = validValue(doc, schema, name);
  const type = typeOf(doc, schema);
  const orUndefined = fc.oneof(valid, fc.constant(undefined));
  const as = (written: Written, value: fc.Arbitrary<unknown>) => value.map((v): FieldCase => ({ name, written, value: v, type }));
  const known = (optional: boolean) =>
    valid
      .filter(isScalar)
      .chain((v) => (optional ? fc.constantFrom(v, undefined) : fc.constant(v)).map((value): FieldCase => ({ name, written: optional ? "known-optional" : "known", value, type: JSON.stringify(v) })));
  // Only a scalar has a literal type (`as const` on a list gives a tuple, not one value).
  const scalar = deref(doc, schema).type !== "array";
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: as("literal", fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: wrongValue(doc, schema) })) },
    { weight: 2, arbitrary: as("typed", valid) },
    ...(scalar ? [{ weight: 1, arbitrary: known(false) }, { weight: 1, arbitrary: known(true) }] : []),
    { weight: 3, arbitrary: as("untyped", orUndefined) },
    { weight: 1, arbitrary: as("call", orUndefined) },
  );
}

const render = (v: unknown) => (v === undefined ? "undefined" : JSON.stringify(v));

/** The client's source: declarations that give each field its type, and the body literal. */
export function clientSource(fields: FieldCase[]): { declarations: string; body: string; sources: Record<string, string> } {
  const typed = fields.filter((f) => f.written === "typed" || f.written.startsWith("known"));
  const members = typed.map((f) => `${f.name}${f.written === "known-optional" ? "?" : ""}: ${f.type}`);
  const declarations = [`declare const v: any;`, `declare const c: any;`, `declare const t: { ${members.join("; ")} };`].join("\n");
  const expr = (f: FieldCase) => {
    if (f.written === "literal") return render(f.value);
    if (f.written === "call") return `c.${f.name}()`;
    return `${f.written === "untyped" ? "v" : "t"}.${f.name}`;
  };
  const sources = Object.fromEntries(fields.map((f) => [f.name, expr(f)]));
  return { declarations, body: `{ ${fields.map((f) => `${f.name}: ${sources[f.name]}`).join(", ")} }`, sources };
}

/** The values the client's variables hold at run time, and how often each call ran. */
export function runtimeScope(fields: FieldCase[]): { v: Record<string, unknown>; t: Record<string, unknown>; c: Record<string, () => unknown>; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const v: Record<string, unknown> = {};
  const t: Record<string, unknown> = {};
  const c: Record<string, () => unknown> = {};
  for (const f of fields) {
    if (f.written === "untyped") v[f.name] = f.value;
    else if (f.written === "call") c[f.name] = () => (calls.set(f.name, (calls.get(f.name) ?? 0) + 1), f.value);
    else t[f.name] = f.value;
  }
  return { v, t, c, calls };
}

/** The v1 JSON body the client sends (fields undefined at run time are left out). */
export function sentBody(fields: FieldCase[]): Record<string, unknown> {
  return JSON.parse(JSON.stringify(Object.fromEntries(fields.map((f) => [f.name, f.value]))));
}
