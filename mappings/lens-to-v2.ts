// A lens's whole toV2 written out as one JavaScript function: v1 defaults, field steps, unmapped
// inputs, unknown fields and v2 defaults, in the order compiled-lens.ts documents. Why one
// function and no intermediate objects: on Node 20 an object made by a spread followed by more
// properties (`{ ...defaults, ...v1 }`, `{ ...ctx, warn }`) gets a map of its own every time, so
// every property read of it misses V8's inline caches and goes to the runtime (~0.3 µs a read
// of an absent field). The old toV2 read ~35 fields of such a merged body: 15 µs in a loop and
// ~40 in place (docs/performance.md, session 37). Here each top-level v1 field is read once from
// the caller's body, with the default the lens gives it when the body has no such own field, as
// reading `{ ...defaults, ...v1 }` gave. Names enter the code only as JSON string literals.
import type { BodyLens, ConvertContext } from "./types.ts";
import { readPathCode, writePathCode } from "./object-paths.ts";
import { stepsCode, type CodeStep, type Convert } from "./lens-code.ts";
import type { ToV2Result } from "./compiled-lens.ts";

export type ToV2Function = (v1: Record<string, unknown>, ctx: ConvertContext) => ToV2Result;

/** The unmapped inputs as compiled-lens.ts reads them (harmless value serialised once). */
export interface UnmappedStep {
  v1: string;
  decision: "reject" | "drop-with-warning" | "emulate" | string;
  harmless: string | undefined;
  reason: string;
  advice: string;
}

export interface ToV2Parts {
  steps: readonly CodeStep[];
  unmapped: readonly UnmappedStep[];
  /** Top-level v1 field names the lens knows (mapped or unmapped): others are dropped with a warning. */
  known: ReadonlySet<string>;
  v1Schema: string;
  /** The v1 defaults that apply to a body (what `applicableV1Defaults` gives), or null for a lens without any. */
  defaults: ((v1: Record<string, unknown>) => Record<string, unknown>) | null;
  /** Every field any of those defaults can give. */
  defaultable: ReadonlySet<string>;
  v2Defaults: readonly { segments: readonly string[]; value: unknown }[];
}

export function toV2Function(parts: ToV2Parts): ToV2Function {
  const converters: Convert[] = [];
  const labels: string[] = [];
  const constants: unknown[] = [];
  const constant = (value: unknown) => `k[${constants.push(value) - 1}]`;
  // One local per top-level v1 field, read once, in the order the lens first uses them.
  const tops = new Map<string, string>();
  let reads = "";
  const top = (name: string): string => {
    let local = tops.get(name);
    if (local) return local;
    local = `t${tops.size}`;
    tops.set(name, local);
    const key = JSON.stringify(name);
    reads += `let ${local} = v1[${key}];\n`;
    // `{ ...defaults, ...v1 }` kept the body's own field even when it was undefined.
    if (parts.defaults && parts.defaultable.has(name)) reads += `if (${local} === undefined && D !== null && !hasOwn(v1, ${key})) ${local} = D[${key}];\n`;
    return local;
  };

  let code = stepsCode(parts.steps, "toV2", { read: (segments, local) => readPathCode(top(segments[0]!), segments.slice(1), local), out: "body", ctx: "stepCtx" }, converters, labels);
  for (const u of parts.unmapped) {
    const value = top(u.v1);
    code += `if (${value} !== undefined${u.harmless === undefined ? "" : ` && JSON.stringify(${value}) !== ${constant(u.harmless)}`}) `;
    if (u.decision === "reject") code += `rejections.push(${constant(`${u.v1}: ${u.reason}; ${u.advice}`)});\n`;
    else if (u.decision === "drop-with-warning") code += `{ warnings.push(${constant(`${u.v1} ignored: ${u.reason}`)}); dropped.push(${constant(u.v1)}); }\n`;
    else code += `result.emulate[${JSON.stringify(u.v1)}] = ${value};\n`;
  }
  code += `for (const name of Object.keys(v1)) {\nif (known.has(name)) continue;\nwarnings.push(name + ${constant(` ignored: not a v1 ${parts.v1Schema} field`)});\ndropped.push(name);\n}\n`;
  for (const d of parts.v2Defaults) {
    if (d.value === undefined) continue; // a compiled path's set leaves the target untouched
    code += `{ let v; ${readPathCode("body", d.segments, "v")} if (v === undefined) ${writePathCode("body", d.segments, constant(d.value))} }\n`;
  }

  const source =
    `return function toV2(v1, ctx) {\n` +
    `const D = ${parts.defaults ? "defaults(v1)" : "null"};\n` +
    reads +
    `const warnings = [], rejections = [], dropped = [];\n` +
    `const result = { body: {}, warnings, rejections, emulate: {}, dropped };\n` +
    `const body = result.body;\n` +
    // A converter that leaves out an input v2 would refuse says so, naming the input it drops.
    `const stepCtx = { catalog: ctx == null ? undefined : ctx.catalog, v1GpuTypeIds: ctx == null ? undefined : ctx.v1GpuTypeIds, warn: (message, droppedField) => { warnings.push(message); if (droppedField) dropped.push(droppedField); } };\n` +
    code +
    `return result;\n};`;
  const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
  return new Function("converters", "labels", "k", "known", "defaults", "hasOwn", source)(converters, labels, constants, parts.known, parts.defaults, hasOwn) as ToV2Function;
}
