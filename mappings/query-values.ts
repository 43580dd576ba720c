// Harmless query values (the table's `harmless`): a v1 query parameter whose every value asks for
// what v2 does anyway can simply be left out. One answer for the gateway and the codemod.
import type { QueryMapping, V1QueryDefault } from "./types.ts";

/** Whether the parameter can go: every value given is one of its harmless values (none given: no). */
export function isHarmlessQuery(mapping: QueryMapping | undefined, values: readonly string[]): boolean {
  const harmless = mapping?.harmless?.values;
  return !!harmless && values.length > 0 && values.every((v) => harmless.includes(v));
}

/**
 * What a request that leaves the parameter out meant on v1 (its documented default), when v2
 * answers such a request otherwise: the default is not one of the harmless values. The codemod
 * marks a call that leaves it out; undefined when leaving it out means the same on v2.
 */
export function absentQueryDiffers(mapping: QueryMapping): V1QueryDefault | undefined {
  const d = mapping.v1Default;
  return d && !isHarmlessQuery(mapping, [d.value]) ? d : undefined;
}
