// Copies of a document rewritten so Ajv reads its schemas as OpenAPI means them: conditionals
// hoisted around an Ajv bug (3.1), `nullable` and boolean exclusive bounds translated (3.0).
import type { OpenApiDocument } from "./reference.ts";

/**
 * Ajv 8 drops the annotations of sibling keywords when a top-level `if` fails and `then` has
 * `properties`, so `unevaluatedProperties: false` then rejects every property (seen on v2's
 * CreateEndpointRequest). Moving `if`/`then`/`else` into an `allOf` member is equivalent in
 * JSON Schema 2020-12 and sidesteps the bug. Works on a copy; the caller's document is untouched.
 */
export function hoistConditionals(doc: OpenApiDocument): OpenApiDocument {
  const clone = structuredClone(doc);
  const visit = (node: any): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const value of Object.values(node)) visit(value);
    if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
      const conditional: Record<string, unknown> = { if: node.if };
      if (node.then !== undefined) conditional.then = node.then;
      if (node.else !== undefined) conditional.else = node.else;
      delete node.if;
      delete node.then;
      delete node.else;
      node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), conditional];
    }
  };
  visit((clone as any).components);
  visit((clone as any).paths);
  return clone;
}

/** OpenAPI 3.0 → JSON Schema: `nullable: true` becomes a null-admitting type (or anyOf). */
export function normaliseOpenApi30(doc: OpenApiDocument): OpenApiDocument {
  const clone = structuredClone(doc);
  const visit = (node: any): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const value of Object.values(node)) visit(value);
    if (node.nullable === true) {
      delete node.nullable;
      if (typeof node.type === "string") {
        node.type = [node.type, "null"];
        if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
      } else if (node.$ref || node.allOf || node.oneOf || node.anyOf) {
        const inner = { ...node };
        for (const k of Object.keys(node)) delete node[k];
        node.anyOf = [inner, { type: "null" }];
      }
    } else if (node.nullable === false) {
      delete node.nullable;
    }
    if (node.exclusiveMinimum === true && typeof node.minimum === "number") {
      node.exclusiveMinimum = node.minimum;
      delete node.minimum;
    } else if (node.exclusiveMinimum === false) delete node.exclusiveMinimum;
    if (node.exclusiveMaximum === true && typeof node.maximum === "number") {
      node.exclusiveMaximum = node.maximum;
      delete node.maximum;
    } else if (node.exclusiveMaximum === false) delete node.exclusiveMaximum;
  };
  visit((clone as any).components);
  visit((clone as any).paths);
  return clone;
}
