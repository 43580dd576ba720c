// One converter field of a flat v1 body: the v2 source the codemod writes for it, or why it
// cannot (the caller then marks the site and keeps the v1 fields as written). Literal inputs are
// converted by the converter's toV2 itself; others by its source form (Converter.codemod), given
// what the type checker knows of each input.
import { converterNamed, type FieldLens, type SourceInput } from "../../mappings/index.ts";
import { wrongKind } from "../../mappings/input-kinds.ts";
import { isPure } from "../../mappings/data/source-forms.ts";

/** A v1 field's value as written: a literal, or an expression and what is known of it. */
export type Value = { literal: true; value: unknown; source: string } | { literal: false; source: string; input: SourceInput; nonNull: boolean };

/** The written v2 sources (and what the gateway would warn about them: a dropped input), or why none. */
export type FieldOutcome = { outputs: (string | undefined)[]; warnings?: string[] } | { reason: string; advice: string };

const inputOf = (v: Value | undefined): SourceInput | undefined => v && (v.literal ? { source: v.source, known: { value: v.value }, oneOf: [v.value], optional: false } : v.input);

/** The review note a converter adds even where it converts (a priority list cut to its first entry), if any. */
export function reviewOf(lensField: FieldLens, values: (Value | undefined)[]): string | undefined {
  const converter = converterNamed(lensField.converter!);
  if (!converter.codemodReview) return undefined;
  const sources = values.map((v) => v?.source);
  // An input whose values are listed (each caller's literal) is reviewed as each of them: any one that drops meaning marks it.
  for (const literals of literalChoices(values)) {
    const review = converter.codemodReview(sources, literals);
    if (review) return review;
  }
  return undefined;
}

/** Beyond this many combinations of listed values, the inputs are reviewed as not known. */
const MAX_CHOICES = 16;

/** The literal of each input: its value, or each of the values it is listed to hold, in every combination. */
function literalChoices(values: (Value | undefined)[]): unknown[][] {
  // A list known to hold one entry (each caller writes `[x]`) is reviewed as a list of one, its entry not known.
  const options = values.map((v) => (v?.literal ? [v.value] : v && !v.input.optional && v.input.oneOf?.length ? v.input.oneOf : v?.input.oneEntry ? [[undefined]] : [undefined]));
  let out: unknown[][] = [[]];
  for (const o of options) {
    out = out.flatMap((prefix) => o.map((x) => [...prefix, x]));
    if (out.length > MAX_CHOICES) return [values.map((v) => (v?.literal ? v.value : undefined))];
  }
  return out;
}

/** Converts one lens field with a converter; `names` are its v1 fields, `present` those written. */
export function convertField(lensField: FieldLens, names: string[], present: string[], values: (Value | undefined)[], render: (v: unknown) => string): FieldOutcome {
  const converter = converterNamed(lensField.converter!);
  const yourself = `write v2 ${lensField.v2.join(", ")} yourself`;
  if (converter.needsCatalog) return { reason: converter.codemodReason ?? `${converter.name} needs the live catalog`, advice: yourself };
  const literals = values.map((v) => (v?.literal ? v.value : undefined));
  // v1 refused a value of another kind (the gateway does too): converting it would hide the error.
  const wrong = wrongKind(converter, literals);
  if (wrong) {
    const name = names[wrong.index]!;
    return { reason: `${name} is ${JSON.stringify(literals[wrong.index])}, and v1 took ${wrong.expected} there (v1 and the gateway refuse the request)`, advice: `send ${name} as ${wrong.expected}` };
  }
  if (values.every((v) => v === undefined || v.literal)) {
    try {
      const warnings: string[] = [];
      const converted = converter.toV2(literals, { warn: (message) => warnings.push(message) });
      return { outputs: converted.map((v) => (v === undefined ? undefined : render(v))), warnings };
    } catch (error) {
      return { reason: `${converter.name}: ${(error as Error).message}`, advice: yourself };
    }
  }
  const inputs = values.map(inputOf);
  let outputs: (string | undefined)[] | null;
  try {
    outputs = converter.codemod?.(inputs) ?? null;
  } catch (error) {
    // The form refuses what toV2 refuses (or may refuse at run time), in its words.
    return { reason: `${converter.name}: ${(error as Error).message}`, advice: yourself };
  }
  if (!outputs) return { reason: converter.codemodReason ?? `${converter.name} cannot be written for a non-literal value`, advice: `write v2 ${lensField.v2.join(", ")} from ${present.join(", ")} yourself` };
  // Inputs all known from their types: what the gateway would refuse or warn about is known too.
  if (!inputs.every((i) => !i || (i.known && !i.optional))) return { outputs };
  const warnings: string[] = [];
  try {
    converter.toV2(inputs.map((i) => i?.known!.value), { warn: (message) => warnings.push(message) });
  } catch (error) {
    return { reason: `${converter.name}: ${(error as Error).message}`, advice: yourself };
  }
  return { outputs, warnings };
}

/** How often each computed (not pure) field value is written in `text`: more than once means computed more than once. */
export function computedMoreThanOnce(fields: Map<string, { value: Value }>, text: string): string[] {
  const out: string[] = [];
  for (const [name, f] of fields) {
    if (f.value.literal || isPure(f.value.source)) continue;
    if (text.split(f.value.source).length > 2) out.push(name);
  }
  return out;
}
