// Which side of an HTTP status check a response-body read sits on. v2 answers every error with
// an RFC 9457 problem document, so a list unwrap or a record rename belongs to the success body
// only, and the v1 error fields (`message`, `error`) to the error body. Pure syntax, per file:
//   - branches: `if (!res.ok) {…}`, `res.status >= 400 ? … : …`, `res.ok && …`, `switch (res.status)`
//   - early exits: `if (res.ok) return …; <read>` (error), `if (!res.ok) throw …; <read>` (success)
//   - an HTTP client's error in a catch: `err.response?.data`, ky/got `error.response.json()`/`.body`
// The statuses a read can see are the intersection of every check that leads to it. A read no
// check leads to is the success body (the code assumes success) unless the same function tests
// the response somewhere that does not lead to it (`const d = await res.json(); if (!res.ok) …`):
// then the body serves both sides and the read is `unknown` (its uses decide, one by one).
import { Node, SyntaxKind } from "../ts-morph.ts";
import { isFunctionLike, resolveIdentifier } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";

export type ReadSide = "success" | "error" | "unknown";

/** The expressions that test one response, as keys (`res.ok`, `res.status`, undici's `statusCode`). */
export interface ResponseSubject {
  ok: Set<string>;
  status: Set<string>;
  /** Expressions that are the status though no key names them (`(await statusOf(x)) === 200`). */
  statusNodes?: Set<Node>;
}

const LOW = 100;
const HIGH = 600;
/** Per status (index status - LOW): 0 false, 1 true, 2 not known from the condition. */
type Pred = Uint8Array;

const BODY_METHODS = ["json", "text", "blob", "arrayBuffer", "formData", "clone"];
const BODY_MEMBERS = ["data", "body"];

/** The side of a read, and whether an error status can reach it at all. */
export function describeRead(read: Node, response: Node = read): { side: ReadSide; errorReachable: boolean } {
  if (isHttpErrorBody(read)) return { side: "error", errorReachable: true };
  const subject = responseSubject(response);
  const { possible, consumed, boundary } = narrow(read, subject);
  const has = (from: number, to: number) => possible.some((p, i) => p && i + LOW >= from && i + LOW < to);
  const errorReachable = has(400, 600);
  const side = (s: ReadSide) => ({ side: s, errorReachable });
  if (!possible.some(Boolean)) return side("unknown");
  if (!has(200, 300)) return side("error");
  if (!errorReachable) return side("success");
  // `res.status !== 200`, `if (res.status === 201) return …`: past the success status is the error side.
  if (!possible[200 - LOW] || !possible[201 - LOW]) return side("error");
  // `res.status !== 204`: an error branch of a DELETE, or a guard before reading a body that may exist.
  if (possible.slice(200 - LOW, 300 - LOW).some((p) => !p)) return side("unknown");
  if (testedElsewhere(boundary, subject, consumed)) return side("unknown");
  return side("success");
}

/**
 * Classifies a response-body read (`await res.json()`, `res.data`, `.then((r) => r.json())`, or a
 * use of a variable holding the body) by the control flow around it. `response` is the read the
 * body comes from, or the response variable, when `read` is a later use of the body.
 */
export function classifyRead(read: Node, response: Node = read): ReadSide {
  return describeRead(read, response).side;
}

/** `err.response.data`, `err.response?.data`, `error.response.json()`, `error.response.body` of a caught error. */
export function isHttpErrorBody(read: Node): boolean {
  let n = unwrapExpression(read);
  if (Node.isAwaitExpression(n)) n = unwrapExpression(n.getExpression());
  let holder: Node | undefined;
  if (Node.isCallExpression(n)) {
    const callee = n.getExpression();
    if (Node.isPropertyAccessExpression(callee) && (callee.getName() === "json" || callee.getName() === "text")) holder = callee.getExpression();
  } else if (Node.isPropertyAccessExpression(n) && BODY_MEMBERS.includes(n.getName())) holder = n.getExpression();
  holder = holder && unwrapExpression(holder);
  if (!holder || !Node.isPropertyAccessExpression(holder) || holder.getName() !== "response") return false;
  return isCaughtError(unwrapExpression(holder.getExpression()), 0);
}

/** A `catch (e)` variable, a `.catch((e) => …)` / `.then(_, (e) => …)` parameter, or a local copy of one. */
function isCaughtError(n: Node, depth: number): boolean {
  if (!Node.isIdentifier(n) || depth > 3) return false;
  const b = resolveIdentifier(n);
  if (b?.kind === "catch") return true;
  if (b?.kind === "param" && b.path.length === 0) {
    const call = b.fn.getParent();
    if (!call || !Node.isCallExpression(call)) return false;
    const callee = call.getExpression();
    const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : "";
    const args = call.getArguments();
    return (name === "catch" && args[0] === b.fn) || (name === "then" && args[1] === b.fn);
  }
  if (b?.kind === "var" && b.path.length === 0 && b.init) return isCaughtError(unwrapExpression(b.init), depth + 1);
  return false;
}

/** The response a read comes from: `res` in `await res.json()`, `res.data`, `JSON.parse(await res.text())`. */
export function responseSubject(response: Node): ResponseSubject {
  const subject: ResponseSubject = { ok: new Set(), status: new Set() };
  let n = unwrapExpression(response);
  let held: Node | undefined;
  for (;;) {
    if (Node.isAwaitExpression(n)) n = unwrapExpression(n.getExpression());
    else if (Node.isCallExpression(n) && n.getExpression().getText() === "JSON.parse" && n.getArguments()[0]) n = unwrapExpression(n.getArguments()[0]!);
    else if (Node.isCallExpression(n) && Node.isPropertyAccessExpression(n.getExpression()) && [...BODY_METHODS, "catch"].includes((n.getExpression() as any).getName())) n = unwrapExpression((n.getExpression() as any).getExpression());
    else if (Node.isPropertyAccessExpression(n) && BODY_MEMBERS.includes(n.getName())) n = unwrapExpression(n.getExpression());
    // `const text = await res.text(); … JSON.parse(text)`: the parse tests the response the text was read from.
    else if ((held = heldText(n))) n = held;
    else break;
  }
  // `const { statusCode, body } = await request(…)` (undici), `const { data, status } = await axios…`
  let element: Node | undefined = Node.isBindingElement(n) ? n : undefined;
  if (Node.isIdentifier(n)) {
    const b = resolveIdentifier(n);
    if (b?.kind === "var" && b.path.length === 1) element = b.decl.getDescendantsOfKind(SyntaxKind.BindingElement).find((el) => el.getNameNode().getText() === n.getText());
  }
  if (element && Node.isBindingElement(element) && Node.isObjectBindingPattern(element.getParent())) {
    for (const el of (element.getParent() as any).getElements() as Node[]) {
      if (!Node.isBindingElement(el) || !Node.isIdentifier(el.getNameNode())) continue;
      const key = el.getPropertyNameNode()?.getText() ?? el.getName();
      if (key === "ok") subject.ok.add(el.getName());
      if (key === "status" || key === "statusCode") subject.status.add(el.getName());
    }
    return subject;
  }
  const key = keyOf(n);
  if (key) {
    subject.ok.add(`${key}.ok`);
    subject.status.add(`${key}.status`).add(`${key}.statusCode`);
  }
  return subject;
}

/** The `await res.text()` (or `res.text().catch(…)`) a const local is declared with, else undefined. */
function heldText(n: Node): Node | undefined {
  if (!Node.isIdentifier(n)) return undefined;
  const b = resolveIdentifier(n);
  if (b?.kind !== "var" || !b.isConst || b.path.length || !b.init) return undefined;
  let init = unwrapExpression(b.init);
  if (Node.isAwaitExpression(init)) init = unwrapExpression(init.getExpression());
  for (let i = 0; i < 2 && Node.isCallExpression(init); i++) {
    const callee = init.getExpression();
    if (!Node.isPropertyAccessExpression(callee)) return undefined;
    if (callee.getName() === "text") return init;
    if (callee.getName() !== "catch") return undefined;
    init = unwrapExpression(callee.getExpression());
  }
  return undefined;
}

/** `res`, `this.res`, `ctx.res.status` as a key (optional chains and `!` dropped), else undefined. */
export function keyOf(node: Node): string | undefined {
  const n = unwrapExpression(node);
  if (Node.isIdentifier(n)) return n.getText();
  if (n.getKind() === SyntaxKind.ThisKeyword) return "this";
  if (Node.isPropertyAccessExpression(n)) {
    const inner = keyOf(n.getExpression());
    return inner && `${inner}.${n.getName()}`;
  }
  return undefined;
}

/** The statuses a node can run under, from the checks around it up to its function. */
function narrow(node: Node, subject: ResponseSubject): { possible: boolean[]; consumed: Node[]; boundary: Node } {
  const possible = Array.from({ length: HIGH - LOW }, () => true);
  const consumed: Node[] = [];
  const apply = (cond: Node, truth: boolean) => {
    const pred = evaluate(cond, subject);
    pred.forEach((v, i) => {
      if (v === (truth ? 0 : 1)) possible[i] = false;
    });
    consumed.push(cond);
  };
  let cur = node;
  for (let p = cur.getParent(); p; cur = p, p = p.getParent()) {
    if (isFunctionLike(p)) return { possible, consumed, boundary: p };
    if (Node.isIfStatement(p) && cur !== p.getExpression()) apply(p.getExpression(), cur === p.getThenStatement());
    else if (Node.isConditionalExpression(p) && cur !== p.getCondition()) apply(p.getCondition(), cur === p.getWhenTrue());
    else if (Node.isBinaryExpression(p) && cur === p.getRight()) {
      const op = p.getOperatorToken().getKind();
      if (op === SyntaxKind.AmpersandAmpersandToken) apply(p.getLeft(), true);
      else if (op === SyntaxKind.BarBarToken) apply(p.getLeft(), false);
    } else if (Node.isBlock(p) || Node.isSourceFile(p) || Node.isCaseClause(p) || Node.isDefaultClause(p) || Node.isModuleBlock(p)) {
      // `if (check) return/throw …;` before the node: the node runs only when the check failed.
      for (const st of (p as any).getStatements() as Node[]) {
        if (st === cur) break;
        if (!Node.isIfStatement(st)) continue;
        const thenExits = exits(st.getThenStatement());
        const elseExits = exits(st.getElseStatement());
        if (thenExits !== elseExits) apply(st.getExpression(), elseExits);
      }
    } else if (Node.isCaseBlock(p)) switchCase(p, cur, subject, possible, consumed);
  }
  return { possible, consumed, boundary: node.getSourceFile() };
}

/** `switch (res.status) { case 404: …; case 200: <node> }`. */
function switchCase(block: Node, clause: Node, subject: ResponseSubject, possible: boolean[], consumed: Node[]): void {
  const sw = block.getParent();
  if (!sw || !Node.isSwitchStatement(sw) || !isStatus(sw.getExpression(), subject)) return;
  const clauses = (block as any).getClauses() as Node[];
  const label = (c: Node) => (Node.isCaseClause(c) ? numberOf(c.getExpression()) : undefined);
  let allowed: Set<number>;
  if (Node.isCaseClause(clause)) {
    // This label and the labels of the clauses that fall through into it.
    allowed = new Set();
    for (let i = clauses.indexOf(clause); i >= 0; i--) {
      const c = clauses[i]!;
      if (i !== clauses.indexOf(clause) && (!Node.isCaseClause(c) || c.getStatements().some(exits))) break;
      const n = label(c);
      if (n === undefined) return;
      allowed.add(n);
    }
  } else {
    const labels = clauses.filter((c) => Node.isCaseClause(c)).map(label);
    if (labels.some((n) => n === undefined)) return;
    allowed = new Set(Array.from({ length: HIGH - LOW }, (_, i) => i + LOW).filter((s) => !labels.includes(s)));
  }
  possible.forEach((_, i) => {
    if (!allowed.has(i + LOW)) possible[i] = false;
  });
  consumed.push(sw.getExpression());
}

/** A statement after which the rest of its block does not run. */
function exits(st: Node | undefined): boolean {
  if (!st) return false;
  if (Node.isReturnStatement(st) || Node.isThrowStatement(st) || Node.isContinueStatement(st) || Node.isBreakStatement(st)) return true;
  if (Node.isBlock(st)) return st.getStatements().some(exits);
  if (Node.isIfStatement(st)) return exits(st.getThenStatement()) && exits(st.getElseStatement());
  if (Node.isExpressionStatement(st)) return /^process\.exit\(/.test(st.getExpression().getText());
  return false;
}

/** Whether the function tests the response anywhere that does not lead to the node. */
function testedElsewhere(boundary: Node, subject: ResponseSubject, consumed: Node[]): boolean {
  if (!subject.ok.size && !subject.status.size) return false;
  const inConsumed = (n: Node) => consumed.some((c) => c.getPos() <= n.getPos() && n.getEnd() <= c.getEnd());
  return subjectUses(boundary, subject).some((d) => !inConsumed(d));
}

// Per function: where each `x.ok` / `x.status` / `x.statusCode` and each plain name is read (one walk).
const usesCache = new WeakMap<Node, Map<string, Node[]>>();

function subjectUses(boundary: Node, subject: ResponseSubject): Node[] {
  let byKey = usesCache.get(boundary);
  if (!byKey) {
    const map = new Map<string, Node[]>();
    boundary.forEachDescendant((d) => {
      const p = d.getParent();
      if (Node.isIdentifier(d) && p && ((Node.isPropertyAccessExpression(p) && p.getNameNode() === d) || Node.isBindingElement(p) || Node.isPropertyAssignment(p))) return;
      if (!Node.isIdentifier(d) && !(Node.isPropertyAccessExpression(d) && ["ok", "status", "statusCode"].includes(d.getName()))) return;
      const k = keyOf(d);
      if (k) map.get(k)?.push(d) ?? map.set(k, [d]);
    });
    usesCache.set(boundary, (byKey = map));
  }
  return [...subject.ok, ...subject.status].flatMap((k) => byKey!.get(k) ?? []);
}

function isStatus(n: Node, subject: ResponseSubject): boolean {
  const key = keyOf(n);
  return (!!key && subject.status.has(key)) || !!subject.statusNodes?.has(unwrapExpression(n));
}

function numberOf(n: Node | undefined): number | undefined {
  const u = n && unwrapExpression(n);
  return u && Node.isNumericLiteral(u) ? Number(u.getLiteralValue()) : undefined;
}

const fill = (v: 0 | 1 | 2): Pred => new Uint8Array(HIGH - LOW).fill(v);
const each = (f: (status: number) => boolean): Pred => Uint8Array.from({ length: HIGH - LOW }, (_, i) => (f(i + LOW) ? 1 : 0));
const not = (a: Pred): Pred => a.map((v) => (v === 2 ? 2 : 1 - v));
const and = (a: Pred, b: Pred): Pred => a.map((v, i) => (v === 0 || b[i] === 0 ? 0 : v === 1 && b[i] === 1 ? 1 : 2));
const or = (a: Pred, b: Pred): Pred => a.map((v, i) => (v === 1 || b[i] === 1 ? 1 : v === 0 && b[i] === 0 ? 0 : 2));

const COMPARE: Record<string, (s: number, n: number) => boolean> = {
  "===": (s, n) => s === n, "==": (s, n) => s === n, "!==": (s, n) => s !== n, "!=": (s, n) => s !== n,
  "<": (s, n) => s < n, "<=": (s, n) => s <= n, ">": (s, n) => s > n, ">=": (s, n) => s >= n,
};
const MIRROR: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
/** Equality operators: whether they hold when the values are equal. */
const EQUALITY: Record<string, boolean> = { "===": true, "==": true, "!==": false, "!=": false };

/**
 * A condition as a truth per status, 0 false, 1 true, 2 unknown (index status - 100), as it reads
 * with each numeric literal it compares the status with for equality replaced by `literal`'s values.
 */
export function statusPredicate(cond: Node, subject: ResponseSubject, literal: (n: number) => number[] = (n) => [n]): (status: number) => 0 | 1 | 2 {
  const pred = evaluate(cond, subject, literal);
  return (status) => pred[status - LOW] as 0 | 1 | 2;
}

/** A condition as a truth value per status (Kleene logic: what it does not say is unknown). */
function evaluate(cond: Node, subject: ResponseSubject, literal: (n: number) => number[] = (n) => [n]): Pred {
  const evaluate_ = (c: Node, s: ResponseSubject) => evaluate(c, s, literal);
  const n = unwrapExpression(cond);
  const key = keyOf(n);
  if (key && subject.ok.has(key)) return each((s) => s >= 200 && s < 300);
  if (Node.isPrefixUnaryExpression(n) && n.getOperatorToken() === SyntaxKind.ExclamationToken) return not(evaluate_(n.getOperand(), subject));
  if (Node.isCallExpression(n)) {
    const callee = n.getExpression();
    const [arg] = n.getArguments();
    if (callee.getText() === "Boolean" && arg) return evaluate_(arg, subject);
    // `[200, 201].includes(res.status)`
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "includes" && arg && isStatus(arg, subject)) {
      const list = unwrapExpression(callee.getExpression());
      const values = Node.isArrayLiteralExpression(list) ? list.getElements().map(numberOf) : [];
      if (values.length && values.every((v) => v !== undefined)) return each((s) => values.some((v) => literal(v!).includes(s)));
    }
    return fill(2);
  }
  if (!Node.isBinaryExpression(n)) return fill(2);
  const op = n.getOperatorToken().getText();
  const left = n.getLeft();
  const right = n.getRight();
  if (op === "&&") return and(evaluate_(left, subject), evaluate_(right, subject));
  if (op === "||") return or(evaluate_(left, subject), evaluate_(right, subject));
  if (!COMPARE[op]) return fill(2);
  // `res.ok === false`, `true !== res.ok`
  for (const [side, other] of [[left, right], [right, left]] as const) {
    const k = unwrapExpression(other).getKind();
    if (k !== SyntaxKind.TrueKeyword && k !== SyntaxKind.FalseKeyword) continue;
    if (!["===", "==", "!==", "!="].includes(op)) return fill(2);
    const same = (op === "===" || op === "==") === (k === SyntaxKind.TrueKeyword);
    return same ? evaluate_(side, subject) : not(evaluate_(side, subject));
  }
  const ln = numberOf(left);
  const rn = numberOf(right);
  const equal = (s: number, v: number) => literal(v).includes(s);
  if (EQUALITY[op] !== undefined) {
    if (isStatus(left, subject) && rn !== undefined) return each((s) => equal(s, rn) === EQUALITY[op]);
    if (isStatus(right, subject) && ln !== undefined) return each((s) => equal(s, ln) === EQUALITY[op]);
  }
  if (isStatus(left, subject) && rn !== undefined) return each((s) => COMPARE[op]!(s, rn));
  if (isStatus(right, subject) && ln !== undefined) return each((s) => COMPARE[MIRROR[op] ?? op]!(s, ln));
  return fill(2);
}
