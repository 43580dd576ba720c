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
import { spreadBranches } from "./conditional-spreads.ts";

interface Built {
  /** The expressions the field is given. */
  values: Node[];
  /** Set on every path to the send (in the literal, or added in the declaration's own block). */
  always: boolean;
  /** Copied only from this variable's spread, which holds it unchanged at the send: read from there. */
  from?: Node;
}

/** What a variable holds where it is used: its fields, the keys deleted, the fields read on their own (null: any). */
interface BuiltFields {
  fields: Map<string, Built>;
  deleted: Set<string>;
  readKeys: Set<string> | null;
  /** Changes after the copy `use` (none reaches the copy): the variable holds other values after it. */
  later: Node[];
  /** The literal the variable is declared with. */
  literal: Node;
}

const MAX_SPREAD_DEPTH = 4;

/** The fields of the body `use` (the variable at the send, or spread into the body there) holds, or undefined when they are not all known. */
export function builtShape(a: Analysis, use: Node): DeclaredShape | undefined {
  const built = builtFields(a, use, 0);
  if (!built) return undefined;
  const { fields, deleted, readKeys } = built;
  // TypeScript: the send reads each field off the variable, so its type must have them (an index signature, or each member).
  if (isTypeScriptFile(use.getSourceFile().getFilePath()) && ![...fields].every(([k, f]) => typeHas(f.from ?? use, k))) return undefined;
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
    const isOptional = !f.always || deleted.has(name) || facts.some((x) => x?.optional);
    // A list literal with entries wherever it is given, which nothing changes on its own.
    const lengths = f.values.map((v) => {
      const u = unwrapExpression(v);
      return Node.isArrayLiteralExpression(u) && !u.getElements().some((e) => Node.isSpreadElement(e)) ? u.getElements().length : 0;
    });
    const entries = readKeys && !readKeys.has(name) && lengths.every((n) => n > 0) ? (lengths.every((n) => n === 1) ? "one" : "some") : undefined;
    out.push({
      name,
      optional: isOptional,
      nullable: f.values.some((v, i) => (inputs[i] ? inputs[i]!.value === null : !neverNull(v))),
      ...(oneOf ? { oneOf } : {}),
      // Given once, on every path: the value the send reads is the literal's.
      ...(f.values.length === 1 && inputs[0] && !isOptional ? { literal: inputs[0] } : {}),
      ...(f.from ? { readFrom: f.from.getText() } : {}),
      ...(entries ? { entries } : {}),
    });
  }
  return out.length ? { fields: out, declaredAt: built.literal } : undefined;
}

/**
 * The fields a variable of this function holds at `use`: its literal's (a spread in it of a choice
 * between two literals adds their fields on some paths; a spread of another such variable, its
 * fields there) and the ones added before. Where `use` is itself a spread, the object is copied
 * there: a change after it, outside a loop around it, does not reach the copy.
 */
function builtFields(a: Analysis, use: Node, depth: number): BuiltFields | undefined {
  if (!Node.isIdentifier(use)) return undefined;
  const b = bind(a, use);
  if (b?.kind !== "var" || b.path.length || !b.init || !Node.isVariableDeclaration(b.decl)) return undefined;
  const literal = unwrapExpression(b.init);
  const fn = enclosingFunction(use);
  if (!Node.isObjectLiteralExpression(literal) || enclosingFunction(b.decl) !== fn) return undefined;
  const statement = b.decl.getParent()?.getParent();
  if (!statement || !Node.isVariableStatement(statement) || statement.isExported()) return undefined;
  const fields = new Map<string, Built>();
  const add = (name: string, value: Node, always: boolean, from?: Node) => {
    const f: Built = fields.get(name) ?? { values: [], always: false, ...(from ? { from } : {}) };
    if (fields.has(name) || !from) delete f.from;
    f.values.push(value);
    f.always ||= always;
    fields.set(name, f);
  };
  const deleted = new Set<string>();
  /** Fields read on their own (`body.gpuTypeIds.push(…)` may change a list written in the literal); null: any. */
  let readKeys: Set<string> | null = new Set<string>();
  const spread = (expression: Node): boolean => {
    // `...(region ? { dataCenterIds: [region] } : {})`: the branches' fields, each on some paths.
    const branches = spreadBranches(expression);
    if (branches) return branches.objects.every((o) => !o || literalFields(o, (name, value) => add(name, value, false)));
    const held = unwrapExpression(expression);
    const inner = depth < MAX_SPREAD_DEPTH ? builtFields(a, held, depth + 1) : undefined;
    if (!inner) return false;
    // Its fields are read from it at the send where it is not changed between the copy and the send.
    const same = inner.later.every((ref) => ref.getStart() > use.getStart() && !loopsAround(use, fn).some((loop) => loop.containsRange(ref.getPos(), ref.getEnd())));
    for (const [name, f] of inner.fields) for (const v of f.values) add(name, v, f.always && !inner.deleted.has(name), same && !f.from ? held : undefined);
    if (inner.readKeys === null) readKeys = null;
    else for (const k of inner.readKeys) readKeys?.add(k);
    return true;
  };
  if (!literalFields(literal, (name, value) => add(name, value, true), undefined, spread)) return undefined;
  const block = statement.getParent();
  const copiedAt = spreadAt(use);
  const later: Node[] = [];
  for (const name of referencesOf(fn, b.decl.getNameNode())) {
    if (name === use) continue;
    // `(request as Record<string, unknown>).k`: the cast names the same object.
    const ref = castOf(name);
    if (readOnly(ref)) {
      const p = ref.getParent()!;
      if (Node.isPropertyAccessExpression(p)) readKeys?.add(p.getName());
      else if (Node.isElementAccessExpression(p)) readKeys = null;
      continue;
    }
    // Changes are followed only in this function, before the send (or the copy, where no loop around it runs it again).
    if (enclosingFunction(ref) !== fn) return undefined;
    if (ref.getStart() > use.getStart()) {
      if (copiedAt && !loopsAround(use, fn).some((loop) => loop.containsRange(ref.getPos(), ref.getEnd()))) {
        later.push(ref);
        continue;
      }
      return undefined;
    }
    const change = changeAt(ref);
    if (!change) return undefined;
    // In the declaration's own block, before the send: it ran whenever the send runs.
    const always = change.statement.getParent() === block;
    if (change.kind === "delete") {
      deleted.add(change.name);
      delete fields.get(change.name)?.from;
    } else for (const [name, value] of change.fields) add(name, value, always);
  }
  return { fields, deleted, readKeys, later, literal };
}

/** The outermost cast or parenthesis around a use of the variable (`(x as T)`), else the use. */
function castOf(ref: Node): Node {
  let n = ref;
  for (let p = n.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p) || Node.isTypeAssertion(p)); p = p.getParent()) n = p;
  return n;
}

/** The spread that copies the variable at `use` into an object literal (`{ ...base, gpuTypeIds }`). */
function spreadAt(use: Node): Node | undefined {
  const p = use.getParent();
  return p && Node.isSpreadAssignment(p) ? p : undefined;
}

/** The loops around `node` inside `fn`: a change anywhere in one may run before the node on a later turn. */
function loopsAround(node: Node, fn: Node | undefined): Node[] {
  const loops: Node[] = [];
  for (let n = node.getParent(); n && n !== fn; n = n.getParent()) {
    if (Node.isForStatement(n) || Node.isForOfStatement(n) || Node.isForInStatement(n) || Node.isWhileStatement(n) || Node.isDoStatement(n)) loops.push(n);
  }
  return loops;
}

/**
 * The literal's own fields (name → value); false where one is not known by name (a computed key, a
 * method, a spread `spread` does not read).
 */
function literalFields(literal: Node, each: (name: string, value: Node) => void, self?: Node, spread?: (expression: Node) => boolean): boolean {
  if (!Node.isObjectLiteralExpression(literal)) return false;
  for (const [i, p] of literal.getProperties().entries()) {
    if (Node.isShorthandPropertyAssignment(p)) each(p.getName(), p.getNameNode());
    else if (Node.isPropertyAssignment(p)) {
      const name = staticName(p.getNameNode());
      if (name === undefined) return false;
      each(name, p.getInitializerOrThrow());
    } else if (i === 0 && self && Node.isSpreadAssignment(p) && sameVariable(p.getExpression(), self)) continue;
    else if (!(spread && Node.isSpreadAssignment(p) && spread(p.getExpression()))) return false;
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
  // A spread copies the object (`{ ...body, gpuTypeIds }`; in `body = { ...body, name }` changeAt reads the assignment).
  if (Node.isSpreadAssignment(p)) return true;
  if (Node.isIfStatement(p) && p.getExpression() === ref) return true;
  if (Node.isConditionalExpression(p) && p.getCondition() === ref) return true;
  if (Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken) return true;
  if (Node.isBinaryExpression(p) && p.getLeft() === ref && ["&&", "||"].includes(p.getOperatorToken().getText())) return true;
  return Node.isCallExpression(p) && /^Object\.(keys|values|entries)$/.test(p.getExpression().getText()) && p.getArguments().length === 1;
}
