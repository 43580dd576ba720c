// A conditional spread in a v1 body literal (`...(gpu ? { gpuTypeIds: [gpu] } : {})`, `...(env &&
// { env })`): each branch's fields are known, so the body is converted with the lens once for every
// choice of branches (as the gateway converts whichever body arrives). The spread is kept, each
// branch now holding the v2 fields its choice adds or changes, laid over the rest's conversion
// after it. That is only written when every choice's conversion is exactly the rest's with the
// chosen branches' fields laid over it; else the branch fields that change how the rest converts
// are named in a problem.
import { Node, type ObjectLiteralExpression } from "../ts-morph.ts";
import { unwrapExpression } from "./urls.ts";
import { render, type OutNode, type Verbatim } from "./body-render.ts";
import type { BodyProblem, V1Field } from "./body.ts";

export interface ConditionalSpread {
  /** The spread as written (kept verbatim when it cannot be converted). */
  text: string;
  comments: string[];
  condition: string;
  /** `c ? {…} : {…}` or `c && {…}` (whose other side adds nothing). */
  form: "ternary" | "and";
  /** The fields of the branch taken when the condition holds, then of the other one. */
  branches: [Map<string, V1Field>, Map<string, V1Field>];
}

/** The two object literals a spread's conditional expression chooses between (an `&&` adds nothing on its false side). */
export function spreadBranches(expression: Node): { condition: Node; form: "ternary" | "and"; objects: [ObjectLiteralExpression, ObjectLiteralExpression | undefined] } | undefined {
  const e = unwrapExpression(expression);
  const object = (n: Node) => {
    const u = unwrapExpression(n);
    return Node.isObjectLiteralExpression(u) ? u : undefined;
  };
  if (Node.isConditionalExpression(e)) {
    const t = object(e.getWhenTrue());
    const f = object(e.getWhenFalse());
    return t && f ? { condition: e.getCondition(), form: "ternary", objects: [t, f] } : undefined;
  }
  if (Node.isBinaryExpression(e) && e.getOperatorToken().getText() === "&&") {
    const t = object(e.getRight());
    return t ? { condition: e.getLeft(), form: "and", objects: [t, undefined] } : undefined;
  }
  return undefined;
}

export type Convert = (fields: Map<string, V1Field>) => { out: Map<string, OutNode>; problems: BodyProblem[]; verbatim: Verbatim[] };

const MAX_SPREADS = 4;

/**
 * The spreads converted: the rest's conversion, each spread's text in v2 fields, and the problems of
 * every choice; or the problem that says why the spreads cannot be converted.
 */
export function convertConditionalSpreads(rest: Map<string, V1Field>, spreads: ConditionalSpread[], convert: Convert, quote: string): { out: Map<string, OutNode>; verbatim: Verbatim[]; spreads: Verbatim[]; problems: BodyProblem[] } | { problem: BodyProblem } {
  const branchKeys = spreads.flatMap((s) => [...s.branches[0].keys(), ...s.branches[1].keys()]);
  const clash = branchKeys.find((k) => rest.has(k) || !sameSpread(spreads, k));
  if (clash) return { problem: cannot(clash, `${clash} is set both by a conditional spread and elsewhere in the body`) };
  if (spreads.length > MAX_SPREADS) return { problem: cannot(spreads[0]!.text, `more than ${MAX_SPREADS} conditional spreads in one body`) };
  const base = convert(rest);
  const baseText = texts(base.out, quote);
  // What each branch adds or changes, by top-level v2 field.
  const deltas = spreads.map((s) => s.branches.map((fields) => {
    const got = convert(new Map([...rest, ...fields]));
    const t = texts(got.out, quote);
    const removed = [...baseText.keys()].find((k) => !t.has(k));
    const changed = [...t.keys()].filter((k) => t.get(k) !== baseText.get(k));
    return { fields, out: got.out, changed, removed };
  }));
  for (const d of deltas.flat()) {
    if (d.removed) return { problem: cannot([...d.fields.keys()].join(", "), `its fields take v2 ${d.removed} out of what the rest of the body converts to`) };
  }
  // Every choice of branches: its conversion must be the rest's with the chosen deltas laid over it.
  const problems: BodyProblem[] = [];
  for (let choice = 0; choice < 1 << spreads.length; choice++) {
    const fields = new Map(rest);
    const expected = new Map(baseText);
    spreads.forEach((s, i) => {
      const b = (choice >> i) & 1;
      for (const [k, f] of s.branches[b]!) fields.set(k, f);
      const d = deltas[i]![b]!;
      const t = texts(d.out, quote);
      for (const k of d.changed) expected.set(k, t.get(k)!);
    });
    const got = convert(fields);
    const actual = texts(got.out, quote);
    const differs = [...new Set([...actual.keys(), ...expected.keys()])].find((k) => actual.get(k) !== expected.get(k));
    if (differs) {
      const chosen = spreads.flatMap((s, i) => [...s.branches[(choice >> i) & 1]!.keys()]);
      return { problem: cannot(chosen.join(", "), `together with the rest of the body they convert v2 ${differs} differently from each branch alone`) };
    }
    problems.push(...got.problems);
  }
  const seen = new Set<string>();
  const spreadTexts: Verbatim[] = spreads.map((s, i) => {
    const [t, f] = deltas[i]!.map((d) => render(new Map(d.changed.map((k) => [k, d.out.get(k)!])), false, "", "  ", quote));
    const text = s.form === "and" && f === "{}" ? `...(${s.condition} && ${t})` : `...(${s.condition} ? ${t} : ${f})`;
    return { comments: s.comments, text };
  });
  // A v2 field both branches of a spread set is always overwritten by it: the rest's value is left
  // out (written twice, TypeScript refuses it as TS2783).
  const alwaysSet = new Set(deltas.flatMap(([t, f]) => t!.changed.filter((k) => f!.changed.includes(k))));
  const out = new Map([...base.out].filter(([k]) => !alwaysSet.has(k)));
  return { out, verbatim: base.verbatim, spreads: spreadTexts, problems: problems.filter((p) => !seen.has(p.reason) && !!seen.add(p.reason)) };
}

/** Both branches of one spread may set the same key (`c ? { a: 1 } : { a: 2 }`). */
function sameSpread(spreads: ConditionalSpread[], key: string): boolean {
  return spreads.filter((s) => s.branches[0].has(key) || s.branches[1].has(key)).length === 1;
}

function cannot(fields: string, why: string): BodyProblem {
  return { fields: [fields], reason: `conditional spread in a v1 body (${fields}): ${why}`, advice: "write the v2 body of each branch in full (see docs/mapping.md)" };
}

/** Each top-level v2 field as rendered text, to compare conversions. */
function texts(out: Map<string, OutNode>, quote: string): Map<string, string> {
  return new Map([...out].map(([k, n]) => [k, render(new Map([[k, n]]), false, "", "  ", quote)]));
}
