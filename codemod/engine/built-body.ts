// A request body built just above its send: an object literal in a variable of the sending
// function, then added to before the send (`if (t !== undefined) body.idleTimeout = t`,
// `Object.assign(body, { name })`, `body = { ...body, name }`). Its fields are known: the literal's
// keys and the keys added, an added one only on some paths (a branch, a loop) being optional. The
// v2 body is then built at the send from the variable as it stands there (`workers: { min:
// body.workersMin, idleTimeout: body.idleTimeout }`), so every condition and later value is kept as
// the code decided it. Where the variable can change in a way not followed (a computed key, a
// delete of an unknown key, handed to a function, changed after the send or in another function)
// there is no shape and the call keeps its mark.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { DeclaredField, DeclaredShape } from "./declared-shapes.ts";
import { bind } from "./values.ts";
import { enclosingFunction } from "./scope.ts";
import { isTypeScriptFile, referencesOf, skipParens } from "./nodes.ts";
import { unwrapExpression } from "./urls.ts";
import { evaluateLiteral } from "./body.ts";
import { neverNull, sourceInput } from "./source-facts.ts";

interface Built {
  /** The expressions the field is given. */
  values: Node[];
  /** Set on every path to the send (in the literal, or added in the declaration's own block). */
  always: boolean;
}

/** The fields of the body `use` (the variable at the send) holds there, or undefined when they are not all known. */
export function builtShape(a: Analysis, use: Node): DeclaredShape | undefined {
  if (!Node.isIdentifier(use)) return undefined;
  const b = bind(a, use);
  if (b?.kind !== "var" || b.path.length || !b.init || !Node.isVariableDeclaration(b.decl)) return undefined;
  const literal = unwrapExpression(b.init);
  const fn = enclosingFunction(use);
  if (!Node.isObjectLiteralExpression(literal) || enclosingFunction(b.decl) !== fn) return undefined;
  const statement = b.decl.getParent()?.getParent();
  if (!statement || !Node.isVariableStatement(statement) || statement.isExported()) return undefined;
  const fields = new Map<string, Built>();
  const add = (name: string, value: Node, always: boolean) => {
    const f = fields.get(name) ?? { values: [], always: false };
    f.values.push(value);
    f.always ||= always;
    fields.set(name, f);
  };
  if (!literalFields(literal, (name, value) => add(name, value, true))) return undefined;
  const block = statement.getParent();
  const optional = new Set<string>();
  /** Fields read on their own (`body.gpuTypeIds.push(…)` may change a list written in the literal); null: any. */
  let readKeys: Set<string> | null = new Set<string>();
  for (const ref of referencesOf(fn, b.decl.getNameNode())) {
    if (ref === use) continue;
    if (readOnly(ref)) {
      const p = ref.getParent()!;
      if (Node.isPropertyAccessExpression(p)) readKeys?.add(p.getName());
      else if (Node.isElementAccessExpression(p)) readKeys = null;
      continue;
    }
    // Changes are followed only in this function, before the send.
    if (enclosingFunction(ref) !== fn || ref.getStart() > use.getStart()) return undefined;
    const change = changeAt(ref);
    if (!change) return undefined;
    // In the declaration's own block, before the send: it ran whenever the send runs.
    const always = change.statement.getParent() === block;
    if (change.kind === "delete") optional.add(change.name);
    else for (const [name, value] of change.fields) add(name, value, always);
  }
  // TypeScript: the send reads each field off the variable, so its type must have them (an index signature, or each member).
  if (isTypeScriptFile(use.getSourceFile().getFilePath()) && ![...fields.keys()].every((k) => typeHas(use, k))) return undefined;
  const out: DeclaredField[] = [];
  for (const [name, f] of fields) {
    // A literal's value is known; a list or object only where nothing reads it on its own to change it.
    const inputs = f.values.map((v) => {
      const lit = evaluateLiteral(v);
      return lit && (primitive(lit.value) || (readKeys && !readKeys.has(name))) ? lit : undefined;
    });
    const facts = f.values.map((v, i) => (inputs[i] ? undefined : sourceInput(v)));
    const lists = facts.map((x, i) => (x ? x.oneOf : [inputs[i]!.value]));
    const oneOf = lists.every((l) => l) && lists.flat().every(primitive) ? [...new Set(lists.flat())] : undefined;
    const isOptional = !f.always || optional.has(name) || facts.some((x) => x?.optional);
    out.push({
      name,
      optional: isOptional,
      nullable: f.values.some((v, i) => (inputs[i] ? inputs[i]!.value === null : !neverNull(v))),
      ...(oneOf ? { oneOf } : {}),
      // Given once, on every path: the value the send reads is the literal's.
      ...(f.values.length === 1 && inputs[0] && !isOptional ? { literal: inputs[0] } : {}),
    });
  }
  return out.length ? { fields: out, declaredAt: literal } : undefined;
}

/** The literal's own fields (name → value); false where one is not known by name (a spread, a computed key, a method). */
function literalFields(literal: Node, each: (name: string, value: Node) => void, self?: Node): boolean {
  if (!Node.isObjectLiteralExpression(literal)) return false;
  for (const [i, p] of literal.getProperties().entries()) {
    if (Node.isShorthandPropertyAssignment(p)) each(p.getName(), p.getNameNode());
    else if (Node.isPropertyAssignment(p)) {
      const name = staticName(p.getNameNode());
      if (name === undefined) return false;
      each(name, p.getInitializerOrThrow());
    } else if (i === 0 && self && Node.isSpreadAssignment(p) && sameVariable(p.getExpression(), self)) continue;
    else return false;
  }
  return true;
}

function typeHas(value: Node, key: string): boolean {
  try {
    const type = value.getType();
    return type.isAny() || !!type.getStringIndexType() || !!type.getProperty(key);
  } catch {
    return false;
  }
}

function primitive(v: unknown): boolean {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

function staticName(n: Node): string | undefined {
  if (Node.isIdentifier(n)) return n.getText();
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) || Node.isNumericLiteral(n)) return String(n.getLiteralValue());
  return undefined;
}

function sameVariable(x: Node, ref: Node): boolean {
  const u = skipParens(x);
  return Node.isIdentifier(u) && u.getText() === ref.getText() && u.getSymbol() === ref.getSymbol();
}

type Change = { statement: Node } & ({ kind: "set"; fields: [string, Node][] } | { kind: "delete"; name: string });

/** `body.k = v;`, `body["k"] = v;`, `Object.assign(body, { … });`, `body = { ...body, … };`, `delete body.k;` as statements. */
function changeAt(ref: Node): Change | undefined {
  const p = ref.getParent();
  if (!p) return undefined;
  // A key of the body.
  if ((Node.isPropertyAccessExpression(p) || Node.isElementAccessExpression(p)) && p.getExpression() === ref) {
    const arg = Node.isElementAccessExpression(p) ? unwrapExpression(p.getArgumentExpressionOrThrow()) : undefined;
    const name = Node.isPropertyAccessExpression(p) ? p.getName() : arg && !Node.isIdentifier(arg) ? staticName(arg) : undefined;
    const up = p.getParent();
    if (name === undefined || !up) return undefined;
    if (Node.isDeleteExpression(up) && Node.isExpressionStatement(up.getParent())) return { statement: up.getParent()!, kind: "delete", name };
    if (Node.isBinaryExpression(up) && up.getLeft() === p && up.getOperatorToken().getKind() === SyntaxKind.EqualsToken && Node.isExpressionStatement(up.getParent())) {
      return { statement: up.getParent()!, kind: "set", fields: [[name, up.getRight()]] };
    }
    return undefined;
  }
  const fields: [string, Node][] = [];
  // `Object.assign(body, { name }, { env })`
  if (Node.isCallExpression(p) && p.getExpression().getText() === "Object.assign" && p.getArguments()[0] === ref && Node.isExpressionStatement(p.getParent())) {
    const ok = p.getArguments().slice(1).every((arg) => literalFields(unwrapExpression(arg), (n, v) => fields.push([n, v])));
    return ok ? { statement: p.getParent()!, kind: "set", fields } : undefined;
  }
  // `body = { ...body, name }`: the body so far, and more.
  if (Node.isBinaryExpression(p) && p.getLeft() === ref && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && Node.isExpressionStatement(p.getParent())) {
    const next = unwrapExpression(p.getRight());
    const first = Node.isObjectLiteralExpression(next) ? next.getProperties()[0] : undefined;
    if (!first || !Node.isSpreadAssignment(first) || !sameVariable(first.getExpression(), ref)) return undefined;
    return literalFields(next, (n, v) => fields.push([n, v]), ref) ? { statement: p.getParent()!, kind: "set", fields } : undefined;
  }
  return undefined;
}

const ASSIGNMENTS = new Set(["=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??="]);

/** A use that cannot change the body: a field read, a truthiness test, `Object.keys(body)`. */
function readOnly(ref: Node): boolean {
  const p = ref.getParent();
  if (!p) return false;
  if ((Node.isPropertyAccessExpression(p) || Node.isElementAccessExpression(p)) && p.getExpression() === ref) {
    const up = p.getParent();
    if (up && Node.isBinaryExpression(up) && up.getLeft() === p && ASSIGNMENTS.has(up.getOperatorToken().getText())) return false;
    const steps = [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken];
    if (up && (Node.isDeleteExpression(up) || Node.isPostfixUnaryExpression(up) || (Node.isPrefixUnaryExpression(up) && steps.includes(up.getOperatorToken())))) return false;
    return true;
  }
  // `body = { ...body, name }`: the spread is the reassignment's own (changeAt reads it).
  if (Node.isSpreadAssignment(p)) {
    const obj = p.getParent();
    const assign = obj && skipParens(obj).getParent();
    return !!assign && Node.isObjectLiteralExpression(obj) && obj.getProperties()[0] === p && Node.isBinaryExpression(assign) && sameVariable(assign.getLeft(), ref);
  }
  if (Node.isIfStatement(p) && p.getExpression() === ref) return true;
  if (Node.isConditionalExpression(p) && p.getCondition() === ref) return true;
  if (Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken) return true;
  if (Node.isBinaryExpression(p) && p.getLeft() === ref && ["&&", "||"].includes(p.getOperatorToken().getText())) return true;
  return Node.isCallExpression(p) && /^Object\.(keys|values|entries)$/.test(p.getExpression().getText()) && p.getArguments().length === 1;
}
