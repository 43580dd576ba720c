// Applies a body lens in either direction. Pure: no I/O, so gateway, codemod and tests share it.
// Each lens is compiled once (compiled-lens.ts) and reused for every body and record.
import type { BodyLens, ConvertContext } from "./types.ts";
import { applicableV1Defaults, compiledLens, knownV1Fields, withV1Defaults, type ToV2Result } from "./compiled-lens.ts";
import { lensNamed } from "./data/lenses/index.ts";

export { applicableV1Defaults, knownV1Fields, withV1Defaults, type ToV2Result };

export function toV2(lensOrName: BodyLens | string, v1Input: Record<string, unknown>, ctx: ConvertContext = {}): ToV2Result {
  const lens = typeof lensOrName === "string" ? lensNamed(lensOrName) : lensOrName;
  return compiledLens(lens).toV2(v1Input, ctx);
}

export function toV1(lensOrName: BodyLens | string, v2: Record<string, unknown>, ctx: ConvertContext = {}): Record<string, unknown> {
  const lens = typeof lensOrName === "string" ? lensNamed(lensOrName) : lensOrName;
  return compiledLens(lens).toV1(v2, ctx);
}
