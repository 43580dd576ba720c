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
  /** `parent`: a nested field (`gpu.oneMonthPrice`) is missing only from a record that has its object (a CPU pod has no `gpu`). */
  fields: { name: string; path: CompiledPath; parent?: CompiledPath }[];
  /** What an answer lacking a given set of fields declares, by that set (a bit per field): built once per set. */
  declared: Map<bigint, Declared>;
}

interface Declared {
  names: string[];
  warnings: string[];
  drops: string[];
}

const byOperation = new WeakMap<OperationMapping, LostFields | null>();

function lostFieldsOf(op: OperationMapping): LostFields | null {
  let lost = byOperation.get(op);
  if (lost !== undefined) return lost;
  const shape = op.response;
  const lens = shape.kind === "record" || shape.kind === "list" ? lensNamed(shape.lens) : undefined;
  const v1Lost = lens?.v1Lost;
  const parentOf = (name: string) => (name.includes(".") ? { parent: compilePath(name.slice(0, name.lastIndexOf("."))) } : {});
  lost = lens && v1Lost?.length ? { schema: lens.v1Schema, lens: lens.name, fields: v1Lost.map((l) => ({ name: l.v1, path: compilePath(l.v1), ...parentOf(l.v1) })), declared: new Map() } : null;
  byOperation.set(op, lost);
  return lost;
}

/** The set of declared fields some record of this answer lacks, a bit per field (0: none). */
function missingSet(lost: LostFields, answer: V1Answer): bigint {
  const json = answer.json;
  if (json === undefined || json === null || typeof json !== "object") return 0n;
  const records: unknown[] = Array.isArray(json) ? json : [json];
  let set = 0n;
  for (let i = 0; i < lost.fields.length; i++) {
    const { path, parent } = lost.fields[i]!;
    for (const r of records) {
      const within = parent ? parent.get(r) : r;
      if (within !== null && typeof within === "object" && path.get(r) === undefined) {
        set |= 1n << BigInt(i);
        break;
      }
    }
  }
  return set;
}

/** The header keeps at most this much of one warning (gateway/upstream/headers.ts): longer lists are split. */
const WARNING_CHARS = 300;

function declaredFor(lost: LostFields, set: bigint): Declared {
  let declared = lost.declared.get(set);
  if (!declared) {
    const names = lost.fields.filter((_, i) => set & (1n << BigInt(i))).map((f) => f.name);
    declared = { names, warnings: chunks(names, lost), drops: names.map((name) => ANSWER_DROP_PREFIX + name) };
    lost.declared.set(set, declared);
  }
  return declared;
}

/** One warning per run of names that fits a header entry (a pod lacks some thirty: its host, its GPU's term prices). */
function chunks(names: string[], lost: LostFields): string[] {
  const text = (run: string[]) => {
    const one = run.length === 1;
    return `${run.join(", ")} not in this answer: v2 cannot supply ${one ? "this" : "these"} v1 ${lost.schema} field${one ? "" : "s"} (mapping table, ${lost.lens})`;
  };
  const out: string[] = [];
  let run: string[] = [];
  for (const name of names) {
    if (run.length && text([...run, name]).length > WARNING_CHARS) {
      out.push(text(run));
      run = [];
    }
    run.push(name);
  }
  if (run.length) out.push(text(run));
  return out;
}

/** The declared fields some record of this answer lacks. */
export function missingLostFields(op: OperationMapping, answer: V1Answer): string[] {
  const lost = lostFieldsOf(op);
  const set = lost ? missingSet(lost, answer) : 0n;
  return set ? [...declaredFor(lost!, set).names] : [];
}

/** Says and counts what this answer lacks. Never refused under --strict: the client asked for nothing v2 drops. */
export function declareLostFields(call: V1Call, answer: V1Answer): void {
  const lost = lostFieldsOf(call.op);
  const set = lost ? missingSet(lost, answer) : 0n;
  if (!set) return;
  const declared = declaredFor(lost!, set);
  call.warnings.push(...declared.warnings);
  for (const name of declared.drops) call.dropped.push(name);
}
