// Field values of a v1 body literal that compute something (`serverless ? 0 : 20`, `size()`).
// The converters' source forms may write an input more than once (`v > 0 ? { size: v } : …`):
// - a pure value (names, literals, property reads, operators, conditionals; no call, assignment,
//   await, `++`) is written as many times as the form needs: reading it again changes nothing;
// - another is computed once in a `const` declared before the statement, where that keeps the
//   order of evaluation (nothing evaluated before it in the statement has an effect, and the
//   statement always evaluates it): the conversion then runs with a placeholder name for it;
// - otherwise the field is left as written and the site marked (body.ts).
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { operand } from "../../mappings/data/source-forms.ts";
import type { Edit } from "../types.ts";
import { textEdit } from "./text-edit.ts";
import type { V1Field } from "./body.ts";

export interface Computed {
  placeholder: string;
  /** The expression as written. */
  written: string;
  node: Node;
  pure: boolean;
  /** The name a `const` before the statement would take, when declaring it there keeps the order of evaluation. */
  hoist?: { name: string; statement: Node };
}

const PLACEHOLDER = "__v2BridgeComputed";

/** A field value that computes something, taking part in the conversion as a placeholder. */
export function computedValue(init: Node, field: string, index: number, obj: Node): Computed {
  const pure = isPureExpression(init);
  const statement = pure ? undefined : hoistStatement(init);
  const name = statement && freeName(field, obj, statement);
  return { placeholder: `${PLACEHOLDER}${index}`, written: init.getText(), node: init, pure, ...(statement && name ? { hoist: { name, statement } } : {}) };
}

/** Reading the expression computes nothing: evaluating it twice gives the same value and no effect. */
export function isPureExpression(input: Node): boolean {
  const n = input;
  if (Node.isIdentifier(n) || Node.isThisExpression(n) || Node.isStringLiteral(n) || Node.isNumericLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) || Node.isTrueLiteral(n) || Node.isFalseLiteral(n) || Node.isNullLiteral(n) || Node.isBigIntLiteral(n)) return true;
  if (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n) || Node.isSatisfiesExpression(n) || Node.isTypeAssertion(n) || Node.isTypeOfExpression(n)) return isPureExpression(n.getExpression());
  if (Node.isPropertyAccessExpression(n)) return isPureExpression(n.getExpression());
  if (Node.isElementAccessExpression(n)) return isPureExpression(n.getExpression()) && !!n.getArgumentExpression() && isPureExpression(n.getArgumentExpression()!);
  if (Node.isConditionalExpression(n)) return isPureExpression(n.getCondition()) && isPureExpression(n.getWhenTrue()) && isPureExpression(n.getWhenFalse());
  if (Node.isBinaryExpression(n)) {
    const op = n.getOperatorToken().getKind();
    return !(op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment) && op !== SyntaxKind.CommaToken && isPureExpression(n.getLeft()) && isPureExpression(n.getRight());
  }
  if (Node.isPrefixUnaryExpression(n)) return ![SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(n.getOperatorToken()) && isPureExpression(n.getOperand());
  if (Node.isTemplateExpression(n)) return n.getTemplateSpans().every((s) => isPureExpression(s.getExpression()));
  if (Node.isArrayLiteralExpression(n)) return n.getElements().every((e) => !Node.isSpreadElement(e) && isPureExpression(e));
  if (Node.isObjectLiteralExpression(n)) return n.getProperties().every((p) => (Node.isPropertyAssignment(p) && !Node.isComputedPropertyName(p.getNameNode()) && isPureExpression(p.getInitializer()!)) || Node.isShorthandPropertyAssignment(p));
  return false;
}

const EFFECTS = new Set([SyntaxKind.CallExpression, SyntaxKind.NewExpression, SyntaxKind.AwaitExpression, SyntaxKind.YieldExpression, SyntaxKind.DeleteExpression, SyntaxKind.TaggedTemplateExpression, SyntaxKind.PostfixUnaryExpression]);

function hasEffect(n: Node): boolean {
  if (EFFECTS.has(n.getKind())) return true;
  if (Node.isBinaryExpression(n)) {
    const op = n.getOperatorToken().getKind();
    return op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment;
  }
  return Node.isPrefixUnaryExpression(n) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(n.getOperatorToken());
}

/**
 * The statement before which the value can be computed instead: one that always evaluates it
 * once (not in a branch, a loop, a callback), with nothing before it in the statement that has
 * an effect other than earlier values of the same body (hoisted with it, in order).
 */
function hoistStatement(value: Node): Node | undefined {
  let statement: Node | undefined;
  for (let at: Node = value, p = at.getParent(); p; at = p, p = p.getParent()) {
    if (isFunctionLike(p)) return undefined;
    if (Node.isConditionalExpression(p) && at !== p.getCondition()) return undefined;
    if (Node.isBinaryExpression(p) && at === p.getRight() && [SyntaxKind.AmpersandAmpersandToken, SyntaxKind.BarBarToken, SyntaxKind.QuestionQuestionToken].includes(p.getOperatorToken().getKind())) return undefined;
    // `client?.post(url, { … })`: the arguments are not evaluated when the chain stops.
    if (Node.isCallExpression(p) && at !== p.getExpression() && p.getExpression().getText().includes("?.")) return undefined;
    if (Node.isBlock(p) || Node.isSourceFile(p) || Node.isCaseClause(p) || Node.isDefaultClause(p)) {
      statement = at;
      break;
    }
  }
  if (!statement || !(Node.isExpressionStatement(statement) || Node.isVariableStatement(statement) || Node.isReturnStatement(statement))) return undefined;
  const obj = value.getParent()?.getParent();
  const earlierFields = obj && Node.isObjectLiteralExpression(obj) ? obj.getProperties().filter((p) => p.getEnd() <= value.getStart()) : [];
  const before = statement.getDescendants().filter((d) => d.getStart() < value.getStart() && !value.getFirstAncestor((x) => x === d) && d !== value);
  for (const d of before) {
    if (!hasEffect(d) || d.getFirstAncestor((x) => isFunctionLike(x) && x.getStart() >= statement!.getStart())) continue;
    if (earlierFields.some((f) => f.getFirstDescendant((x) => x === d))) continue;
    return undefined;
  }
  return statement;
}

/**
 * A name for the const that nothing it would shadow or clash with uses: no identifier of the
 * function it goes in (outside the body being replaced), no name the module declares.
 */
function freeName(field: string, obj: Node, statement: Node): string | undefined {
  if (!/^[A-Za-z_$][\w$]*$/.test(field)) return undefined;
  const taken = new Set(enclosingFunction(statement).getDescendantsOfKind(SyntaxKind.Identifier).filter((i) => !obj.getFirstDescendant((x) => x === i)).map((i) => i.getText()));
  for (const st of statement.getSourceFile().getStatements()) {
    for (const d of Node.isVariableStatement(st) ? st.getDeclarations() : [st]) {
      const name = (d as any).getNameNode?.() as Node | undefined;
      for (const id of name ? [name, ...name.getDescendantsOfKind(SyntaxKind.Identifier)] : []) if (Node.isIdentifier(id)) taken.add(id.getText());
    }
    if (Node.isImportDeclaration(st)) for (const id of st.getDescendantsOfKind(SyntaxKind.Identifier)) taken.add(id.getText());
  }
  for (const name of [field, `${field}Value`, `${field}2`, `${field}3`]) if (!taken.has(name)) return name;
  return undefined;
}

/** Replaces each hoisted value's placeholder with the name of its const. */
export function writeBack(hoisted: Computed[]): (s: string) => string {
  return (s) => hoisted.reduce((out, c) => out.split(c.placeholder).join(c.hoist!.name), s);
}

/** `const volumeInGb = size();` before the statement, in the statement's indentation, in the order they were written. */
export function hoistEdits(hoists: Computed[]): Edit[] {
  const byStatement = new Map<Node, Computed[]>();
  for (const c of [...hoists].sort((x, y) => x.node.getStart() - y.node.getStart())) byStatement.set(c.hoist!.statement, [...(byStatement.get(c.hoist!.statement) ?? []), c]);
  return [...byStatement].map(([st, cs]) => {
    const text = st.getSourceFile().getFullText();
    const lineStart = text.lastIndexOf("\n", st.getStart() - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const semi = st.getText().trimEnd().endsWith(";") ? ";" : "";
    return textEdit(st, st.getStart(), st.getStart(), cs.map((c) => `const ${c.hoist!.name} = ${c.written}${semi}\n${indent}`).join(""));
  });
}

/**
 * Computes each value the body would compute twice in a const before the statement, with every
 * value that computes something before it (their order kept): false where one cannot be.
 */
export function hoistComputed(fields: Map<string, V1Field>, twice: string[]): boolean {
  const last = Math.max(...twice.map((n) => fields.get(n)!.computed?.node.getStart() ?? Infinity));
  const hoist = [...fields.values()].filter((f) => f.computed && !f.computed.pure && f.computed.node.getStart() <= last);
  if (!Number.isFinite(last) || !hoist.every((f) => f.computed!.hoist)) return false;
  for (const f of hoist) {
    const c = f.computed!;
    if (f.value.literal || f.value.source === c.placeholder) continue;
    f.value = { ...f.value, source: c.placeholder, input: { ...f.value.input, source: c.placeholder } };
    // Kept as written (a field v2 does not take, next to converted ones), it reads the const too.
    const prop = c.node.getParent()!;
    f.text = f.text.slice(0, c.node.getStart() - prop.getStart()) + c.placeholder + f.text.slice(c.node.getEnd() - prop.getStart());
  }
  return true;
}
