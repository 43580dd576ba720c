// Rewrite step: a schema validating the answer (zod's `Schema.parse(await res.json())`, or a helper
// given the schema: `rp(PodSchema, path)`) reads every field it names, and fails on a v2 answer
// where one of them is renamed or gone, or where v2 wraps a list the schema expects as an array.
// The schema is not converted here: where the adapter does not hand it the answer's v1 form
// (answer-schemas.ts), such a call stays whole on v1 with a mark naming the schema.
import type { Node } from "../../ts-morph.ts";
import { answersUndocumentedRecord, clientAnswer, lensNamed, type OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { schemaName, schemaShape, type SchemaShape } from "../schema-parse.ts";
import { answerSchemas } from "./answer-schemas.ts";
import { differingFields } from "./record-field-read.ts";

/** Marks the call when a schema validating its answer names a v1 field that differs in v2, or expects the list v2 wraps. */
export function schemaReads(plan: Plan, http: HttpCall, op: OperationMapping): void {
  const schemas = answerSchemas(plan, http);
  if (!schemas.length) return;
  const shape = clientAnswer(op);
  if (shape.kind !== "record" && shape.kind !== "list") return;
  const lens = lensNamed(shape.lens);
  if (!lens) return;
  const differing = new Map<string, string[]>();
  for (const d of differingFields(lens.fields, lens.v1Lost)) {
    const first = d.split(/[.+→]/)[0]!;
    differing.set(first, [...(differing.get(first) ?? []), d]);
  }
  for (const schema of schemas) {
    // Handed the answer's v1 form by the adapter (answer-schemas.ts): it validates what it did on v1;
    // or the adapter said which of its fields it cannot give.
    if (plan.site.adaptedSchemas?.has(schema)) continue;
    const name = schemaName(schema);
    let s: SchemaShape = schemaShape(schema);
    const where = answersUndocumentedRecord(op) ? "the record v2 answers" : "the answer";
    if (shape.kind === "list") {
      const array = s.kind === "array";
      if (s.kind === "array") s = s.of;
      else if (s.kind !== "unknown") continue;
      plan.problems.push({
        risk: "silent",
        reason: `${array ? `the zod schema ${name} validates the answer as an array` : `the answer is validated by the schema ${name}, whose shape the codemod cannot read`}, and v2 wraps the list in { ${shape.wrapper}: [...] }${s.kind === "object" ? named(s, differing, " (its records also name v1 fields that differ in v2: ", ")") : ""}`,
        advice: `validate z.object({ ${shape.wrapper}: ${name} }) in v2 field names and read .${shape.wrapper}, or keep the call on v1`,
        brief: `the zod schema ${name} expects an array; v2 wraps the list in { ${shape.wrapper}: [...] }`,
      });
      continue;
    }
    if (s.kind === "unknown") {
      plan.problems.push({ risk: "silent", reason: `${where} is validated by the schema ${name}, whose fields the codemod cannot read (it may name v1 fields that differ in v2)`, advice: "write the schema in v2 field names (docs/mapping.md) with the call's v2 migration" });
      continue;
    }
    if (s.kind !== "object") {
      plan.problems.push({ risk: "silent", reason: `${where} is a record, and the zod schema ${name} validates it as an array`, advice: "check the schema against the v2 record" });
      continue;
    }
    const lists = named(s, differing, "", "");
    if (!lists) continue;
    plan.problems.push({
      risk: "silent",
      reason: `the zod schema ${name} validates ${where} and names v1 fields that differ in v2: ${lists}`,
      advice: "write the schema in v2 field names (docs/mapping.md) with the call's v2 migration, and read the v2 fields where its value is used",
      brief: `the zod schema ${name} validates ${where} in v1 field names (${[...s.keys.keys()].filter((k) => differing.has(k)).join(", ")})`,
    });
  }
}

/** The differing fields an object schema names, as a list between `before` and `after` (empty when none). */
function named(s: { keys: Map<string, unknown> }, differing: Map<string, string[]>, before: string, after: string): string {
  const hits = [...s.keys.keys()].flatMap((k) => differing.get(k) ?? []);
  return hits.length ? `${before}${hits.join(", ")}${after}` : "";
}
