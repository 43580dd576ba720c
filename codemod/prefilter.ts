// The cheap text pre-filter: most files of a code base cannot contain v1 usage, and deciding
// that must not cost a parse (nor even loading the TypeScript compiler).

import { V1_HOST } from "../mappings/bases.ts";

export const V1_HOST_TEXT = V1_HOST;
export const TODO_TAG = "TODO(v2-migration)";

/** Can this file contain v1 usage on its own (the v1 host, or a TODO mark of an earlier run)? */
export function mightUseV1(text: string): boolean {
  return text.includes(V1_HOST_TEXT) || text.includes(TODO_TAG);
}

/** mightUseV1 on the raw bytes of a file: no decoding for the files that are ruled out. */
export function mightUseV1Buffer(buf: Buffer): boolean {
  return buf.includes(V1_HOST_TEXT) || buf.includes(TODO_TAG);
}

/** Files with relative imports may use a v1 base constant or request helper of another module. */
export const RELATIVE_IMPORT = /(?:from\s*|require\s*\(\s*|import\s*\(\s*)["']\.\.?\//;

const RELATIVE_SPECIFIER = /(?:from\s*|require\s*\(\s*|import\s*\(\s*)["'](\.\.?\/[^"'\n]*)["']/g;

/** The relative module specifiers a file imports, requires or re-exports from. */
export function relativeSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RELATIVE_SPECIFIER)) out.push(m[1]!);
  return out;
}
