// A query string's text values read as the types its parameter's schema declares, before validation.

export function coerceQueryValue(raw: unknown, schema: any, exploded: boolean): unknown {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== "null") : schema?.type;
  if (type === "array") {
    // form/explode=false sends "a,b"; exploded sends ?x=a&x=b. Accept either spelling.
    void exploded;
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === "string" ? v.split(",") : [v]));
    const itemType = schema.items?.type;
    return values.map((v) => coerceScalar(v, itemType));
  }
  const scalar = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return coerceScalar(scalar, type);
}

function coerceScalar(v: unknown, type: string | undefined): unknown {
  if (typeof v !== "string") return v;
  if (type === "integer" || type === "number") return v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : v;
  if (type === "boolean") return v === "true" ? true : v === "false" ? false : v;
  return v;
}
