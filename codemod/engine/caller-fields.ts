// What the callers of a function give the fields of a typed parameter that it sends as a request
// body (`createPod(input: PodInput)` sending `JSON.stringify(input)`, called as
// `createPod({ name, imageName, gpuTypeIds: ["NVIDIA A40"] })`). The declaration says which fields
// the body can carry; the callers say which values reach them: a field no caller passes is never
// sent, one every caller passes is always there, and the literals they pass are the values it can
// hold. The converters' source forms then decide on those facts (v2's `gpu` or `cpu` block from
// `computeType`, a GPU type list known non-empty) instead of on the declared type alone. A caller
// whose value is not known where it calls leaves that field as the declaration says, and is named.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { skipParens } from "./nodes.ts";
import { evaluateLiteral } from "./body.ts";
import { isAbsent, isNotFollowed, optionsOf, type Value } from "./evaluate/value.ts";
import { shortExpression } from "./expression-name.ts";

/** One field as the callers give it: its values when every caller's are known, and where one is not. */
export interface CallerField {
  /** Every present value when all are known literals (JSON values); undefined when one is not. */
  values?: unknown[];
  /** Some caller leaves it out (it is undefined there). */
  absent: boolean;
  /** Every caller passes a list with an entry (`[gpu]`, `["NVIDIA A40"]`), values known or not. */
  nonEmptyList: boolean;
  /** Every caller passes a list written with exactly one entry. */
  oneEntry: boolean;
  /** The first caller whose value is not known here: `createPod(…) at jobs.ts:12 passes gpus`. */
  unknownAt?: string;
}

/**
 * Per field of `fields`, what the callers give it; undefined when `body` is not a parameter whose
 * callers are all seen. `optionalArgument`: a caller leaving out an optional parameter (`listPods()`
 * of `listPods(params?: PodQuery)`) gives none of the fields (else such a caller is not read).
 */
export function callerFields(a: Analysis, body: Node, fields: string[], optionalArgument = false): Map<string, CallerField> | undefined {
  const n = skipParens(body);
  if (!Node.isIdentifier(n)) return undefined;
  const b = bind(a, n);
  if (b?.kind !== "param" || b.path.length) return undefined;
  // A default (`input = DEFAULTS`) may stand in for an argument left out: read as the declaration says.
  if ((b.decl as any).getInitializer?.()) return undefined;
  const callers = a.evaluator.callers(b.fn);
  if (!callers?.length) return undefined;
  const out = new Map<string, CallerField>(fields.map((f) => [f, { values: [], absent: false, nonEmptyList: true, oneEntry: true }]));
  for (const call of callers) {
    const arg = (call as any).getArguments()[b.index] as Node | undefined;
    if (!arg && optionalArgument && (b.decl as any).hasQuestionToken?.()) {
      for (const field of out.values()) {
        field.absent = true;
        field.nonEmptyList = field.oneEntry = false;
      }
      continue;
    }
    if (!arg) return undefined;
    const given = a.evaluator.evaluate(arg);
    const at = `${shortExpression((call as any).getExpression(), 30)}(…) at ${call.getSourceFile().getBaseName()}:${call.getStartLineNumber()}`;
    for (const name of fields) {
      const field = out.get(name)!;
      for (const option of optionsOf(a.evaluator.property(arg, given, name))) {
        const fact = factOf(option);
        if (fact === "absent") {
          field.absent = true;
          field.nonEmptyList = field.oneEntry = false;
          continue;
        }
        if (!fact.listWithEntry) field.nonEmptyList = false;
        if (fact.entries !== 1) field.oneEntry = false;
        if ("value" in fact) field.values?.push(fact.value);
        else {
          field.values = undefined;
          field.unknownAt ??= `${at} passes ${shortExpression(fact.node, 30)}`;
        }
      }
    }
  }
  return out;
}

type Fact = "absent" | ({ value: unknown } | { node: Node }) & { listWithEntry: boolean; entries?: number };

/** One value a caller's field can hold: a literal, a list literal with an entry, left out, or not known. */
function factOf(v: Value): Fact {
  if (v.kind === "string") return v.via?.length ? { node: v.node, listWithEntry: false } : { value: v.text, listWithEntry: false };
  if (v.kind !== "dynamic") return { node: "node" in v ? v.node : v.call, listWithEntry: false };
  if (isAbsent(v)) return "absent";
  const node = skipParens(v.node);
  const literal = isNotFollowed(v) ? evaluateLiteral(node) : undefined;
  const withEntry = Node.isArrayLiteralExpression(node) && node.getElements().length > 0 && !node.getElements().some((e) => Node.isSpreadElement(e));
  const entries = Node.isArrayLiteralExpression(node) && withEntry ? node.getElements().length : undefined;
  if (literal) return { value: literal.value, listWithEntry: Array.isArray(literal.value) && literal.value.length > 0, entries };
  return { node, listWithEntry: withEntry, entries };
}
