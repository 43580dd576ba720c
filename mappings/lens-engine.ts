// Applies a body lens in either direction. Pure: no I/O, so gateway, codemod and tests share it.
import type { BodyLens, ConvertContext, FieldLens } from "./types.ts";
import { converterNamed } from "./converters.ts";
import { getPath, setPath } from "./object-paths.ts";
import { lensNamed } from "./lenses/index.ts";

export interface ToV2Result {
  body: Record<string, unknown>;
  /** Inputs forwarded without their v1 meaning (drop-with-warning), for the V2-Bridge-Warning header. */
  warnings: string[];
  /** Inputs v2 cannot take (decision "reject"): the gateway answers 400 with these. */
  rejections: string[];
  /** Unmapped fields the caller must emulate (decision "emulate"), with their values. */
  emulate: Record<string, unknown>;
}

const applies = (lens: FieldLens, direction: "toV2" | "toV1") => !lens.only || lens.only === direction;

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The v1 top-level field names a lens understands (mapped or declared unmapped). */
export function knownV1Fields(lens: BodyLens): Set<string> {
  const names = new Set<string>();
  for (const f of lens.fields) for (const p of f.v1) names.add(p.split(".")[0]!);
  for (const u of lens.unmapped ?? []) names.add(u.v1);
  return names;
}

export function withV1Defaults(lens: BodyLens, v1: Record<string, unknown>): Record<string, unknown> {
  if (!lens.v1Defaults) return v1;
  if (lens.v1DefaultsUnless && v1[lens.v1DefaultsUnless] !== undefined) return v1;
  return { ...lens.v1Defaults, ...v1 };
}

export function toV2(lensOrName: BodyLens | string, v1Input: Record<string, unknown>, ctx: ConvertContext = {}): ToV2Result {
  const lens = typeof lensOrName === "string" ? lensNamed(lensOrName) : lensOrName;
  const v1 = withV1Defaults(lens, v1Input);
  const result: ToV2Result = { body: {}, warnings: [], rejections: [], emulate: {} };
  for (const f of lens.fields) {
    if (!applies(f, "toV2")) continue;
    const inputs = f.v1.map((p) => getPath(v1, p));
    if (inputs.every((v) => v === undefined)) continue;
    let outputs: unknown[];
    try {
      outputs = f.converter ? converterNamed(f.converter).toV2(inputs, ctx) : inputs;
    } catch (error) {
      // A value the converter cannot place (unknown GPU type, unbalanced quotes) is the caller's error.
      result.rejections.push(`${f.v1.join(", ")}: ${(error as Error).message}`);
      continue;
    }
    f.v2.forEach((p, i) => setPath(result.body, p, outputs[i]));
  }
  for (const u of lens.unmapped ?? []) {
    const value = v1[u.v1];
    if (value === undefined || (u.harmlessValue !== undefined && sameValue(value, u.harmlessValue))) continue;
    if (u.decision === "reject") result.rejections.push(`${u.v1}: ${u.reason}; ${u.advice}`);
    else if (u.decision === "drop-with-warning") result.warnings.push(`${u.v1} ignored: ${u.reason}`);
    else result.emulate[u.v1] = value;
  }
  const known = knownV1Fields(lens);
  for (const name of Object.keys(v1Input)) {
    if (!known.has(name)) result.warnings.push(`${name} ignored: not a v1 ${lens.v1Schema} field`);
  }
  for (const [path, value] of Object.entries(lens.v2Defaults ?? {})) {
    if (getPath(result.body, path) === undefined) setPath(result.body, path, value);
  }
  return result;
}

export function toV1(lensOrName: BodyLens | string, v2: Record<string, unknown>, ctx: ConvertContext = {}): Record<string, unknown> {
  const lens = typeof lensOrName === "string" ? lensNamed(lensOrName) : lensOrName;
  const out: Record<string, unknown> = {};
  for (const f of lens.fields) {
    if (!applies(f, "toV1")) continue;
    const inputs = f.v2.map((p) => getPath(v2, p));
    if (inputs.every((v) => v === undefined)) continue;
    const outputs = f.converter ? converterNamed(f.converter).toV1(inputs, ctx) : inputs;
    f.v1.forEach((p, i) => {
      // v1 records never carried null where v2 does; leave the field out instead.
      if (outputs[i] !== null) setPath(out, p, outputs[i]);
    });
  }
  return out;
}
