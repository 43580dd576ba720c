// JSON pointers into an OpenAPI document: escaping a key, following its local "#/..." refs.
import type { OpenApiDocument } from "./reference.ts";

export function escapePointer(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Follow local "#/..." refs; returns the target and its JSON pointer inside the document. */
export function resolveRef(doc: OpenApiDocument, value: any, pointer: string): { value: any; pointer: string } {
  let current = value;
  let ptr = pointer;
  for (let depth = 0; depth < 20 && current && typeof current.$ref === "string" && current.$ref.startsWith("#/"); depth++) {
    ptr = current.$ref.slice(1);
    current = ptr
      .split("/")
      .slice(1)
      .map((s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((acc: any, key: string) => (acc == null ? acc : acc[key]), doc);
  }
  return { value: current, pointer: ptr };
}
