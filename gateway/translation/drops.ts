// A v1 input v2 cannot keep: said in V2-Bridge-Warning, counted per client in the usage audit, and
// under --strict refused with a v1 400 naming it (real clients never read the warning header).
import type { V1Call } from "../upstream/call.ts";
import { V1Error } from "./v1-errors.ts";

/** Adds drops found while translating; under --strict the request is refused before any v2 call. */
export function noteDrops(call: V1Call, fields: string[], warnings: string[]): void {
  if (!fields.length) return;
  call.dropped.push(...fields);
  if (call.deps.config.strict) {
    throw new V1Error(400, `v2 cannot keep ${fields.join(", ")} (refused by the gateway's --strict mode): ${warnings.join("; ")}`);
  }
}

/** One input an emulation has to leave out (e.g. volumeInGb on a network-volume pod). */
export function dropField(call: V1Call, field: string, warning: string): void {
  noteDrops(call, [field], [warning]);
  call.warnings.push(warning);
}
