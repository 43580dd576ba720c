// v2 field paths → the v1 field names a client sent, read from a request lens (its field pairs and
// each converter's `parts`), so a v2 validation error can be told in v1 terms.
import type { BodyLens } from "./types.ts";
import { lensNamed } from "./data/lenses/index.ts";

type Names = [v2Path: string, v1Name: string][];

const cache = new WeakMap<BodyLens, Names>();

function namesOf(lens: BodyLens): Names {
  let names = cache.get(lens);
  if (names) return names;
  names = [];
  for (const f of lens.fields) {
    if (f.only === "toV1") continue;
    for (const [v2Path, v1Name] of Object.entries(f.parts ?? {})) names.push([v2Path, v1Name]);
    for (const v2Path of f.v2) names.push([v2Path, f.v2.length === 1 && f.v1.length === 1 ? f.v1[0]! : f.v1.join(" / ")]);
  }
  // Longest (most specific) v2 path first.
  names.sort((a, b) => b[0].length - a[0].length);
  cache.set(lens, names);
  return names;
}

/**
 * The v1 name for a v2 JSON pointer (`/gpu/id` → `gpuTypeIds`, `/env/A` → `env.A`), or undefined
 * when the lens does not produce that v2 field. Array indices match any item.
 */
export function v1NameForV2Pointer(lensOrName: BodyLens | string, pointer: string): string | undefined {
  const lens = typeof lensOrName === "string" ? lensNamed(lensOrName) : lensOrName;
  const path = pointer
    .replace(/^\//, "")
    .split("/")
    .map((s) => (/^\d+$/.test(s) ? "0" : s.replace(/~1/g, "/").replace(/~0/g, "~")))
    .join(".");
  for (const [v2Path, v1Name] of namesOf(lens)) {
    if (path === v2Path) return v1Name;
    if (path.startsWith(v2Path + ".")) return `${v1Name}.${path.slice(v2Path.length + 1)}`;
  }
  return undefined;
}
