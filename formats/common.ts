// Building blocks shared by the file formats.
import { Type } from "@sinclair/typebox";

export const count = Type.Integer({ minimum: 0 });
export const isoTime = Type.String({ format: "date-time" });

/** A string from a fixed list, as a JSON Schema `enum` (clearer errors than a union of constants). */
export function stringEnum<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values] });
}
