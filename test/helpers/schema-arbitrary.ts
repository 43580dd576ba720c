// fast-check values from an OpenAPI schema of the reference documents, tilted toward the edges a
// translation gets wrong: absent and null fields, zero, empty strings and lists, repeated ids and
// list entries, every enum value, unknown extra fields.
import fc from "fast-check";
import type { OpenApiDocument } from "../../openapi/reference.ts";

type Schema = Record<string, any>;

function deref(doc: OpenApiDocument, schema: Schema): Schema {
  let s = schema;
  while (s && typeof s.$ref === "string") s = s.$ref.replace(/^#\//, "").split("/").reduce((node: any, key: string) => node?.[key], doc);
  return s ?? {};
}

/** Ids from a small pool (so lists repeat them) or fresh. */
const id = fc.oneof(fc.constantFrom("a1", "a1", "pod_1", "ep_1", "vol_1", ""), fc.stringMatching(/^[a-z0-9_]{1,10}$/));
const text = fc.oneof(fc.constantFrom("", "x", "/workspace", "EU-RO-1"), fc.string({ maxLength: 12 }));
const isoDate = fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());

function scalar(s: Schema, type: string, name: string): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.oneof(fc.constant(0), fc.integer({ min: s.minimum ?? -5, max: Math.min(s.maximum ?? 5000, 5000) }));
    case "number":
      return fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }));
    case "string":
      if (s.format === "date-time") return isoDate;
      return /id$/i.test(name) ? id : text;
    default:
      return fc.constant(null);
  }
}

function objectOf(doc: OpenApiDocument, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries<Schema>(s.properties ?? {})) props[key] = arbitraryFor(doc, sub, key, depth + 1);
  if (!Object.keys(props).length) {
    return s.additionalProperties && typeof s.additionalProperties === "object"
      ? fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,6}$/), arbitraryFor(doc, s.additionalProperties, "value", depth + 1), { maxKeys: 3 })
      : fc.constant({});
  }
  // Required keys present, or every key optional (absent values).
  const required = (s.required ?? []).filter((k: string) => k in props);
  return fc.oneof(fc.record(props, { requiredKeys: required }), fc.record(props, { requiredKeys: [] }));
}

export function arbitraryFor(doc: OpenApiDocument, schema: Schema, name = "", depth = 0): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  if (depth > 5) return fc.constant(null);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((b: Schema) => arbitraryFor(doc, b, name, depth));
    const own = s.properties ? [objectOf(doc, s, depth)] : [];
    return fc.tuple(...parts, ...own).map((values) => (values.every((v) => v && typeof v === "object" && !Array.isArray(v)) ? Object.assign({}, ...values) : values[0]));
  }
  const choices = s.oneOf ?? s.anyOf;
  if (Array.isArray(choices)) return fc.oneof(...choices.map((b: Schema) => arbitraryFor(doc, b, name, depth)));
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type ?? (s.properties ? "object" : s.items ? "array" : "string")];
  return fc.oneof(
    ...types.map((type) => {
      if (type === "object") return objectOf(doc, s, depth);
      if (type === "array") {
        const items = fc.array(arbitraryFor(doc, s.items ?? {}, name.replace(/s$/, ""), depth + 1), { maxLength: 4 });
        // Lists with a repeated entry (duplicate ids, records listed twice).
        return fc.oneof(items, items.map((a) => (a.length ? [...a, a[0]] : a)));
      }
      return scalar(s, type, name);
    }),
  );
}

/** A component schema's values, with unknown extra fields and nulls sprinkled in at the top. */
export function componentArbitrary(doc: OpenApiDocument, name: string): fc.Arbitrary<Record<string, unknown>> {
  const schema = doc.components?.schemas?.[name];
  if (!schema) throw new Error(`no component schema ${name}`);
  const base = arbitraryFor(doc, schema, name) as fc.Arbitrary<Record<string, unknown>>;
  const noise = fc.dictionary(fc.constantFrom("extra", "unknownField", "id", "name"), fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 1 })), { maxKeys: 2 });
  return fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary: fc.tuple(base, noise).map(([b, n]) => ({ ...b, ...n })) });
}

/** Top-level properties of a component (through allOf), each with its schema dereferenced. */
export function topProperties(doc: OpenApiDocument, name: string): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const visit = (schema: Schema): void => {
    const s = deref(doc, schema);
    for (const b of s.allOf ?? []) visit(b);
    for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) out[k] = deref(doc, v.allOf?.length === 1 ? v.allOf[0] : v);
  };
  visit(doc.components!.schemas[name]);
  return out;
}

/** One object per enum value of each top-level property, and one per property set to 0 / "" / [] / null. */
export function edgeExamples(doc: OpenApiDocument, name: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{}];
  for (const [key, s] of Object.entries(topProperties(doc, name))) {
    for (const value of s.enum ?? []) out.push({ [key]: value });
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === "integer" || type === "number") out.push({ [key]: 0 });
    if (type === "string" && !s.enum) out.push({ [key]: "" });
    if (type === "array") out.push({ [key]: [] });
    out.push({ [key]: null });
  }
  return out;
}
