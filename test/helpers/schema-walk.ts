// Resolves a dotted field path (`mounts.persistent.size`) inside an OpenAPI schema, following
// $ref, allOf/oneOf/anyOf and array items, so tests can check that the table names real fields.
import type { OpenApiDocument } from "../../openapi/reference.ts";

type Schema = Record<string, any>;

function deref(doc: OpenApiDocument, schema: Schema): Schema {
  let s = schema;
  while (s && typeof s.$ref === "string") {
    const pointer = s.$ref.replace(/^#\//, "").split("/");
    s = pointer.reduce((node: any, key: string) => node?.[key], doc);
  }
  return s ?? {};
}

/** Every schema reachable at the top of `schema` through composition keywords. */
function branches(doc: OpenApiDocument, schema: Schema): Schema[] {
  const s = deref(doc, schema);
  const out = [s];
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    for (const sub of s[key] ?? []) out.push(...branches(doc, sub));
  }
  return out;
}

export function componentSchema(doc: OpenApiDocument, name: string): Schema | undefined {
  return doc.components?.schemas?.[name];
}

/** The schema found at `path`, or undefined when some segment is not a declared property. */
export function schemaAt(doc: OpenApiDocument, root: Schema, path: string): Schema | undefined {
  let candidates = [root];
  for (const segment of path.split(".")) {
    const next: Schema[] = [];
    for (const candidate of candidates) {
      for (const branch of branches(doc, candidate)) {
        if (/^\d+$/.test(segment)) {
          if (branch.items) next.push(branch.items);
        } else if (branch.properties?.[segment]) {
          next.push(branch.properties[segment]);
        }
      }
    }
    if (!next.length) return undefined;
    candidates = next;
  }
  return candidates[0];
}
