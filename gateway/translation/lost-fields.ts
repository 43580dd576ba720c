// v1 record fields v2 cannot supply (the table's `v1Lost`), declared on the answer that lacks them:
// one V2-Bridge-Warning naming them, and a usage drop per field (`answer.<field>`, apart from the
// inputs a client sends), since real clients never read the header. An emulation that fills one
// (templateId on a create answer) makes it present, and then nothing is declared.
import { lensNamed, type OperationMapping } from "../../mappings/index.ts";
import { compilePath, type CompiledPath } from "../../mappings/object-paths.ts";
import type { V1Call } from "../upstream/call.ts";
import type { V1Answer } from "./translate-response.ts";

/** Prefix of a lost answer field in usage drops (inputs are counted under their bare names). */
export const ANSWER_DROP_PREFIX = "answer.";

interface LostFields {
  schema: string;
  lens: string;
  fields: { name: string; path: CompiledPath }[];
}

const byOperation = new WeakMap<OperationMapping, LostFields | null>();

function lostFieldsOf(op: OperationMapping): LostFields | null {
  let lost = byOperation.get(op);
  if (lost !== undefined) return lost;
  const shape = op.response;
  const lens = shape.kind === "record" || shape.kind === "list" ? lensNamed(shape.lens) : undefined;
  lost = lens?.v1Lost?.length ? { schema: lens.v1Schema, lens: lens.name, fields: lens.v1Lost.map((l) => ({ name: l.v1, path: compilePath(l.v1) })) } : null;
  byOperation.set(op, lost);
  return lost;
}

/** The declared fields some record of this answer lacks. */
export function missingLostFields(op: OperationMapping, answer: V1Answer): string[] {
  const lost = lostFieldsOf(op);
  const json = answer.json;
  if (!lost || json === undefined || json === null || typeof json !== "object") return [];
  const records = Array.isArray(json) ? json : [json];
  return lost.fields.filter((f) => records.some((r) => f.path.get(r) === undefined)).map((f) => f.name);
}

/** Says and counts what this answer lacks. Never refused under --strict: the client asked for nothing v2 drops. */
export function declareLostFields(call: V1Call, answer: V1Answer): void {
  const missing = missingLostFields(call.op, answer);
  if (!missing.length) return;
  const lost = lostFieldsOf(call.op)!;
  call.warnings.push(`${missing.join(", ")} not in this answer: v2 cannot supply ${missing.length === 1 ? "this" : "these"} v1 ${lost.schema} field${missing.length === 1 ? "" : "s"} (mapping table, ${lost.lens})`);
  for (const name of missing) call.dropped.push(ANSWER_DROP_PREFIX + name);
}
