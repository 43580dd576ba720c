// The schemas of the app's own that validate a call's answer (zod's `Schema.parse(await res.json())`,
// or a helper handed the schema: `rp(PodSchema, path)`), and where one of them is a boundary the
// adapter can serve: the value crosses into a check the app owns, so the call may move to v2 while
// that check is handed the v1 form of the answer (docs/codemod.md "Boundary adapter").
import { Node } from "../../ts-morph.ts";
import type { FieldLens, OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { bodySites } from "../body-sites.ts";
import { schemaFieldPaths, schemaParseOf, schemaShape } from "../schema-parse.ts";
import { referencesOf } from "../nodes.ts";
import { enclosingFunction } from "../scope.ts";

/** The schemas that validate this call's answer: the one its helper is given, the helper's own, or one the body is parsed with. */
export function answerSchemas(plan: Plan, http: HttpCall): Node[] {
  const out: Node[] = [];
  const sig = http.lib === "helper" ? http.helper : undefined;
  if (sig?.schemaIndex !== undefined) {
    const arg = http.call.getArguments()[sig.schemaIndex];
    if (arg) out.push(arg);
  }
  if (sig?.schema) out.push(sig.schema as Node);
  for (const parse of bodyParses(plan, http)) out.push(parse.schema);
  return out;
}

/** The schema parses of the body at the call: of the body read itself, or of the variable it is kept in (`const json = await res.json(); S.safeParse(json)`). */
function bodyParses(plan: Plan, http: HttpCall): { schema: Node; value: Node }[] {
  const out: { schema: Node; value: Node }[] = [];
  const add = (value: Node) => {
    const parse = schemaParseOf(value);
    if (parse) out.push({ schema: parse.schema, value: (parse.call as any).getArguments()[0] as Node });
    return !!parse;
  };
  for (const site of bodySites(plan.a, http)) {
    if (site.kind !== "value" || add(site.node)) continue;
    let up = site.node.getParent();
    while (up && (Node.isAwaitExpression(up) || Node.isParenthesizedExpression(up) || Node.isAsExpression(up))) up = up.getParent();
    if (!up || !Node.isVariableDeclaration(up) || !Node.isIdentifier(up.getNameNode())) continue;
    for (const ref of referencesOf(enclosingFunction(up), up.getNameNode())) if (ref !== up.getNameNode()) add(ref);
  }
  return out;
}

/** A schema validating the answer in v1 shape, and where the adapter's conversion goes in front of it. */
export interface SchemaBoundary {
  schema: Node;
  /** `schema`: the schema handed to the helper is wrapped (`validatesV1(S, toV1)`); `value`: the value parsed at the call is converted. */
  wraps: "schema" | "value";
  /** The node the conversion wraps. */
  node: Node;
  /** The record fields the validated value can hold (a closed object schema), each with where the schema names it; undefined when it may hold others. */
  fields?: Map<string, string>;
}

/**
 * The one schema validating this call's answer that needs the answer's v1 form (a list it expects as
 * an array, or a record naming v1 fields that differ in v2), where the adapter can be put before it:
 * the schema argument of the call to a helper that parses with it, or the value parsed at the call.
 * Undefined where no schema needs it, or one cannot be served (a helper's own schema, a shape the
 * codemod cannot read): those keep their mark (schema-reads.ts).
 */
export function schemaBoundary(plan: Plan, http: HttpCall, op: OperationMapping, kind: "record" | "list", lens: { fields: FieldLens[]; v1Lost?: { v1: string }[] }): SchemaBoundary | undefined {
  const differing = new Set(lens.fields.filter((f) => f.only !== "toV2" && (f.converter || f.v1.join() !== f.v2.join())).flatMap((f) => f.v1.map((x) => x.split(".")[0]!)));
  for (const l of lens.v1Lost ?? []) differing.add(l.v1.split(".")[0]!);
  const needing: SchemaBoundary[] = [];
  const sig = http.lib === "helper" ? http.helper : undefined;
  const given = sig?.schemaIndex !== undefined ? http.call.getArguments()[sig.schemaIndex] : undefined;
  for (const schema of answerSchemas(plan, http)) {
    const shape = schemaShape(schema);
    const needs = kind === "list" ? shape.kind === "array" : shape.kind === "object" && [...shape.keys.keys()].some((k) => differing.has(k));
    if (!needs) {
      if (shape.kind === "unknown") return undefined;
      continue;
    }
    // The helper's own schema is parsed inside it, for every caller: not this call's to convert.
    if (schema === sig?.schema) return undefined;
    const parsed = schema === given ? undefined : valueParsedBy(plan, http, schema);
    if (schema !== given && !parsed) return undefined;
    const paths = schemaFieldPaths(shape);
    const fields = paths && new Map([...paths].map(([f, entry]) => [f, `${(entry ?? schema).getSourceFile().getBaseName()}:${(entry ?? schema).getStartLineNumber()}`]));
    needing.push(parsed ? { schema, wraps: "value", node: parsed, fields } : { schema, wraps: "schema", node: schema, fields });
  }
  return needing.length === 1 ? needing[0] : undefined;
}

/** The value a schema parses at the call (`S.parse(await res.json())`: `await res.json()`). */
function valueParsedBy(plan: Plan, http: HttpCall, schema: Node): Node | undefined {
  return bodyParses(plan, http).find((p) => p.schema === schema)?.value;
}
