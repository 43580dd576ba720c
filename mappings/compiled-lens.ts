// A body lens compiled once: its field steps written out as code (lens-code.ts), converters resolved, `only` filters,
// known v1 fields and harmless values worked out ahead. Same semantics as reading the lens table
// field by field (test/mappings/compiled-lens.test.ts checks against such a reading), but the
// gateway's per-record cost no longer includes splitting strings and looking names up.
import type { BodyLens, ConvertContext, Converter } from "./types.ts";
import { converterNamed, converters } from "./data/converters.ts";
import { stepsFunction, type CodeStep, type Convert } from "./lens-code.ts";
import { toV2Function } from "./lens-to-v2.ts";

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

/**
 * `applicableV1Defaults` as a function of the body that answers one shared, frozen-by-convention
 * object per outcome (which of `v1DefaultsUnless` and the exceptions applied): the compiled toV2
 * reads each field's default from it, so it costs no allocation per body. Null without defaults.
 */
function defaultsFunction(lens: BodyLens): ((v1: Record<string, unknown>) => Record<string, unknown>) | null {
  const all = lens.v1Defaults;
  if (!all) return null;
  const always = applicableV1Defaults(lens, lens.v1DefaultsUnless ? { [lens.v1DefaultsUnless]: true } : {});
  const list = exceptionsOf(lens);
  // More exceptions than bits in a mask: the general computation (no lens comes near).
  if (list.length > 30) return (v1) => applicableV1Defaults(lens, v1);
  const byMask = new Map<number, Record<string, unknown>>();
  const unless = lens.v1DefaultsUnless;
  return (v1) => {
    if (unless !== undefined && v1[unless] !== undefined) return always;
    // As applicableV1Defaults: each exception sees the defaults left by the ones before it.
    let mask = 0;
    for (let i = 0; i < list.length; i++) {
      const when = list[i]!.when;
      let all_ = true;
      for (let j = 0; all_ && j < when.length; j++) {
        const [k, value] = when[j]!;
        const given = v1[k];
        const current = given !== undefined ? given : removedBy(list, mask, k) ? undefined : all[k];
        all_ = current === value;
      }
      if (all_) mask |= 1 << i;
    }
    let out = byMask.get(mask);
    if (!out) {
      out = {};
      for (const k of Object.keys(all)) if (!removedBy(list, mask, k)) out[k] = all[k];
      byMask.set(mask, out);
    }
    return out;
  };
}

/** Whether an exception already applied (its bit set in `mask`) removed the default of `field`. */
function removedBy(list: readonly { field: string }[], mask: number, field: string): boolean {
  for (let i = 0; i < list.length; i++) if (mask & (1 << i) && list[i]!.field === field) return true;
  return false;
}

function compile(lens: BodyLens): CompiledLens {
  const toV2 = toV2Function({
    steps: steps(lens, "toV2"),
    unmapped: (lens.unmapped ?? []).map((u) => ({ ...u, harmless: u.harmlessValue === undefined ? undefined : JSON.stringify(u.harmlessValue) })),
    known: knownV1Fields(lens),
    v1Schema: lens.v1Schema,
    defaults: defaultsFunction(lens),
    defaultable: new Set(Object.keys(lens.v1Defaults ?? {})),
    v2Defaults: Object.entries(lens.v2Defaults ?? {}).map(([p, value]) => ({ segments: p.split("."), value })),
  });
  const toV1Steps = stepsFunction(steps(lens, "toV1"));
  return {
    toV2,
    toV1(v2, ctx) {
      const out: Record<string, unknown> = {};
      toV1Steps(v2, out, ctx);
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
