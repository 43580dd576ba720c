// A lens's field steps written out as one JavaScript function per direction, run by compiled-lens.ts
// for every body and record the gateway translates. Reading each step's inputs as written-out
// property accesses (object-paths.ts says why) instead of through shared helpers took toV1 of a
// pod record from 3.5 to ~1 µs and toV2 of a pod create body from 13 to ~5 µs. Same semantics as
// the steps read from the table (test/mappings/compiled-lens.test.ts compares them): a step whose
// inputs are all absent is skipped; a converter's outputs, or the inputs themselves, are set where
// defined (toV1 leaves nulls out too); in toV2 a converter that throws becomes a rejection.
// compiled-lens.ts runs these steps for toV1; its toV2 is written whole, defaults and unmapped
// fields included, by lens-to-v2.ts, whose steps are the same code (stepsCode) read from locals.
import { readPathCode, writePathCode } from "./object-paths.ts";
import type { ConvertContext } from "./types.ts";

export type Convert = (values: unknown[], ctx: ConvertContext) => unknown[];

export interface CodeStep {
  from: readonly (readonly string[])[];
  to: readonly (readonly string[])[];
  /** null: copy values as they are. */
  convert: Convert | null;
  /** Field names for rejection messages (`a, b: message`). */
  label: string;
}

/** Runs every toV1 step from `source` into `out`. */
export type StepsFunction = (source: Record<string, unknown>, out: Record<string, unknown>, ctx: ConvertContext) => void;

/** Where generated step code reads and writes: `read(segments, local)` is the code putting an input into `local`. */
export interface StepNames {
  read: (segments: readonly string[], local: string) => string;
  /** The object the outputs are written into. */
  out: string;
  /** The converters' context. */
  ctx: string;
}

/**
 * The code of the steps, one block each. A step whose inputs are all absent is skipped; toV1 leaves
 * nulls out; in toV2 a converter that throws adds `label: message` to `rejections`. Converters and
 * labels are pushed onto the given arrays, which the function built from the code must receive.
 */
export function stepsCode(steps: readonly CodeStep[], direction: "toV2" | "toV1", names: StepNames, converters: Convert[], labels: string[]): string {
  // v1 records never carried null where v2 does: toV1 leaves the field out instead.
  const keep = (v: string) => (direction === "toV1" ? `${v} !== undefined && ${v} !== null` : `${v} !== undefined`);
  let code = "";
  for (const step of steps) {
    const inputs = step.from.map((_, i) => `a${i}`);
    code += `{ let ${inputs.join(", ")};\n`;
    step.from.forEach((segments, i) => (code += `${names.read(segments, inputs[i]!)}\n`));
    code += `if (${inputs.map((a) => `${a} !== undefined`).join(" || ")}) {\n`;
    if (!step.convert) {
      step.to.forEach((segments, i) => {
        const value = inputs[i] ?? "undefined";
        code += `if (${keep(value)}) ${writePathCode(names.out, segments, value)}\n`;
      });
    } else {
      const c = converters.push(step.convert) - 1;
      labels.push(step.label);
      const call = `converters[${c}]([${inputs.join(", ")}], ${names.ctx})`;
      code +=
        direction === "toV2"
          ? `let o; try { o = ${call}; } catch (e) { rejections.push(\`\${labels[${c}]}: \${e.message}\`); o = null; }\nif (o !== null) {\n`
          : `const o = ${call};\n{\n`;
      step.to.forEach((segments, i) => (code += `{ const v = o[${i}]; if (${keep("v")}) ${writePathCode(names.out, segments, "v")} }\n`));
      code += "}\n";
    }
    code += "}}\n";
  }
  return code;
}

/** toV1's steps as one function over `source` (compiled-lens.ts; toV2 is written whole by lens-to-v2.ts). */
export function stepsFunction(steps: readonly CodeStep[]): StepsFunction {
  const converters: Convert[] = [];
  const labels: string[] = [];
  const code = stepsCode(steps, "toV1", { read: (segments, local) => readPathCode("s", segments, local), out: "out", ctx: "ctx" }, converters, labels);
  return new Function("converters", "labels", `return function toV1Steps(s, out, ctx) {\n${code}};`)(converters, labels) as StepsFunction;
}
