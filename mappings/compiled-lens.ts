// A body lens compiled once into closures: paths pre-split, converters resolved, `only` filters,
// known v1 fields and harmless values worked out ahead. Same semantics as reading the lens table
// field by field (test/mappings/compiled-lens.test.ts checks against such a reading), but the
// gateway's per-record cost no longer includes splitting strings and looking names up.
import type { BodyLens, ConvertContext, Converter } from "./types.ts";
import { converterNamed, converters } from "./data/converters.ts";
import { compilePath, readPathCode, writePathCode, type CompiledPath } from "./object-paths.ts";

export interface ToV2Result {
  body: Record<string, unknown>;
  /** Inputs forwarded without their v1 meaning (drop-with-warning), for the V2-Bridge-Warning header. */
  warnings: string[];
  /** Inputs v2 cannot take (decision "reject"): the gateway answers 400 with these. */
  rejections: string[];
  /** Unmapped fields the caller must emulate (decision "emulate"), with their values. */
  emulate: Record<string, unknown>;
  /** Names of the v1 inputs v2 drops (the warnings' subjects), for usage counts and --strict. */
  dropped: string[];
}

export interface CompiledLens {
  toV2(v1Input: Record<string, unknown>, ctx: ConvertContext): ToV2Result;
  toV1(v2: Record<string, unknown>, ctx: ConvertContext): Record<string, unknown>;
}

/** The v1 top-level field names a lens understands (mapped or declared unmapped). */
export function knownV1Fields(lens: BodyLens): Set<string> {
  const names = new Set<string>();
  for (const f of lens.fields) for (const p of f.v1) names.add(p.split(".")[0]!);
  for (const u of lens.unmapped ?? []) names.add(u.v1);
  return names;
}

/**
 * The v1 defaults that apply to a body with these fields (values the caller knows; absent ones
 * undefined): none when `v1DefaultsUnless` is set, minus the `v1DefaultsExcept` cases. The
 * codemod can call this with the literal values it sees.
 */
export function applicableV1Defaults(lens: BodyLens, v1: Record<string, unknown>): Record<string, unknown> {
  if (!lens.v1Defaults) return {};
  if (lens.v1DefaultsUnless && v1[lens.v1DefaultsUnless] !== undefined) return {};
  const defaults: Record<string, unknown> = { ...lens.v1Defaults };
  for (const except of lens.v1DefaultsExcept ?? []) {
    const valueOf = (k: string) => (v1[k] !== undefined ? v1[k] : defaults[k]);
    if (Object.entries(except.when).every(([k, value]) => valueOf(k) === value)) delete defaults[except.field];
  }
  return defaults;
}

export function withV1Defaults(lens: BodyLens, v1: Record<string, unknown>): Record<string, unknown> {
  if (!lens.v1Defaults) return v1;
  return { ...applicableV1Defaults(lens, v1), ...v1 };
}

type Convert = (values: unknown[], ctx: ConvertContext) => unknown[];

interface Step {
  from: CompiledPath[];
  to: CompiledPath[];
  /** null: copy values as they are. */
  convert: Convert | null;
  /** Field names for rejection messages (`a, b: message`). */
  label: string;
}

/** Resolved once; an unknown name still fails only when the field is used (as the interpreter did). */
function converterFor(name: string | undefined, direction: "toV2" | "toV1"): Convert | null {
  if (!name) return null;
  const c: Converter | undefined = converters[name];
  if (!c) return () => [converterNamed(name)]; // throws "unknown converter"
  return direction === "toV2" ? c.toV2 : c.toV1;
}

function steps(lens: BodyLens, direction: "toV2" | "toV1"): Step[] {
  return lens.fields
    .filter((f) => !f.only || f.only === direction)
    .map((f) => {
      const [from, to] = direction === "toV2" ? [f.v1, f.v2] : [f.v2, f.v1];
      return { from: from.map(compilePath), to: to.map(compilePath), convert: converterFor(f.converter, direction), label: f.v1.join(", ") };
    });
}

/** Reads a step's inputs; null when every one is absent (the field is skipped). */
function inputsOf(step: Step, source: Record<string, unknown>): unknown[] | null {
  const from = step.from;
  if (from.length === 1) {
    const v = from[0]!.get(source);
    return v === undefined ? null : [v];
  }
  const values = new Array<unknown>(from.length);
  let any = false;
  for (let i = 0; i < from.length; i++) {
    values[i] = from[i]!.get(source);
    if (values[i] !== undefined) any = true;
  }
  return any ? values : null;
}

type ToV1Step = (source: Record<string, unknown>, out: Record<string, unknown>, ctx: ConvertContext) => void;

/** One toV1 step in general form: its inputs through its converter, every non-null output set. */
function toV1Step(step: Step): ToV1Step {
  return (source, out, ctx) => {
    const inputs = inputsOf(step, source);
    if (!inputs) return;
    const outputs = step.convert ? step.convert(inputs, ctx) : inputs;
    for (let i = 0; i < step.to.length; i++) {
      // v1 records never carried null where v2 does; leave the field out instead.
      if (outputs[i] !== null) step.to[i]!.set(out, outputs[i]);
    }
  };
}

/**
 * A lens's toV1 as one function (the gateway runs it for every record it answers): plain copies
 * written out as property reads and writes (see object-paths.ts for why), the other steps called.
 */
function toV1Function(toV1Steps: Step[]): (source: Record<string, unknown>, ctx: ConvertContext) => Record<string, unknown> {
  const general: ToV1Step[] = [];
  let code = "const out = {}; let v;\n";
  for (const step of toV1Steps) {
    if (step.from.length === 1 && step.to.length === 1 && !step.convert) {
      code += `${readPathCode("s", step.from[0]!.segments, "v")} if (v !== undefined && v !== null) ${writePathCode("out", step.to[0]!.segments, "v")}\n`;
    } else {
      code += `general[${general.length}](s, out, ctx);\n`;
      general.push(toV1Step(step));
    }
  }
  return new Function("general", `return function toV1(s, ctx) {\n${code}return out;\n}`)(general);
}

function compile(lens: BodyLens): CompiledLens {
  const toV2Steps = steps(lens, "toV2");
  const toV1Steps = steps(lens, "toV1");
  const known = knownV1Fields(lens);
  const unmapped = (lens.unmapped ?? []).map((u) => ({ ...u, harmless: u.harmlessValue === undefined ? undefined : JSON.stringify(u.harmlessValue) }));
  const v2Defaults = Object.entries(lens.v2Defaults ?? {}).map(([p, value]) => ({ path: compilePath(p), value }));

  return {
    toV2(v1Input, ctx) {
      const v1 = withV1Defaults(lens, v1Input);
      const result: ToV2Result = { body: {}, warnings: [], rejections: [], emulate: {}, dropped: [] };
      // A converter that leaves out an input v2 would refuse says so, naming the input it drops.
      const stepCtx: ConvertContext = {
        ...ctx,
        warn: (message, droppedField) => {
          result.warnings.push(message);
          if (droppedField) result.dropped.push(droppedField);
        },
      };
      for (const step of toV2Steps) {
        const inputs = inputsOf(step, v1);
        if (!inputs) continue;
        let outputs: unknown[];
        try {
          outputs = step.convert ? step.convert(inputs, stepCtx) : inputs;
        } catch (error) {
          // A value the converter cannot place (unknown GPU type, unbalanced quotes) is the caller's error.
          result.rejections.push(`${step.label}: ${(error as Error).message}`);
          continue;
        }
        for (let i = 0; i < step.to.length; i++) step.to[i]!.set(result.body, outputs[i]);
      }
      for (const u of unmapped) {
        const value = v1[u.v1];
        if (value === undefined || (u.harmless !== undefined && JSON.stringify(value) === u.harmless)) continue;
        if (u.decision === "reject") result.rejections.push(`${u.v1}: ${u.reason}; ${u.advice}`);
        else if (u.decision === "drop-with-warning") {
          result.warnings.push(`${u.v1} ignored: ${u.reason}`);
          result.dropped.push(u.v1);
        } else result.emulate[u.v1] = value;
      }
      for (const name of Object.keys(v1Input)) {
        if (known.has(name)) continue;
        result.warnings.push(`${name} ignored: not a v1 ${lens.v1Schema} field`);
        result.dropped.push(name);
      }
      for (const d of v2Defaults) if (d.path.get(result.body) === undefined) d.path.set(result.body, d.value);
      return result;
    },

    toV1: toV1Function(toV1Steps),
  };
}

// Lenses are immutable table data, so one compilation per lens object serves every request.
const compiled = new WeakMap<BodyLens, CompiledLens>();

export function compiledLens(lens: BodyLens): CompiledLens {
  let c = compiled.get(lens);
  if (!c) {
    c = compile(lens);
    compiled.set(lens, c);
  }
  return c;
}
