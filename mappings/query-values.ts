// Harmless query values (the table's `harmless`): a v1 query parameter whose every value asks for
// what v2 does anyway can simply be left out. One answer for the gateway and the codemod.
import type { QueryMapping } from "./types.ts";

/** Whether the parameter can go: every value given is one of its harmless values (none given: no). */
export function isHarmlessQuery(mapping: QueryMapping | undefined, values: readonly string[]): boolean {
  const harmless = mapping?.harmless?.values;
  return !!harmless && values.length > 0 && values.every((v) => harmless.includes(v));
}
