// A body lens compiled once: its field steps written out as code (lens-code.ts), converters resolved, `only` filters,
// known v1 fields and harmless values worked out ahead. Same semantics as reading the lens table
// field by field (test/mappings/compiled-lens.test.ts checks against such a reading), but the
// gateway's per-record cost no longer includes splitting strings and looking names up.
import type { BodyLens, ConvertContext, Converter } from "./types.ts";
import { converterNamed, converters } from "./data/converters.ts";
import { compilePath } from "./object-paths.ts";
import { stepsFunction, type CodeStep, type Convert } from "./lens-code.ts";

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
  const all = lens.v1Defaults;
  if (!all) return {};
  if (lens.v1DefaultsUnless && v1[lens.v1DefaultsUnless] !== undefined) {
    return Object.fromEntries((lens.v1DefaultsAlways ?? []).filter((k) => k in all).map((k) => [k, all[k]]));
  }
  // Each exception sees the defaults left by the ones before it.
  let removed: Set<string> | undefined;
  for (const except of exceptionsOf(lens)) {
    const valueOf = (k: string) => (v1[k] !== undefined ? v1[k] : removed?.has(k) ? undefined : all[k]);
    if (except.when.every(([k, value]) => valueOf(k) === value)) (removed ??= new Set()).add(except.field);
  }
  if (!removed) return { ...all };
  const defaults: Record<string, unknown> = {};
  for (const k of Object.keys(all)) if (!removed.has(k)) defaults[k] = all[k];
  return defaults;
}

const exceptions = new WeakMap<BodyLens, { field: string; when: [string, unknown][] }[]>();

function exceptionsOf(lens: BodyLens): { field: string; when: [string, unknown][] }[] {
  let list = exceptions.get(lens);
  if (!list) exceptions.set(lens, (list = (lens.v1DefaultsExcept ?? []).map((e) => ({ field: e.field, when: Object.entries(e.when) }))));
  return list;
}

export function withV1Defaults(lens: BodyLens, v1: Record<string, unknown>): Record<string, unknown> {
  if (!lens.v1Defaults) return v1;
  return { ...applicableV1Defaults(lens, v1), ...v1 };
}

/** Resolved once; an unknown name still fails only when the field is used (as the interpreter did). */
function converterFor(name: string | undefined, direction: "toV2" | "toV1"): Convert | null {
  if (!name) return null;
  const c: Converter | undefined = converters[name];
  if (!c) return () => [converterNamed(name)]; // throws "unknown converter"
  return direction === "toV2" ? c.toV2 : c.toV1;
}

function steps(lens: BodyLens, direction: "toV2" | "toV1"): CodeStep[] {
  return lens.fields
    .filter((f) => !f.only || f.only === direction)
    .map((f) => {
      const [from, to] = direction === "toV2" ? [f.v1, f.v2] : [f.v2, f.v1];
      return { from: from.map((p) => p.split(".")), to: to.map((p) => p.split(".")), convert: converterFor(f.converter, direction), label: f.v1.join(", ") };
    });
}

/** toV1 never rejects: its steps get a list nobody reads. */
const NO_REJECTIONS: string[] = [];

function compile(lens: BodyLens): CompiledLens {
  const toV2Steps = stepsFunction(steps(lens, "toV2"), "toV2");
  const toV1Steps = stepsFunction(steps(lens, "toV1"), "toV1");
  const known = knownV1Fields(lens);
  const unmapped = (lens.unmapped ?? []).map((u) => ({ ...u, harmless: u.harmlessValue === undefined ? undefined : JSON.stringify(u.harmlessValue) }));
  // The unmapped fields' values read by written-out accesses (one shared `v1[name]` read is megamorphic).
  const unmappedValues = new Function("s", `return [${unmapped.map((u) => `s[${JSON.stringify(u.v1)}]`).join(", ")}];`) as (v1: Record<string, unknown>) => unknown[];
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
      toV2Steps(v1, result.body, stepCtx, result.rejections);
      const values = unmappedValues(v1);
      for (let i = 0; i < unmapped.length; i++) {
        const u = unmapped[i]!;
        const value = values[i];
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

    toV1(v2, ctx) {
      const out: Record<string, unknown> = {};
      toV1Steps(v2, out, ctx, NO_REJECTIONS);
      return out;
    },
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
