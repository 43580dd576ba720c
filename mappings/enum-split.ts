// A converter's source form for an enum input known only at run time: a form that must know the
// value (GPU or CPU decides which v2 field is written) gives up on `kind` alone, yet the value is one
// of the few the v1 document allows. Written once per value, the branches are joined per v2 output by
// a conditional on the input (`kind === "CPU" ? {…} : undefined`), so a CLI flag or a typed union
// migrates instead of being marked. Only for inputs whose text is safe to read more than once.
import type { Converter, SourceInput } from "./types.ts";
import { isPure, operand } from "./data/source-forms.ts";

type Form = NonNullable<Converter["codemod"]>;
type Input = SourceInput | undefined;

/** Branches per split input: a union the type names is kept small, and so is this. */
const MAX_VALUES = 4;

/** The form, splitting on the first enum input that it could not write while unknown. */
export function splitOnEnums(converter: Converter, form: Form): Form {
  return (inputs) => {
    const direct = form(inputs);
    if (direct !== null || !converter.accepts) return direct;
    for (let i = 0; i < inputs.length; i++) {
      const split = splitAt(converter, form, inputs, i);
      if (split !== undefined) return split;
    }
    return null;
  };
}

/** The values an unknown enum input can take at run time; undefined when it is not one (or is known). */
function valuesOf(converter: Converter, input: Input, i: number): unknown[] | undefined {
  const kind = converter.accepts?.[i]?.kind;
  if (!input || input.known || typeof kind === "string" || !kind) return undefined;
  if (!isPure(input.source)) return undefined;
  // A typed union narrows the enum; values v1 refused (a 400 on v1) are not the client's to keep.
  const values = input.oneOf ? kind.filter((v) => input.oneOf!.includes(v)) : [...kind];
  return values.length && values.length <= MAX_VALUES ? values : undefined;
}

function splitAt(converter: Converter, form: Form, inputs: Input[], i: number): (string | undefined)[] | null | undefined {
  const input = inputs[i]!;
  const values = valuesOf(converter, input, i);
  if (!values) return undefined;
  const source = operand(input.source);
  const known = (value: unknown): Input => ({ source: JSON.stringify(value), known: { value }, oneOf: [value], optional: false });
  const write = (with_: Input[]) => (with_.every((x) => !x || (x.known && !x.optional)) ? literalForm(converter, with_) : form(with_));
  const branches = values.map((value) => ({ test: `${source} === ${JSON.stringify(value)}`, out: write(inputs.map((x, k) => (k === i ? known(value) : x))) }));
  // Absent (optional) or a value v1 refused: what the form writes without the input.
  const otherwise = input.optional ? write(inputs.map((x, k) => (k === i ? undefined : x))) : branches.pop()!.out;
  if (otherwise === null || branches.some((b) => b.out === null)) return null;
  const width = Math.max(otherwise.length, ...branches.map((b) => b.out!.length));
  return Array.from({ length: width }, (_, j) => {
    const last = otherwise[j];
    // A branch writing what the fallback writes needs no test of its own.
    const differ = branches.filter((b) => b.out![j] !== last);
    if (!differ.length) return last;
    return differ.reduceRight((rest, b) => `${b.test} ? ${b.out![j] ?? "undefined"} : ${rest}`, last ?? "undefined");
  });
}

/**
 * Every input known (or absent): what toV2 gives, as literal text, as the codemod writes literal
 * bodies. A value toV2 refuses (the gateway's 400) throws its reason, which the mark then names.
 */
function literalForm(converter: Converter, inputs: Input[]): (string | undefined)[] | null {
  if (inputs.every((x) => !x)) return [];
  return converter.toV2(inputs.map((x) => x?.known!.value), {}).map((v) => (v === undefined ? undefined : JSON.stringify(v)));
}
