// Rewrite step: v2 answers some operations with another success status than v1 (the creates of
// endpoints, templates, volumes and registries: 201 where v1 answered 200; the table's `v1.status`
// and `v2.status`). A check of the migrated call's status against v1's (`res.status !== 200`,
// `switch (res.status) { case 200: … }`, `[200].includes(statusCode)`) would take every success
// for a failure. Each check the answer's flow reaches (status-sites.ts) is read as a truth per
// status: one that reads the same for v2's success as for v1's stays (`res.ok`, `< 300`, `[200,
// 201].includes(…)`, `=== 404`); one that does not has v1's literal replaced by v2's where that
// makes it read as before; otherwise, and where the status goes out of sight, the site is marked.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { v2Successes, type OperationMapping } from "../../../mappings/index.ts";
import { edit, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { statusSites } from "../status-sites.ts";
import { returnedTo } from "../answer-flow.ts";
import { classifyRead, keyOf, statusPredicate, type ResponseSubject } from "../response-branch.ts";
import { enclosingFunction } from "../scope.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { unwrapExpression } from "../urls.ts";
import { shownAsText } from "../display-sinks.ts";
import { heldStatusReads } from "../held-status.ts";

const EQUALITY = new Set(["===", "==", "!==", "!="]);
const COMPARISON = new Set([...EQUALITY, "<", "<=", ">", ">="]);

interface Statuses {
  v1: number;
  v2: number[];
  key: string;
}

export function statusChecks(plan: Plan, http: HttpCall, op: OperationMapping): void {
  if (!op.v2) return;
  const st: Statuses = { v1: op.v1.status, v2: v2Successes(op), key: op.key };
  if (st.v2.length === 1 && st.v2[0] === st.v1) return;
  const done = new Set<Node>();
  for (const s of statusSites(plan.a, http)) {
    if (s.kind === "unfollowed") problem(plan, st, `${s.why}, where a check of its status is not followed`, `${s.why.replace(/ \(.*\)$/, "")}: its status check is not followed`);
    else statusUse(plan, st, s.node, s.shared, done, 0);
  }
}

const line = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;
const short = (n: Node) => {
  const t = n.getText().replace(/\s+/g, " ");
  return t.length > 60 ? `${t.slice(0, 57)}…` : t;
};

function problem(plan: Plan, st: Statuses, what: string, brief: string): void {
  const v2 = st.v2.join(" or ");
  plan.problems.push({
    risk: "silent",
    reason: `${what}; v2 answers ${st.key} with ${v2} where v1 answered ${st.v1}`,
    advice: `check the v2 status (${v2}) where the status is compared, or test \`ok\` / a 2xx range`,
    brief: `${brief} (v1 answered ${st.v1}, v2 ${v2})`,
  });
}

/** A value that is the status (`res.status`, a `status` binding's reference): where it goes. */
function statusUse(plan: Plan, st: Statuses, read: Node, shared: string | undefined, done: Set<Node>, depth: number): void {
  const outer = skipParens(read);
  const p = outer.getParent();
  if (!p || Node.isExpressionStatement(p)) return;
  // `const status = res.status`: each use of the copy.
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer && Node.isIdentifier(p.getNameNode()) && depth < 3) {
    for (const r of referencesOf(enclosingFunction(p), p.getNameNode())) statusUse(plan, st, r, shared, done, depth + 1);
    return;
  }
  if (Node.isSwitchStatement(p) && p.getExpression() === outer) return switchCheck(plan, st, p, shared);
  // `return res.status` from a function the project calls: each caller's value is the status.
  const to = depth < 3 ? returnedTo(outer) : undefined;
  if (Array.isArray(to)) {
    for (const c of to) {
      const up = skipParens(c).getParent();
      statusUse(plan, st, up && Node.isAwaitExpression(up) ? up : c, shared, done, depth + 1);
    }
    return;
  }
  // `return { success: true, status: res.status }`, `err({ status: res.status })`: followed in the object to its readers.
  const u = unwrapExpression(outer);
  // Read where a check already failed (`if (!res.ok) throw new ApiError(res.status, …)`): an error status, not v1's success.
  const failed = () => classifyRead(outer, Node.isPropertyAccessExpression(u) ? u.getExpression() : u) === "error";
  if (((Node.isPropertyAssignment(p) && p.getInitializer() === outer) || (Node.isShorthandPropertyAssignment(p) && p.getNameNode() === outer)) && depth < 3) {
    if (failed()) return;
    const held = heldStatusReads(plan.a, p.getParent()!, [p.getName()], plan.site.call);
    if ("gone" in held) return problem(plan, st, `the status is kept in an object that ${held.why} (${line(held.gone)}), where the check is not followed`, `the status is kept in an object that ${held.why} (${line(held.gone)}): its check is not followed`);
    for (const r of held.reads) statusUse(plan, st, r, shared, done, depth + 1);
    return;
  }
  const cmp = comparisonOf(outer);
  if (cmp === "display") return;
  if (!cmp && failed()) return;
  if (!cmp) {
    const compared = Node.isBinaryExpression(p) && COMPARISON.has(p.getOperatorToken().getText()) ? (p.getLeft() === outer ? p.getRight() : p.getLeft()) : undefined;
    const how = compared ? `is compared with ${short(compared)}` : Node.isCallExpression(p) ? `is handed to ${short(p.getExpression())}` : Node.isReturnStatement(p) || Node.isArrowFunction(p) ? "is returned to callers the codemod cannot list" : "is kept";
    return problem(plan, st, `the status ${how} (${line(outer)}), where the check is not followed`, `the status ${how} (${line(outer)}): its check is not followed`);
  }
  const root = conditionOf(cmp);
  if (done.has(root)) return;
  done.add(root);
  checkCondition(plan, st, root, cmp, outer, shared);
}

/** The comparison the status is an operand of (with a numeric literal, or in `[…].includes(status)`); "display" when it is only shown. */
function comparisonOf(status: Node): Node | "display" | undefined {
  const p = status.getParent();
  if (!p) return undefined;
  if (Node.isBinaryExpression(p) && COMPARISON.has(p.getOperatorToken().getText())) {
    const other = unwrapExpression(p.getLeft() === status ? p.getRight() : p.getLeft());
    return Node.isNumericLiteral(other) ? p : undefined;
  }
  if (Node.isCallExpression(p) && p.getArguments()[0] === status) {
    const callee = p.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "includes" && Node.isArrayLiteralExpression(unwrapExpression(callee.getExpression()))) return p;
  }
  if (Node.isTemplateSpan(p) || (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.PlusToken) || shownAsText(status)) return "display";
  return undefined;
}

/** The whole condition a comparison is part of: through `!`, `&&`, `||` and parentheses. */
function conditionOf(cmp: Node): Node {
  let n = cmp;
  for (let p = n.getParent(); p; n = p, p = p.getParent()) {
    if (Node.isParenthesizedExpression(p)) continue;
    if (Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken) continue;
    if (Node.isBinaryExpression(p) && ["&&", "||"].includes(p.getOperatorToken().getText())) continue;
    break;
  }
  return n;
}

function subjectOf(status: Node): ResponseSubject {
  const subject: ResponseSubject = { ok: new Set(), status: new Set(), statusNodes: new Set([unwrapExpression(status)]) };
  const key = keyOf(status);
  if (key) subject.status.add(key);
  const u = unwrapExpression(status);
  const holder = Node.isPropertyAccessExpression(u) ? keyOf(u.getExpression()) : undefined;
  if (holder) subject.ok.add(`${holder}.ok`), subject.status.add(`${holder}.status`).add(`${holder}.statusCode`);
  return subject;
}

const isStatusOf = (subject: ResponseSubject, n: Node) => subject.status.has(keyOf(n) ?? "") || !!subject.statusNodes?.has(unwrapExpression(n));

function checkCondition(plan: Plan, st: Statuses, root: Node, cmp: Node, status: Node, shared: string | undefined): void {
  const subject = subjectOf(status);
  // The whole condition where it reads as a truth for both statuses; else the comparison alone (`res.status === 200 && body.ok`).
  let cond = root;
  if (statusPredicate(root, subject)(st.v1) === 2) cond = cmp;
  const before = statusPredicate(cond, subject);
  const want = before(st.v1);
  if (want !== 2 && st.v2.every((s) => before(s) === want)) return;
  const mapped = statusPredicate(cond, subject, (n) => (n === st.v1 ? st.v2 : [n]));
  const rewritable = want !== 2 && st.v2.every((s) => mapped(s) === want);
  if (shared || !rewritable) {
    const where = shared ? ` in ${shared}, which other calls run too` : "";
    return problem(plan, st, `the status check \`${short(cond)}\` (${line(cond)})${where} reads otherwise for v2's success than for v1's`, `status check \`${short(cond)}\` (${line(cond)})${shared ? " in shared code" : ""} expects v1's success status`);
  }
  for (const lit of cond.getDescendantsOfKind(SyntaxKind.NumericLiteral)) {
    if (Number(lit.getLiteralValue()) !== st.v1) continue;
    const p = skipParens(lit).getParent();
    if (p && Node.isBinaryExpression(p) && EQUALITY.has(p.getOperatorToken().getText())) {
      const other = p.getLeft() === skipParens(lit) ? p.getRight() : p.getLeft();
      if (!isStatusOf(subject, other)) continue;
      const op = p.getOperatorToken().getText();
      if (st.v2.length === 1) edit(plan, lit, { start: lit.getStart(), end: lit.getEnd(), text: String(st.v2[0]) });
      else {
        const join = op.startsWith("!") ? " && " : " || ";
        const alone = Node.isIfStatement(p.getParent()) || Node.isParenthesizedExpression(p.getParent());
        const text = st.v2.map((s) => `${other.getText()} ${op} ${s}`).join(join);
        edit(plan, p, { start: p.getStart(), end: p.getEnd(), text: alone ? text : `(${text})` });
      }
    } else if (p && Node.isArrayLiteralExpression(p)) {
      const call = p.getParent()?.getParent();
      if (!call || !Node.isCallExpression(call) || !isStatusOf(subject, call.getArguments()[0] ?? p)) continue;
      edit(plan, lit, { start: lit.getStart(), end: lit.getEnd(), text: st.v2.join(", ") });
    }
  }
}

/** `switch (res.status) { case 200: … }`: the clause v1's success reached must be the one v2's reaches. */
function switchCheck(plan: Plan, st: Statuses, sw: Node & { getCaseBlock(): Node & { getClauses(): Node[] } }, shared: string | undefined): void {
  const clauses = sw.getCaseBlock().getClauses();
  const labelOf = (c: Node) => (Node.isCaseClause(c) ? unwrapExpression(c.getExpression()) : undefined);
  const unknown = clauses.find((c) => Node.isCaseClause(c) && !Node.isNumericLiteral(labelOf(c)!));
  const where = `switch (${short((sw as any).getExpression())}) (${line(sw)})`;
  if (unknown) return problem(plan, st, `${where} has a case the codemod cannot read (${short(labelOf(unknown)!)})`, `${where}: a case label is not a number`);
  // The clause a status runs: its label's, or default's; then on through clauses without statements (fall through).
  const clauseFor = (status: number) => {
    let i = clauses.findIndex((c) => Node.isCaseClause(c) && Number((labelOf(c) as any).getLiteralValue()) === status);
    if (i < 0) i = clauses.findIndex((c) => Node.isDefaultClause(c));
    while (i >= 0 && i < clauses.length - 1 && !(clauses[i] as any).getStatements().length) i++;
    return i;
  };
  const v1Clause = clauseFor(st.v1);
  if (st.v2.every((s) => clauseFor(s) === v1Clause)) return;
  const v1Label = clauses.find((c) => Node.isCaseClause(c) && Number((labelOf(c) as any).getLiteralValue()) === st.v1);
  const v2Labelled = st.v2.some((s) => clauses.some((c) => Node.isCaseClause(c) && Number((labelOf(c) as any).getLiteralValue()) === s));
  if (shared || !v1Label || v2Labelled) {
    return problem(plan, st, `${where}${shared ? ` in ${shared}, which other calls run too,` : ""} runs another case for v2's success than for v1's`, `${where} expects v1's success status`);
  }
  const lit = labelOf(v1Label)!;
  edit(plan, lit, { start: lit.getStart(), end: lit.getEnd(), text: st.v2.join(": case ") });
}

