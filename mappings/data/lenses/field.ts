// Shorthands for writing lenses: `field("imageName", "image")`, `convert([...], [...], converterObject)`.
import type { Converter, FieldLens } from "../../types.ts";

export function field(v1: string, v2: string, note?: string): FieldLens {
  return { v1: [v1], v2: [v2], ...(note ? { note } : {}) };
}

/** A lens through a converter, given by reference (the table stores its name for readers). */
export function convert(v1: string | string[], v2: string | string[], converter: Converter, only?: FieldLens["only"]): FieldLens {
  return { v1: [v1].flat(), v2: [v2].flat(), converter: converter.name, ...(only ? { only } : {}) };
}

/** The same lens, naming which v1 field each nested v2 sub-path comes from (for error messages). */
export function withParts(lens: FieldLens, parts: Record<string, string>): FieldLens {
  return { ...lens, parts };
}

export function toV1Only(lens: FieldLens): FieldLens {
  return { ...lens, only: "toV1" };
}
