// The cheap text pre-filter: most files of a code base cannot contain v1 usage, and deciding
// that must not cost a parse (nor even loading the TypeScript compiler).

import { V1_HOST, V2_BASE } from "../mappings/bases.ts";

export const TODO_TAG = "TODO(v2-migration)";

/** Names only an auto-importing build binds (Nuxt, Nitro): called in a module, they may show the convention (codemod/auto-imports.ts). */
export const AUTO_IMPORT_TELLTALE = /(?<![\w$.])(defineEventHandler|defineNuxtConfig|useRuntimeConfig|defineNitroPlugin|defineNuxtPlugin)\s*\(/;

/** Can this file contain v1 usage on its own (the v1 host, or a TODO mark of an earlier run)? Read on the raw bytes: no decoding for the files that are ruled out. */
export function mightUseV1Buffer(buf: Buffer): boolean {
  return buf.includes(V1_HOST) || buf.includes(TODO_TAG);
}

/** The v2 base as written in code, without its scheme. */
const V2_BASE_TEXT = V2_BASE.replace(/^https?:\/\//, "");

/**
 * Can this file hold a call the engine looks at: v1 usage, or a call on the v2 base moved there by hand
 * whose reads may still speak v1 (engine/hand-moved.ts)? A project that no longer names the v1 host is parsed too.
 */
export function mightCallApiBuffer(buf: Buffer): boolean {
  return mightUseV1Buffer(buf) || buf.includes(V2_BASE_TEXT);
}
