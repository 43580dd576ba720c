// Building blocks of the converters' source forms (Converter.codemod): what a v1 input's source
// text may be used for, and the static facts (a known value, a value that is always there) that
// let a form write only the branch that applies.
import type { Converter, SourceInput } from "../types.ts";

export type Input = SourceInput | undefined;

const NAME = String.raw`(?:[A-Za-z_$][\w$]*)`;
const CHAIN = String.raw`${NAME}(?:\??\.${NAME}|(?:\?\.)?\[(?:\d+|"[^"\\]*"|'[^'\\]*')\])*`;
const LITERAL = String.raw`(?:-?\d+(?:\.\d+)?|"[^"\\]*"|'[^'\\]*'|true|false|null|undefined)`;
// A chain may end in a non-null assertion (`input.gpuTypeIds!`): still one operand.
const ATOM = new RegExp(`^(?:${CHAIN}!?|${LITERAL})$`);
const PURE = new RegExp(`^(?:${CHAIN}!?|${LITERAL})(?: \\?\\? (?:${CHAIN}|${LITERAL}))?$`);

/** The text reads a value without computing anything (a name, a property chain, a literal, `a ?? 4`): writing it twice is harmless. */
export const isPure = (src: string): boolean => PURE.test(src.trim());

/** The text as an operand of a larger expression (parenthesised unless it is one token or chain). */
export const operand = (src: string): string => (ATOM.test(src.trim()) ? src.trim() : `(${src.trim()})`);

/** The input's value when it is known statically and always there. */
export function knownValue(input: Input): { value: unknown } | undefined {
  return input?.known && !input.optional ? input.known : undefined;
}

/**
 * Whether the input can have this value: false when its type lists its values and this is not one.
 * A form compares only with values that pass: tsc rejects a comparison that can never hold (TS2367).
 */
export const mayBe = (input: SourceInput, value: unknown): boolean => !input.oneOf || input.oneOf.includes(value);

/** True when the input may be undefined at run time (an absent field always is). */
export const mayBeUndefined = (input: Input): boolean => !input || input.optional;

/** Text of the input, or `fallback` where it is undefined at run time (toV2's `x ?? fallback`). */
export function orElse(input: Input, fallback: string): string {
  if (!input) return fallback;
  if (!input.optional) return input.source;
  // `x === undefined ? 4 : x` (v1's default) then `?? 4` is `x ?? 4`.
  const defaulted = /^(.+) === undefined \? (.+) : \1$/.exec(input.source.trim());
  if (defaulted && defaulted[2] === fallback) return `${operand(defaulted[1]!)} ?? ${fallback}`;
  return `${operand(input.source)} ?? ${fallback}`;
}

/**
 * Wraps a form so it gives undefined when every input is undefined at run time: the gateway does
 * not call a converter at all then. Nothing to add when some input is always there.
 */
export function unlessAllUndefined(inputs: Input[], form: string): string {
  const present = inputs.filter((i): i is SourceInput => !!i);
  if (!present.length || present.some((i) => !i.optional)) return form;
  return `${present.map((i) => `${operand(i.source)} === undefined`).join(" && ")} ? undefined : ${form}`;
}

/** True when the input is an array with at least one entry, statically (a known list, or `[x]` as written). */
export function nonEmptyList(input: Input): boolean {
  const known = knownValue(input);
  if (known) return Array.isArray(known.value) && known.value.length > 0;
  if (input?.nonEmpty && !input.optional) return true;
  return !!input && !input.optional && /^\[\s*(?!\.\.\.|\])/.test(input.source.trim());
}

/** A runtime test that the input is a non-empty array-like (`xs?.length`), as toV2's `nonEmpty`. */
export function hasEntries(input: SourceInput): string {
  return `${operand(input.source)}${input.optional ? "?." : "."}length`;
}

/** The first entry of a list input: `x` for `[x]` as written, else `xs[0]`. */
export function firstOf(input: SourceInput): string {
  const one = /^\[\s*([^,[\]()]+?)\s*,?\s*\]$/.exec(input.source.trim());
  return one && !one[1]!.startsWith("...") ? one[1]! : `${operand(input.source)}[0]`;
}

/** The entries of a list input without repeats, in order (toV2's `[...new Set(xs)]`); `[x]` as written has none. */
export function distinct(source: string): string {
  return /^\[\s*[^,[\]()]+?\s*,?\s*\]$/.test(source.trim()) && !source.includes("...") ? source : `Array.from(new Set(${source}))`;
}

/**
 * A backward form (Converter.codemodToV1) from a writer given each v2 input as an operand
 * (undefined when absent; a present one is defined at run time). Writers repeat their inputs, so
 * an input that computes something is refused (null) rather than computed more than once.
 */
export function v1Form(write: (v2: (string | undefined)[]) => (string | undefined)[]): (v2Source: (string | undefined)[]) => (string | undefined)[] | null {
  return (sources) => (sources.every((s) => s === undefined || isPure(s)) ? write(sources.map((s) => (s === undefined ? undefined : operand(s)))) : null);
}

/** The form of a one-input converter: nothing when its input is absent (the gateway does not call it then). */
export const v1FormOf = (write: (v2: string) => (string | undefined)[]) => v1Form(([x]) => (x === undefined ? [] : write(x)));

/**
 * The update form of a converter over a pair of v1 fields that v2 replaces as a whole: the
 * gateway completes half a pair from the current record (a read-modify-write emulation), which
 * the codemod cannot, so its form writes only a pair always sent whole, and reviews half a pair.
 */
export function wholePairOnUpdate(base: Converter, name: string, summary: string, reason: string): Converter {
  return {
    ...base,
    name,
    summary,
    codemodReason: reason,
    codemodReview: ([a, b]) => ((a === undefined) !== (b === undefined) ? reason : null),
    codemod: (inputs) => {
      const [a, b] = inputs;
      if (!a && !b) return [undefined];
      if (!a || !b || a.optional || b.optional) return null;
      return base.codemod!(inputs);
    },
  };
}
