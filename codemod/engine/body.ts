// Flat v1 request bodies (object literals in source) → nested v2 bodies, driven by the mapping
// table's lenses and converters. Keeps the user's expressions and comments; anything that cannot
// be converted safely stays as written and is reported (the caller leaves a TODO mark).
import { Node, type ObjectLiteralExpression } from "../ts-morph.ts";
import { convertConditionalSpreads, spreadBranches, type ConditionalSpread } from "./conditional-spreads.ts";
import { applicableV1Defaults, converterNamed, knownV1Fields, lensNamed, type BodyLens } from "../../mappings/index.ts";
import { operand } from "../../mappings/data/source-forms.ts";
import { computedMoreThanOnce, convertField, reviewOf, type Value } from "./body-converters.ts";
import { neverNull, sourceInput } from "./source-facts.ts";
import { outSources, render, renderValue, replaceSources, lineIndent, setOut, type OutNode, type Verbatim } from "./body-render.ts";
import { isPure } from "../../mappings/data/source-forms.ts";
import { computedValue, hoistComputed, hoistEdits, writeBack, type Computed } from "./computed-fields.ts";
import type { Edit } from "../types.ts";

export interface BodyProblem {
  fields: string[];
  reason: string;
  advice: string;
  /** Set when the converter could write the fields, at a loss a human must weigh (a GPU fallback list cut to one): the site is marked and left whole all the same. */
  review?: true;
}

export interface BodyConversion {
  /** Replacement text for the object literal (null when nothing changes). */
  text: string | null;
  problems: BodyProblem[];
  /** Consts the converted body reads, declared before its statement (a computed value it would write twice). */
  before?: Edit[];
}


export interface V1Field {
  name: string;
  value: Value;
  comments: string[];
  trailing: string[];
  /** The field as written (`gpuCount: n`), kept verbatim when it cannot be converted. */
  text: string;
  /** A value that computes something: a placeholder in the conversion (computed-fields.ts). */
  computed?: Computed;
}

/** Stands for a field whose value is not a literal: set, so `v1DefaultsUnless` sees it, but equal to no value. */
const NOT_A_LITERAL = Symbol("not a literal");

/** Evaluates a literal expression (JSON-like), or undefined when it is not one. */
export function evaluateLiteral(node: Node): { value: unknown } | undefined {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return { value: node.getLiteralValue() };
  if (Node.isNumericLiteral(node)) return { value: node.getLiteralValue() };
  if (Node.isTrueLiteral(node)) return { value: true };
  if (Node.isFalseLiteral(node)) return { value: false };
  if (Node.isNullLiteral(node)) return { value: null };
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === 41 /* MinusToken */) {
    const inner = evaluateLiteral(node.getOperand());
    return typeof inner?.value === "number" ? { value: -inner.value } : undefined;
  }
  if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node)) return evaluateLiteral(node.getExpression());
  if (Node.isArrayLiteralExpression(node)) {
    const out: unknown[] = [];
    for (const el of node.getElements()) {
      const v = evaluateLiteral(el);
      if (!v) return undefined;
      out.push(v.value);
    }
    return { value: out };
  }
  if (Node.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const p of node.getProperties()) {
      if (!Node.isPropertyAssignment(p)) return undefined;
      const nameNode = p.getNameNode();
      if (!(Node.isIdentifier(nameNode) || Node.isStringLiteral(nameNode))) return undefined;
      const init = p.getInitializer();
      const v = init && evaluateLiteral(init);
      if (!v) return undefined;
      out[Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText()] = v.value;
    }
    return { value: out };
  }
  return undefined;
}

function propertyName(node: Node): string | undefined {
  if (Node.isIdentifier(node)) return node.getText();
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getText();
  return undefined;
}

function commentsOf(prop: Node, next: Node | undefined, closeBrace: number): { leading: string[]; trailing: string[] } {
  const text = prop.getSourceFile().getFullText();
  const leading = prop.getLeadingCommentRanges().map((r) => text.slice(r.getPos(), r.getEnd()));
  const trailing: string[] = [];
  const stop = next ? next.getStart() : closeBrace;
  const after = text.slice(prop.getEnd(), stop);
  const lineEnd = after.search(/\r?\n/);
  const sameLine = lineEnd >= 0 ? after.slice(0, lineEnd) : after;
  const m = /\/\/.*$|\/\*.*?\*\//.exec(sameLine);
  if (m) trailing.push(m[0].trimEnd());
  // Comments on the same line as the previous property belong to it, not to this one.
  const own = leading.filter((c) => !trailingOfPrevious(prop, c));
  return { leading: own, trailing };
}

function trailingOfPrevious(prop: Node, comment: string): boolean {
  const prev = prop.getPreviousSibling();
  if (!prev) return false;
  const text = prop.getSourceFile().getFullText();
  const between = text.slice(prev.getEnd(), prop.getStart());
  const idx = between.indexOf(comment);
  return idx >= 0 && !between.slice(0, idx).includes("\n");
}

/** Every lens field of the body into `out`; fields it cannot convert are kept verbatim, with a problem. */
function convertFields(lens: BodyLens, fields: Map<string, V1Field>, get: (name: string) => Value | undefined, blocked: Set<string>, quote: string, problems: BodyProblem[], verbatim: Verbatim[]): Map<string, OutNode> {
  const out = new Map<string, OutNode>();
  const consumed = new Set<string>();
  const kept = new Set<string>();
  const keepVerbatim = (names: string[]) => {
    for (const n of names) {
      const f = fields.get(n);
      if (f && !kept.has(n)) {
        kept.add(n);
        verbatim.push({ comments: f.comments, text: f.text });
      }
    }
  };
  for (const lensField of lens.fields) {
    if (lensField.only === "toV1") continue;
    const names = lensField.v1.map((p) => p.split(".")[0]!);
    const values = names.map(get);
    if (values.every((v) => v === undefined)) continue;
    names.forEach((n) => consumed.add(n));
    const present = names.filter((n) => fields.has(n));
    const comments = present.flatMap((n) => fields.get(n)!.comments);
    const trailing = present.flatMap((n) => fields.get(n)!.trailing);
    const computed = present.find((n) => blocked.has(n));
    if (computed) {
      const source = fields.get(computed)!.computed?.written ?? fields.get(computed)!.value.source;
      problems.push({ fields: present, reason: `${source} is computed, and the v2 body would compute it more than once`, advice: `store ${source} in a const first, then convert the body` });
      keepVerbatim(present);
      continue;
    }
    if (!lensField.converter) {
      setOut(out, lensField.v2[0]!.split("."), values[0]!.source, comments, trailing);
      continue;
    }
    const outcome = convertField(lensField, names, present, values, (v) => renderValue(v, quote));
    if (!("outputs" in outcome)) {
      problems.push({ fields: present, reason: outcome.reason, advice: outcome.advice });
      keepVerbatim(present);
      continue;
    }
    const review = reviewOf(lensField, values);
    // The site is then marked and left whole on v1 (a marked site is never half-rewritten), so the
    // advice says what to write, not what to check.
    const decide = `decide what v2 should get, then write the v2 ${lensField.v2.join(", ")} yourself (the call stays on v1 until then)`;
    if (review) problems.push({ fields: present, reason: review, advice: decide, review: true });
    // What the gateway would say in V2-Bridge-Warning (an input v2 refuses, left out) is said here.
    for (const w of outcome.warnings ?? []) problems.push({ fields: present, reason: w, advice: decide, review: true });
    lensField.v2.forEach((p, i) => {
      const src = outcome.outputs[i]?.replace(/\[([A-Za-z_$][\w$.]*)\]\[0\]/g, "$1");
      if (src !== undefined) setOut(out, p.split("."), src, i === 0 ? comments : [], i === 0 ? trailing : []);
    });
  }
  const known = knownV1Fields(lens);
  for (const u of lens.unmapped ?? []) {
    const f = fields.get(u.v1);
    if (!f) continue;
    consumed.add(u.v1);
    if (kept.has(u.v1)) continue; // already left for review by its converter
    if (u.harmlessValue !== undefined && f.value.literal && JSON.stringify(f.value.value) === JSON.stringify(u.harmlessValue)) continue;
    problems.push({ fields: [u.v1], reason: `${u.v1}: ${u.reason}`, advice: u.advice });
    keepVerbatim([u.v1]);
  }
  for (const [name, f] of fields) {
    if (consumed.has(name) || known.has(name) || kept.has(name)) continue;
    problems.push({ fields: [name], reason: `${name} is not a v1 ${lens.v1Schema} field`, advice: `check it against the v2 ${lens.v2Schema} schema` });
    verbatim.push({ comments: f.comments, text: f.text });
  }
  return out;
}

/** v1 fields a converter of the lens reads null from (Converter.accepts). */
function nullableFields(lens: BodyLens): Set<string> {
  const out = new Set<string>();
  for (const f of lens.fields) {
    const accepts = f.converter && f.only !== "toV1" ? converterNamed(f.converter).accepts : undefined;
    accepts?.forEach((a, i) => a.nullable && f.v1[i] && out.add(f.v1[i]!.split(".")[0]!));
  }
  return out;
}

/** A field of a body literal as the lens reads it (undefined for a computed key). */
function fieldOf(p: Node, i: number, obj: ObjectLiteralExpression, comments: string[], trailing: string[]): V1Field | undefined {
  if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) return undefined;
  const nameNode = p.getNameNode();
  const name = Node.isComputedPropertyName(nameNode) ? undefined : propertyName(nameNode);
  if (name === undefined) return undefined;
  const init = Node.isPropertyAssignment(p) ? p.getInitializerOrThrow() : p.getNameNode();
  const lit = Node.isPropertyAssignment(p) ? evaluateLiteral(init) : undefined;
  const computed = !lit && !isPure(init.getText()) ? computedValue(init, name, i, obj) : undefined;
  const value: Value = lit ? { literal: true, value: lit.value, source: init.getText() } : { literal: false, source: init.getText(), input: sourceInput(init), nonNull: neverNull(init) };
  return { name, value, comments, trailing, text: p.getText(), ...(computed ? { computed } : {}) };
}

/** A spread choosing between two literals of plain fields (nothing computed in them), read as fields. */
function conditionalSpread(p: Node, comments: string[]): ConditionalSpread | undefined {
  const b = Node.isSpreadAssignment(p) ? spreadBranches(p.getExpression()) : undefined;
  if (!b) return undefined;
  const branches: Map<string, V1Field>[] = [];
  for (const o of b.objects) {
    const fields = new Map<string, V1Field>();
    for (const [i, q] of (o?.getProperties() ?? []).entries()) {
      const f = fieldOf(q, i, o!, [], []);
      if (!f || (f.computed && !f.computed.pure)) return undefined;
      fields.set(f.name, f);
    }
    branches.push(fields);
  }
  return { text: p.getText(), comments, condition: b.condition.getText(), form: b.form, branches: [branches[0]!, branches[1]!] };
}

/** Converts a v1 body object literal with the named lens. */
export function convertBody(obj: ObjectLiteralExpression, lensName: string, quote: string, spreadFields?: (spread: Node) => Map<string, V1Field> | undefined): BodyConversion {
  const lens: BodyLens = lensNamed(lensName);
  const problems: BodyProblem[] = [];
  const fields = new Map<string, V1Field>();
  const verbatim: Verbatim[] = [];
  const head: Verbatim[] = [];
  const conditionals: ConditionalSpread[] = [];
  // A spread whose fields cannot be read may set any field, so no v1 default is assumed for one left out.
  let openSpread = false;
  const props = obj.getProperties();
  props.forEach((p, i) => {
    const next = props[i + 1];
    const { leading, trailing } = commentsOf(p, next, obj.getEnd() - 1);
    if (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) {
      const field = fieldOf(p, i, obj, leading, trailing);
      if (!field) {
        problems.push({ fields: [p.getText()], reason: "computed property key in a v1 body", advice: `write the v2 field name (see the ${lens.v2Schema} schema)` });
        verbatim.push({ comments: leading, text: p.getText() });
        return;
      }
      fields.set(field.name, field);
      return;
    }
    // `...(gpu ? { gpuTypeIds: [gpu] } : {})`: branches of known fields, converted after the rest.
    const spread = Node.isSpreadAssignment(p) ? conditionalSpread(p, leading) : undefined;
    if (spread) {
      conditionals.push(spread);
      return;
    }
    // `{ ...input, cloudType }` of a value whose fields are declared (a typed parameter): its fields, read from it,
    // unless a field written before it would be overridden by it (the order then decides at run time).
    const declared = Node.isSpreadAssignment(p) ? spreadFields?.(p.getExpression()) : undefined;
    if (declared && ![...declared.keys()].some((k) => fields.has(k))) {
      for (const [k, f] of declared) fields.set(k, f);
      return;
    }
    const what = Node.isSpreadAssignment(p) ? "spread" : "method or accessor";
    if (Node.isSpreadAssignment(p)) openSpread = true;
    problems.push({ fields: [p.getText()], reason: `${what} in a v1 body: its fields cannot be checked`, advice: `make sure what it adds is v2-shaped (see the ${lens.v2Schema} schema)` });
    // A spread before every field stays first: later fields still override it.
    (fields.size === 0 && verbatim.length === head.length ? head : verbatim).push({ comments: leading, text: p.getText() });
  });

  let out: Map<string, OutNode>;
  const laid = conditionals.length ? convertConditionalSpreads(fields, conditionals, (fs) => {
    const got = { problems: [] as BodyProblem[], verbatim: [] as Verbatim[] };
    return { out: convertFieldMap(lens, new Map(fs), quote, got.problems, got.verbatim, openSpread), ...got };
  }, quote) : undefined;
  if (laid && "out" in laid) {
    out = laid.out;
    problems.push(...laid.problems);
    verbatim.push(...laid.verbatim, ...laid.spreads);
  } else {
    if (laid) problems.push(laid.problem);
    // Spreads left as written, after the fields (their keys are none of the fields': checked above).
    for (const c of conditionals) verbatim.push({ comments: c.comments, text: c.text });
    out = convertFieldMap(lens, fields, quote, problems, verbatim, openSpread);
  }
  // Values computed once before the statement: their consts read where the placeholders are.
  const hoists = [...fields.values()].flatMap((f) => (f.computed && f.value.source === f.computed.placeholder ? [f.computed] : []));
  const replace = writeBack(hoists);
  replaceSources(out, replace);
  for (const v of verbatim) v.text = replace(v.text);
  for (const p of problems) (p.reason = replace(p.reason)), (p.advice = replace(p.advice));
  const original = obj.getText();
  const multiline = original.includes("\n");
  const fullText = obj.getSourceFile().getFullText();
  const closeIndent = lineIndent(fullText, obj.getEnd() - 1);
  const firstProp = props[0];
  const step = firstProp ? lineIndent(fullText, firstProp.getStart()).slice(closeIndent.length) || "  " : "  ";
  const rendered = render(out, multiline, closeIndent, step, quote, verbatim.filter((v) => !head.includes(v)), head);
  return { text: rendered === original ? null : rendered, problems, ...(hoists.length && rendered !== original ? { before: hoistEdits(hoists) } : {}) };
}

/**
 * The v2 body's fields from v1 fields (a literal's, or a declared shape's read one by one): v1
 * defaults, each lens field's copy or converter, v2 defaults. Fields it cannot convert go to
 * `verbatim`, with a problem.
 */
export function convertFieldMap(lens: BodyLens, fields: Map<string, V1Field>, quote: string, problems: BodyProblem[], verbatim: Verbatim[], openSpread = false): Map<string, OutNode> {
  // The v1 defaults that apply, decided on the values known statically (no default pod volume on
  // a literal CPU pod); a field whose value is not known is present but unknown, so no exception
  // is assumed for it. Beside a spread that cannot be read, none is assumed (the spread may set it).
  const staticValue = (v: Value) => (v.literal ? v.value : v.input.known && !v.input.optional ? v.input.known.value : NOT_A_LITERAL);
  const seen = Object.fromEntries([...fields].map(([name, f]) => [name, staticValue(f.value)]));
  const defaults = openSpread ? {} : applicableV1Defaults(lens, seen);
  const nullable = nullableFields(lens);
  const get = (name: string): Value | undefined => {
    const f = fields.get(name);
    if (f && !f.value.literal && f.value.input.optional && name in defaults) {
      // Undefined at run time, the field is left out of the JSON and v1 applied its default; not to
      // a null, which a converter reading null (volumeInGb) tells apart.
      const d = renderValue(defaults[name], quote);
      const src = f.value.source;
      const source = f.value.nonNull || !nullable.has(name) ? `${operand(src)} ?? ${d}` : `${operand(src)} === undefined ? ${d} : ${src}`;
      const oneOf = f.value.input.oneOf && [...new Set([...f.value.input.oneOf, defaults[name]])];
      const known = oneOf?.length === 1 ? { known: { value: oneOf[0] } } : {};
      return { literal: false, source, input: { source, optional: !f.value.nonNull, ...known, ...(oneOf ? { oneOf } : {}) }, nonNull: f.value.nonNull };
    }
    if (f) return f.value;
    if (name in defaults) return { literal: true, value: defaults[name], source: renderValue(defaults[name], quote) };
    return undefined;
  };

  // A computed value (a call) that the written body would compute more than once is left as
  // written, with a mark: converting fields again without the ones it feeds.
  const before = { problems: problems.length, verbatim: verbatim.length };
  let blocked = new Set<string>();
  let out = new Map<string, OutNode>();
  for (let pass = 0; ; pass++) {
    problems.length = before.problems;
    verbatim.length = before.verbatim;
    out = convertFields(lens, fields, get, blocked, quote, problems, verbatim);
    const twice = computedMoreThanOnce(fields, [...outSources(out), ...verbatim.map((v) => v.text)].join("\n")).filter((n) => !blocked.has(n) && !fields.get(n)!.computed?.pure);
    if (!twice.length || pass > fields.size) break;
    if (hoistComputed(fields, twice)) continue;
    blocked = new Set([...blocked, ...twice]);
  }
  for (const [path, value] of Object.entries(lens.v2Defaults ?? {})) {
    const segs = path.split(".");
    if (!out.has(segs[0]!)) setOut(out, segs, renderValue(value, quote), [], []);
  }

  return out;
}
