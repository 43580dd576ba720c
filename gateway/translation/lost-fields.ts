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
  /**
   * What an answer lacking a given set of fields declares, built once per set: a tree walked one
   * field at a time (missing / present), so finding a set allocates nothing.
   */
  declared: SetNode;
}

interface SetNode {
  missing?: SetNode;
  present?: SetNode;
  /** At depth `fields.length`: what that set declares (none when no field is missing). */
  leaf?: Declared | null;
}

const setNode = (): SetNode => ({ missing: undefined, present: undefined, leaf: undefined });

interface Declared {
  names: readonly string[];
  warnings: readonly string[];
  /** The usage drops (`answer.<field>`): one frozen list per set, handed to the usage count as it is. */
  drops: readonly string[];
}

const byOperation = new WeakMap<OperationMapping, LostFields | null>();

function lostFieldsOf(op: OperationMapping): LostFields | null {
  let lost = byOperation.get(op);
  if (lost !== undefined) return lost;
  const shape = op.response;
  const lens = shape.kind === "record" || shape.kind === "list" ? lensNamed(shape.lens) : undefined;
  const v1Lost = lens?.v1Lost;
  // One shape for every field entry (no optional spread): the per-answer loop reads them all at one site.
  const parentOf = (name: string) => (name.includes(".") ? compilePath(name.slice(0, name.lastIndexOf("."))) : undefined);
  lost = lens && v1Lost?.length ? { schema: lens.v1Schema, lens: lens.name, fields: v1Lost.map((l) => ({ name: l.v1, path: compilePath(l.v1), parent: parentOf(l.v1) })), declared: setNode() } : null;
  byOperation.set(op, lost);
  return lost;
}

/** Whether some record lacks the field (a nested one only where the record has its parent object). */
function missingFrom(field: LostFields["fields"][number], records: unknown[]): boolean {
  const { path, parent } = field;
  for (const r of records) {
    const within = parent ? parent.get(r) : r;
    if (within !== null && typeof within === "object" && path.get(r) === undefined) return true;
  }
  return false;
}

/** What this answer declares: the set of declared fields some record of it lacks (null: none). */
function declaredFor(lost: LostFields, answer: V1Answer): Declared | null {
  const json = answer.json;
  if (json === undefined || json === null || typeof json !== "object") return null;
  const records: unknown[] = Array.isArray(json) ? json : [json];
  let node = lost.declared;
  for (const field of lost.fields) node = missingFrom(field, records) ? (node.missing ??= setNode()) : (node.present ??= setNode());
  if (node.leaf === undefined) {
    const names = lost.fields.filter((f) => missingFrom(f, records)).map((f) => f.name);
    node.leaf = names.length ? Object.freeze({ names: Object.freeze(names), warnings: Object.freeze(chunks(names, lost)), drops: Object.freeze(names.map((name) => ANSWER_DROP_PREFIX + name)) }) : null;
  }
  return node.leaf;
}

/** The header keeps at most this much of one warning (gateway/upstream/headers.ts): longer lists are split. */
const WARNING_CHARS = 300;

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
  const declared = lost ? declaredFor(lost, answer) : null;
  return declared ? [...declared.names] : [];
}

/**
 * Says and counts what this answer lacks. Never refused under --strict: the client asked for
 * nothing v2 drops. The drops stay one list (`call.lostDrops`), counted as a whole by the usage
 * store, rather than thirty-odd names pushed and redacted one by one on every pod read.
 */
export function declareLostFields(call: V1Call, answer: V1Answer): void {
  const lost = lostFieldsOf(call.op);
  const declared = lost ? declaredFor(lost, answer) : null;
  if (!declared) return;
  for (const w of declared.warnings) call.warnings.push(w);
  call.lostDrops = declared.drops;
}
