// One lens field in source form, for one direction: a plain copy, or the converter's source form
// (`codemod` toward v2, `codemodToV1` toward v1) written once per combination of present inputs,
// because the forms take `undefined` for a field that is absent and the adapter only knows at run
// time which are. Returns the statements, or why the adapter cannot hold this field.
import type { Converter, FieldLens } from "../../mappings/types.ts";
import { literal, type Annotate } from "./source-text.ts";

export type Direction = "toV2" | "toV1";

export type StepSource = { ok: true; code: string } | { ok: false; reason: string };

/** More inputs than this would mean 2^n branches; no converter of the table comes near it. */
const MAX_INPUTS = 8;

function fieldNames(f: FieldLens): string {
  return f.v1.join(", ");
}

export function stepSource(f: FieldLens, direction: Direction, converters: Readonly<Record<string, Converter>>, src: string, t: Annotate): StepSource {
  const [from, to] = direction === "toV2" ? [f.v1, f.v2] : [f.v2, f.v1];
  // v1 records never carry null (the lens engine leaves the field out); v2 bodies may.
  const put = direction === "toV2" ? "put" : "putV1";
  if (!f.converter) {
    const lines = to.flatMap((path, i) => (from[i] === undefined ? [] : [`${put}(out, ${literal(path)}, get(${src}, ${literal(from[i])}));`]));
    return { ok: true, code: lines.join("\n") };
  }
  const c = converters[f.converter];
  if (!c) return { ok: false, reason: `${fieldNames(f)}: unknown converter ${f.converter}` };
  // A record written without the outputs that need the catalog (the caller omits them, lens-source.ts).
  if (c.needsCatalog && !(direction === "toV1" && c.catalogOutputs && c.codemodToV1)) return { ok: false, reason: `${fieldNames(f)}: ${c.name} needs the live GPU catalog` };
  const form = direction === "toV2" ? c.codemod : c.codemodToV1;
  if (!form) {
    const why = direction === "toV2" ? c.codemodReason : undefined;
    return { ok: false, reason: `${fieldNames(f)}: ${c.name} has no ${direction === "toV2" ? "" : "v1 "}source form${why ? ` (${why})` : ""}` };
  }
  if (from.length > MAX_INPUTS) return { ok: false, reason: `${fieldNames(f)}: ${c.name} has too many inputs to write out` };

  const inputs = from.map((_, i) => `a${i}`);
  // Masks with the same statements share one branch.
  const branches = new Map<string, number[]>();
  for (let mask = 1; mask < 1 << from.length; mask++) {
    const sources = inputs.map((name, i) => (mask & (1 << i) ? name : undefined));
    const present = from.filter((_, i) => mask & (1 << i)).join(", ");
    // Present inputs are defined at run time here (each mask is one branch of presence).
    let written: (string | undefined)[] | null;
    try {
      written = direction === "toV2" ? c.codemod!(sources.map((x) => (x === undefined ? undefined : { source: x, optional: false }))) : c.codemodToV1!(sources);
    } catch (error) {
      // A form refusing these inputs (a GPU pod without a type) refuses as toV2 does: the adapter cannot hold the field.
      return { ok: false, reason: `${fieldNames(f)}: ${(error as Error).message} (${present} set)` };
    }
    if (written === null) return { ok: false, reason: `${fieldNames(f)}: ${c.name} cannot be written for run-time values (${present} set)` };
    const review = direction === "toV2" ? c.codemodReview?.(sources, sources.map(() => undefined)) : null;
    if (review) return { ok: false, reason: `${fieldNames(f)}: ${review}` };
    const statements = to.flatMap((path, j) => (written[j] === undefined ? [] : [`${put}(out, ${literal(path)}, ${written[j]});`])).join("\n");
    if (!statements) continue;
    branches.set(statements, [...(branches.get(statements) ?? []), mask]);
  }

  // A form that writes nothing for any input leaves nothing to do (and no unused reads).
  if (!branches.size) return { ok: true, code: "" };
  // `any`: the forms are written for the caller's typed values (`${ids}[0]`, `(${size}) > 0`).
  const reads = from.map((path, i) => `const ${inputs[i]}${t(": any")} = get(${src}, ${literal(path)});`);
  if (from.length === 1) {
    const body = [...branches.keys()][0]!;
    return { ok: true, code: `{\n  ${reads[0]}\n  if (a0 !== undefined) {\n${body.replace(/^/gm, "    ")}\n  }\n}` };
  }
  const presence = inputs.map((name, i) => `(${name} !== undefined ? ${1 << i} : 0)`).join(" | ");
  const ifs = [...branches].map(([statements, masks], k) => {
    const test = masks.map((m) => `m === ${m}`).join(" || ");
    return `${k ? "else if" : "if"} (${test}) {\n${statements.replace(/^/gm, "  ")}\n}`;
  });
  const lines = [...reads, `const m = ${presence};`, ...ifs];
  return { ok: true, code: `{\n${lines.join("\n").replace(/^/gm, "  ")}\n}` };
}
