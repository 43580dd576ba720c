// Tests on a string whose answer is known once the string is (`base.endsWith("/")`,
// `base.at(-1) === "/"`, `/\/$/.test(base)`, `base === ""`): a conditional or an `if` that
// reassigns the string takes a known branch for each string the subject can hold, with the subject
// read as that string inside the branch (`base.endsWith("/") ? base.slice(0, -1) : base`). A
// candidate the test cannot decide (an environment variable, a caller's value) takes both branches.
// A v1 base literal must take the same branch once it is flipped to v2; otherwise knowledge stops.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { unwrapExpression, v2BaseFor } from "../urls.ts";
import { V1_HOST } from "../../../mappings/bases.ts";
import { enclosingFunction, writesOf } from "../scope.ts";
import { dynamic, optionsOf, union, type Frame, type Value } from "./value.ts";

type Evaluate = (node: Node, frame: Frame | undefined) => Value;
/** Evaluates `node` with every occurrence of `subject`'s text inside it read as `as`. */
type EvaluateNarrowed = (node: Node, frame: Frame | undefined, subject: string, as: Value) => Value;

export interface StringTest {
  /** The text of the expression tested (`base`, `this.base`), read as each candidate in the branches. */
  subject: string;
  subjectNode: Node;
  test: (s: string) => boolean;
}

const COMPARE = new Set([SyntaxKind.EqualsEqualsEqualsToken, SyntaxKind.EqualsEqualsToken, SyntaxKind.ExclamationEqualsEqualsToken, SyntaxKind.ExclamationEqualsToken]);

function isSubject(n: Node): boolean {
  return Node.isIdentifier(n) || (Node.isPropertyAccessExpression(n) && (Node.isIdentifier(n.getExpression()) || Node.isThisExpression(n.getExpression())));
}

function textOf(n: Node): string {
  return unwrapExpression(n).getText().replace(/\s/g, "");
}

function knownString(n: Node, frame: Frame | undefined, evaluate: Evaluate): string | undefined {
  const v = evaluate(unwrapExpression(n), frame);
  return v.kind === "string" ? v.text : undefined;
}

function numberOf(n: Node): number | undefined {
  const x = unwrapExpression(n);
  if (Node.isNumericLiteral(x)) return x.getLiteralValue();
  if (Node.isPrefixUnaryExpression(x) && x.getOperatorToken() === SyntaxKind.MinusToken && Node.isNumericLiteral(x.getOperand())) return -(x.getOperand() as any).getLiteralValue();
  return undefined;
}

/** `s.length - k` of the subject `s`: k. */
function fromEnd(n: Node, subject: string): number | undefined {
  const x = unwrapExpression(n);
  if (!Node.isBinaryExpression(x) || x.getOperatorToken().getKind() !== SyntaxKind.MinusToken) return undefined;
  const k = numberOf(x.getRight());
  return textOf(x.getLeft()) === `${subject}.length` && k !== undefined && k > 0 ? k : undefined;
}

/** One character (or the last few) of the subject: `s.at(-1)`, `s.charAt(s.length - 1)`, `s[s.length - 1]`, `s.slice(-1)`, `s[0]`. */
function piece(n: Node): { subject: Node; of: (s: string) => string } | undefined {
  const x = unwrapExpression(n);
  if (Node.isElementAccessExpression(x) && isSubject(unwrapExpression(x.getExpression()))) {
    const subject = unwrapExpression(x.getExpression());
    const arg = x.getArgumentExpression();
    const i = arg ? numberOf(arg) : undefined;
    const k = arg ? fromEnd(arg, textOf(subject)) : undefined;
    if (i !== undefined && i >= 0) return { subject, of: (s) => s[i] ?? "" };
    if (k !== undefined) return { subject, of: (s) => s[s.length - k] ?? "" };
    return undefined;
  }
  if (!Node.isCallExpression(x) || x.getArguments().length !== 1) return undefined;
  const callee = x.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !isSubject(unwrapExpression(callee.getExpression()))) return undefined;
  const subject = unwrapExpression(callee.getExpression());
  const arg = x.getArguments()[0]!;
  const i = numberOf(arg);
  const k = fromEnd(arg, textOf(subject));
  switch (callee.getName()) {
    case "at":
      return i !== undefined ? { subject, of: (s) => s.at(i) ?? "" } : undefined;
    case "charAt":
      return i !== undefined ? { subject, of: (s) => s.charAt(i) } : k !== undefined ? { subject, of: (s) => s.charAt(s.length - k) } : undefined;
    case "slice":
      return i !== undefined && i < 0 ? { subject, of: (s) => s.slice(i) } : undefined;
  }
  return undefined;
}

/** The test a condition makes on one string, or undefined when it is not such a test. */
export function stringTest(cond: Node, frame: Frame | undefined, evaluate: Evaluate, depth = 0): StringTest | undefined {
  const c = unwrapExpression(cond);
  if (depth > 4) return undefined;
  if (Node.isPrefixUnaryExpression(c) && c.getOperatorToken() === SyntaxKind.ExclamationToken) {
    const inner = stringTest(c.getOperand(), frame, evaluate, depth + 1);
    return inner && { ...inner, test: (s) => !inner.test(s) };
  }
  if (Node.isBinaryExpression(c)) {
    const op = c.getOperatorToken().getKind();
    if (op === SyntaxKind.AmpersandAmpersandToken || op === SyntaxKind.BarBarToken) {
      const l = stringTest(c.getLeft(), frame, evaluate, depth + 1);
      const r = stringTest(c.getRight(), frame, evaluate, depth + 1);
      if (!l || !r || l.subject !== r.subject) return undefined;
      return { ...l, test: op === SyntaxKind.AmpersandAmpersandToken ? (s) => l.test(s) && r.test(s) : (s) => l.test(s) || r.test(s) };
    }
    if (!COMPARE.has(op)) return undefined;
    const negate = op === SyntaxKind.ExclamationEqualsEqualsToken || op === SyntaxKind.ExclamationEqualsToken;
    for (const [side, other] of [[c.getLeft(), c.getRight()], [c.getRight(), c.getLeft()]] as const) {
      const want = knownString(other, frame, evaluate);
      if (want === undefined) continue;
      const s = unwrapExpression(side);
      const p = piece(s);
      if (p) return { subject: textOf(p.subject), subjectNode: p.subject, test: (x) => (p.of(x) === want) !== negate };
      if (isSubject(s) && !Node.isStringLiteral(s)) return { subject: textOf(s), subjectNode: s, test: (x) => (x === want) !== negate };
    }
    return undefined;
  }
  if (!Node.isCallExpression(c) || c.getArguments().length !== 1) return undefined;
  const callee = c.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const arg = c.getArguments()[0]!;
  const name = callee.getName();
  // `/\/$/.test(base)`
  if (name === "test") {
    const re = evaluate(unwrapExpression(callee.getExpression()), frame);
    const s = unwrapExpression(arg);
    if (re.kind !== "regex" || !isSubject(s)) return undefined;
    let pattern: RegExp;
    try {
      pattern = new RegExp(re.source, re.flags.replace(/[gy]/g, ""));
    } catch {
      return undefined;
    }
    return { subject: textOf(s), subjectNode: s, test: (x) => pattern.test(x) };
  }
  const s = unwrapExpression(callee.getExpression());
  if (!isSubject(s) || !["endsWith", "startsWith", "includes"].includes(name)) return undefined;
  const want = knownString(arg, frame, evaluate);
  if (want === undefined) return undefined;
  const test = name === "endsWith" ? (x: string) => x.endsWith(want) : name === "startsWith" ? (x: string) => x.startsWith(want) : (x: string) => x.includes(want);
  return { subject: textOf(s), subjectNode: s, test };
}

/**
 * The test's answer for one candidate: true/false, "both" when the candidate is not a known
 * string, or a reason when a v1 base literal would answer otherwise once flipped to v2.
 */
function decide(t: StringTest, o: Value): boolean | "both" | { stop: string } {
  if (o.kind !== "string") return "both";
  const answer = t.test(o.text);
  const literal = Node.isStringLiteral(o.node) || Node.isNoSubstitutionTemplateLiteral(o.node) ? o.node.getLiteralValue() : o.text;
  if (!literal.includes(V1_HOST)) return answer;
  let flipped: string | undefined = v2BaseFor(literal);
  for (const f of o.via ?? []) {
    try {
      flipped = f(flipped!);
    } catch {
      flipped = undefined;
      break;
    }
  }
  if (flipped === undefined || t.test(flipped) !== answer) return { stop: `a test of ${t.subject} answers otherwise once its v1 base ${JSON.stringify(literal)} is flipped to v2` };
  return answer;
}

/** What each candidate of the subject gives through a test: the branch it takes, read with the subject as that candidate. */
export function throughTest(at: Node, t: StringTest, candidates: Value[], whenTrue: Node | Value, whenFalse: Node | Value, frame: Frame | undefined, narrowed: EvaluateNarrowed): Value {
  const branch = (b: Node | Value, o: Value): Value => (b instanceof Node ? narrowed(b, frame, t.subject, o) : b);
  const out: Value[] = [];
  for (const o of candidates) {
    const d = decide(t, o);
    if (typeof d === "object") return dynamic(at, d.stop);
    if (d === true || d === "both") out.push(branch(whenTrue, o));
    if (d === false || d === "both") out.push(branch(whenFalse, o));
  }
  return union(at, out);
}

/** `cond ? a : b` where `cond` tests one string: each candidate's branch (undefined when the condition is no such test). */
export function conditionalValue(node: Node, frame: Frame | undefined, evaluate: Evaluate, narrowed: EvaluateNarrowed): Value | undefined {
  if (!Node.isConditionalExpression(node)) return undefined;
  const t = stringTest(node.getCondition(), frame, evaluate);
  if (!t) return undefined;
  const candidates = optionsOf(evaluate(t.subjectNode, frame));
  return throughTest(node, t, candidates, node.getWhenTrue(), node.getWhenFalse(), frame, narrowed);
}

/** `x = rhs` as the only statement of an `if`'s branch. */
function soleAssignment(stmt: Node | undefined, name: string): Node | undefined {
  let s = stmt;
  if (s && Node.isBlock(s)) {
    const [only, ...more] = s.getStatements();
    if (more.length) return undefined;
    s = only;
  }
  if (!s || !Node.isExpressionStatement(s)) return undefined;
  const e = unwrapExpression(s.getExpression());
  if (!Node.isBinaryExpression(e) || e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || textOf(e.getLeft()) !== name) return undefined;
  return e.getRight();
}

/**
 * `let base = …; if (base.endsWith("/")) base = base.slice(0, -1);`: every later write of the
 * variable is such an `if` beside its declaration, testing the variable itself. The value after
 * them, candidate by candidate (undefined when the writes are not all of that form); a read
 * beside the tests sees only those before it.
 */
export function guardedValue(id: Node, decl: Node, init: Node, frame: Frame | undefined, evaluate: Evaluate, narrowed: EvaluateNarrowed): Value | undefined {
  const w = writesOf(decl);
  if (!w.assigned.length || w.appended.length || w.other || !Node.isVariableDeclaration(decl)) return undefined;
  const name = decl.getName();
  const stmt = decl.getFirstAncestor((x) => Node.isVariableStatement(x));
  const block = stmt?.getParent();
  if (!stmt || !block || enclosingFunction(stmt) !== enclosingFunction(decl)) return undefined;
  const guards: { test: StringTest; then?: Node; otherwise?: Node; at: Node }[] = [];
  const seen = new Set<Node>();
  for (const s of (block as any).getStatements?.() ?? ([] as Node[])) {
    if (!Node.isIfStatement(s) || s.getPos() < stmt.getEnd()) continue;
    const then = soleAssignment(s.getThenStatement(), name);
    const otherwise = s.getElseStatement() ? soleAssignment(s.getElseStatement(), name) : undefined;
    if (!then || (s.getElseStatement() && !otherwise)) continue;
    const test = stringTest(s.getExpression(), frame, evaluate);
    if (!test || test.subject !== name) return undefined;
    guards.push({ test, then, otherwise, at: s });
    seen.add(then), otherwise && seen.add(otherwise);
  }
  if (!w.assigned.every((r) => seen.has(r))) return undefined;
  let candidates = optionsOf(evaluate(init, frame));
  // A read in the same function sees the tests before it (the receiver in `base = base.slice(0, -1)` is the value before that test).
  const inner = enclosingFunction(id) !== enclosingFunction(decl);
  for (const g of guards) {
    if (!inner && g.at.getEnd() > id.getStart()) break;
    const next: Value[] = [];
    for (const o of candidates) {
      const v = throughTest(g.at, g.test, [o], g.then!, g.otherwise ?? o, frame, narrowed);
      if (v.kind === "dynamic" && v.node === g.at) return dynamic(id, `${name} is changed after its declaration`, v);
      next.push(...optionsOf(v));
    }
    candidates = next;
  }
  return union(id, candidates);
}

/**
 * Whether `use` sits in a branch that every string `literal` gives the tested subject never takes
 * (`b = b.slice(0, -1)` under `if (b.endsWith("/"))` when the literal has no trailing slash): for
 * that literal it is no use at all (follow-uses.ts).
 */
export function untakenFor(use: Node, literal: Node, evaluate: (node: Node) => Value): boolean {
  for (let n: Node = use, p = use.getParent(); p; n = p, p = p.getParent()) {
    if (Node.isFunctionDeclaration(p) || Node.isFunctionExpression(p) || Node.isArrowFunction(p) || Node.isMethodDeclaration(p) || Node.isConstructorDeclaration(p)) return false;
    let cond: Node | undefined;
    let inThen = false;
    if (Node.isConditionalExpression(p) && n !== p.getCondition()) (cond = p.getCondition()), (inThen = n === p.getWhenTrue());
    if (Node.isIfStatement(p) && n !== p.getExpression()) (cond = p.getExpression()), (inThen = n === p.getThenStatement());
    const t = cond && stringTest(cond, undefined, (x) => evaluate(x));
    if (!t) continue;
    const mine = optionsOf(evaluate(t.subjectNode)).filter((o) => o.kind === "string" && o.node === literal);
    if (mine.length && mine.every((o) => decide(t, o) === !inThen)) return true;
  }
  return false;
}

/** Whether `value` is only tested here (`base.at(-1) === "/"`, `/\/$/.test(base)`): a boolean holds no URL. */
export function onlyTested(value: Node, evaluate: (node: Node) => Value): boolean {
  let p = value.getParent();
  for (let i = 0; p && i < 4; i++, p = p.getParent()) {
    if (Node.isCallExpression(p) || Node.isBinaryExpression(p) || Node.isPrefixUnaryExpression(p)) {
      const t = stringTest(p, undefined, (x) => evaluate(x));
      if (t && t.subjectNode === value) return true;
    }
  }
  return false;
}
