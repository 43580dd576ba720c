// v1's own document gives `ports` the default "8888/http,22/tcp", a comma-separated string, though
// the field's type is an array of strings, and v1 clients send it that way. For every request
// property the v1 document types as an array of strings with a string default, a string value is
// split at commas before validation. Read from the document, so no field list is kept here.

type Schema = Record<string, any>;

const cache = new Map<string, string[]>();

function deref(doc: Schema, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === "string" && i < 10; i++) {
    s = s.$ref.replace(/^#\//, "").split("/").reduce((node: any, key: string) => node?.[key], doc);
  }
  return s;
}

/** Names of the request body's list properties that v1 documents with a comma-separated default. */
export function listStringFields(doc: Schema, method: string, path: string): string[] {
  const key = `${method} ${path}`;
  let names = cache.get(key);
  if (names) return names;
  const body = deref(doc, doc.paths?.[path]?.[method.toLowerCase()]?.requestBody?.content?.["application/json"]?.schema);
  names = Object.entries((body?.properties ?? {}) as Record<string, Schema>)
    .filter(([, p]) => p.type === "array" && deref(doc, p.items)?.type === "string" && typeof p.default === "string")
    .map(([name]) => name);
  cache.set(key, names);
  return names;
}

export function splitListStrings(doc: Schema, method: string, path: string, body: Record<string, unknown>): Record<string, unknown> {
  const fields = listStringFields(doc, method, path).filter((f) => typeof body[f] === "string");
  if (!fields.length) return body;
  const out = { ...body };
  for (const f of fields) out[f] = (body[f] as string).split(",").map((s) => s.trim()).filter(Boolean);
  return out;
}
