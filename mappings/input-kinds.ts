// A converter's v1 inputs against the kinds it reads (Converter.accepts): v1 refused any other,
// so the gateway refuses it (when it runs without the v1 document too) and the codemod marks it
// instead of converting it into something v2 would take.
import type { Converter, V1Kind } from "./types.ts";
import { splitOnEnums } from "./enum-split.ts";

function describe(kind: V1Kind): string {
  if (typeof kind !== "string") return `one of ${kind.map((k) => JSON.stringify(k)).join(", ")}`;
  return kind === "string[]" ? "a list of strings" : kind === "integer" ? "an integer" : `a ${kind}`;
}

function fits(value: unknown, kind: V1Kind): boolean {
  if (typeof kind !== "string") return kind.includes(value as string);
  if (kind === "integer") return Number.isInteger(value);
  if (kind === "string[]") return Array.isArray(value) && value.every((v) => typeof v === "string");
  return typeof value === kind;
}

/** The first input (by index) that is present and not of its kind, with what it should be. */
export function wrongKind(converter: Converter, inputs: unknown[]): { index: number; expected: string } | undefined {
  const accepts = converter.accepts;
  if (!accepts) return undefined;
  for (let i = 0; i < accepts.length; i++) {
    const v = inputs[i];
    const { kind, nullable } = accepts[i]!;
    if (v === undefined || (v === null && nullable) || fits(v, kind)) continue;
    return { index: i, expected: `${describe(kind)}${nullable ? " or null" : ""}` };
  }
  return undefined;
}

/** A converter whose toV2 refuses inputs of another kind than it reads (the lens engine reports the throw as a rejection). */
export function define(converter: Converter): Converter {
  if (!converter.accepts) return converter;
  const toV2 = converter.toV2;
  return {
    ...converter,
    codemod: converter.codemod && splitOnEnums(converter, converter.codemod),
    toV2: (inputs, ctx) => {
      const wrong = wrongKind(converter, inputs);
      if (wrong) throw new Error(`${JSON.stringify(inputs[wrong.index])} is not ${wrong.expected}`);
      return toV2(inputs, ctx);
    },
  };
}
