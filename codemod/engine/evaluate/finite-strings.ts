// Which finite set of strings an expression can hold where it is read. Three kinds of answer, each
// a superset of what the expression holds at run time, so they narrow each other (intersection):
// - its type, when the checker lists string literals (`"start" | "stop"`, a string enum,
//   `keyof typeof ACTIONS`, `(typeof ACTIONS)[number]` of an `as const` array);
// - its value, for a const holding literals (`c ? "start" : "stop"`), an element of a literal
//   array (`ACTIONS[i]`, `for (const a of ACTIONS)`), a parameter of a function the module keeps
//   to itself whose every call passes such a value (`power(id, "stop")`);
// - the guards around the read, for a name that is never reassigned: `if (!ACTIONS.has(a)) throw`,
//   `if (a !== "start" && a !== "stop") return`, `if (ACTIONS.includes(a)) { … }`,
//   `switch (a) { case "start": case "stop": … }`.
// No answer (undefined) means the set is not known: the caller must treat the value as any string.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { isFunctionLike, resolveIdentifier, writesOf, type Binding } from "../scope.ts";
import { references } from "../references.ts";
import { unwrapExpression } from "../urls.ts";

const MAX = 64;
const MAX_CALLERS = 12;

/** `declared`: what a declaration outside the type system lists for it (a zod schema), when the caller can read one. */
export function finiteStrings(input: Node, declared?: (n: Node) => string[] | undefined): string[] | undefined {
  const node = unwrapExpression(input);
  const answers = [valueStrings(node, 0), guardStrings(node), typeStrings(node), declared?.(node)].filter((x): x is string[] => !!x);
  if (!answers.length) return undefined;
  // The first answer's order (the code's own), narrowed by the others.
  return answers.reduce((acc, a) => acc.filter((v) => a.includes(v)));
}

/** String literal values a node can take, when its type says so (a union of string literals). */
export function typeStrings(node: Node): string[] | undefined {
  try {
    const type = node.getType();
    const members = type.isUnion() ? type.getUnionTypes() : [type];
    const out: string[] = [];
    for (const t of members) {
      if (!t.isStringLiteral()) return undefined;
      out.push(String(t.getLiteralValue()));
    }
    return out.length ? [...new Set(out)] : undefined;
  } catch {
    return undefined;
  }
}

/** A never-reassigned name's declaration (a const, a let written once, a parameter never assigned). */
function stableBinding(id: Node): ReturnType<typeof resolveIdentifier> {
  if (!Node.isIdentifier(id)) return undefined;
  const b = resolveIdentifier(id);
  if (!b || (b.kind !== "var" && b.kind !== "param") || b.path.length) return undefined;
  if (b.kind === "var") {
    const w = writesOf(b.decl);
    if (w.other || w.assigned.length || w.appended.length) return undefined;
  } else if (assignedParam(b.fn, id.getText())) return undefined;
  return b;
}

function assignedParam(fn: Node, name: string): boolean {
  return fn.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => {
    const p = i.getParent();
    if (i.getText() !== name || !p) return false;
    if (Node.isBinaryExpression(p)) {
      const op = p.getOperatorToken().getKind();
      return unwrapExpression(p.getLeft()) === i && op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment;
    }
    return (Node.isPrefixUnaryExpression(p) || Node.isPostfixUnaryExpression(p)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(p.getOperatorToken());
  });
}

function valueStrings(node: Node, depth: number): string[] | undefined {
  const n = unwrapExpression(node);
  if (depth > 8) return undefined;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return [n.getLiteralValue()];
  if (Node.isConditionalExpression(n)) return both(valueStrings(n.getWhenTrue(), depth + 1), valueStrings(n.getWhenFalse(), depth + 1));
  if (Node.isElementAccessExpression(n)) return collectionStrings(n.getExpression(), depth + 1);
  if (!Node.isIdentifier(n)) return undefined;
  const b = stableBinding(n);
  if (b?.kind === "param") return argumentStrings(b, depth);
  if (b?.kind !== "var") return undefined;
  if (b.init) return valueStrings(b.init, depth + 1);
  // `for (const a of ACTIONS)`: an element of the collection.
  const loop = b.decl.getParent()?.getParent();
  return loop && Node.isForOfStatement(loop) ? collectionStrings(loop.getExpression(), depth + 1) : undefined;
}

/**
 * What every call of a function passes for a parameter (its default where one is left out), when
 * the function is not exported and every use of it is a call: callers outside the run cannot exist.
 */
function argumentStrings(b: Binding & { kind: "param" }, depth: number): string[] | undefined {
  const fn = b.fn;
  const holder = fn.getParent();
  const name = Node.isFunctionDeclaration(fn) ? fn.getNameNode() : (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) && holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined;
  const exported = Node.isFunctionDeclaration(fn) ? fn.isExported() || fn.isDefaultExport() : holder && Node.isVariableDeclaration(holder) ? holder.isExported() : true;
  if (!name || !Node.isIdentifier(name) || exported || (b.decl as any).getDotDotDotToken?.()) return undefined;
  const uses = references(name);
  if (!uses.length || uses.length > MAX_CALLERS) return undefined;
  const out: string[] = [];
  for (const use of uses) {
    const call = use.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== use) return undefined;
    const arg = call.getArguments()[b.index] ?? (b.decl as any).getInitializer?.();
    const vs = arg && !Node.isSpreadElement(arg) ? valueStrings(arg, depth + 1) : undefined;
    if (!vs) return undefined;
    out.push(...vs);
  }
  return [...new Set(out)];
}

/** The strings a literal array (or a `new Set` of one, or a const naming one) holds. */
function collectionStrings(node: Node, depth: number): string[] | undefined {
  const n = unwrapExpression(node);
  if (depth > 8) return undefined;
  if (Node.isIdentifier(n)) {
    const b = stableBinding(n);
    return b?.kind === "var" && b.init ? collectionStrings(b.init, depth + 1) : undefined;
  }
  if (Node.isNewExpression(n) && n.getExpression().getText() === "Set") {
    const [arg] = n.getArguments();
    return arg ? collectionStrings(arg, depth + 1) : undefined;
  }
  if (Node.isArrayLiteralExpression(n)) {
    const out: string[] = [];
    for (const el of n.getElements()) {
      const vs = Node.isSpreadElement(el) ? collectionStrings(el.getExpression(), depth + 1) : valueStrings(el, depth + 1);
      if (!vs) return undefined;
      out.push(...vs);
    }
    return out.length && out.length <= MAX ? [...new Set(out)] : undefined;
  }
  return undefined;
}

function both(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  return a && b ? [...new Set([...a, ...b])] : undefined;
}

function meet(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  return a && b ? a.filter((v) => b.includes(v)) : (a ?? b);
}

/** The set the guards around a read of a never-reassigned name narrow it to. */
function guardStrings(node: Node): string[] | undefined {
  if (!Node.isIdentifier(node)) return undefined;
  const b = stableBinding(node);
  if (!b) return undefined;
  const same = (x: Node) => Node.isIdentifier(unwrapExpression(x)) && unwrapExpression(x).getText() === node.getText() && resolveIdentifier(unwrapExpression(x))?.decl === b.decl;
  let found: string[] | undefined;
  for (let at: Node = node, p = at.getParent(); p; at = p, p = p.getParent()) {
    if (Node.isIfStatement(p) && at === p.getThenStatement()) found = meet(found, condition(p.getExpression(), same, true));
    else if (Node.isIfStatement(p) && at === p.getElseStatement()) found = meet(found, condition(p.getExpression(), same, false));
    else if (Node.isConditionalExpression(p) && at !== p.getCondition()) found = meet(found, condition(p.getCondition(), same, at === p.getWhenTrue()));
    else if (Node.isBinaryExpression(p) && at === p.getRight() && p.getOperatorToken().getKind() === SyntaxKind.AmpersandAmpersandToken) found = meet(found, condition(p.getLeft(), same, true));
    else if (Node.isCaseClause(p) && at !== p.getExpression()) found = meet(found, caseLabels(p, same));
    else if (Node.isBlock(p) || Node.isSourceFile(p) || Node.isCaseClause(p) || Node.isDefaultClause(p)) {
      // Earlier statements of the block that leave unless the value is one of a set.
      const statements = (p as any).getStatements() as Node[];
      for (const s of statements.slice(0, statements.indexOf(at))) {
        if (Node.isIfStatement(s) && !s.getElseStatement() && exits(s.getThenStatement())) found = meet(found, condition(s.getExpression(), same, false));
      }
    }
    // A guard outside the function the name is declared in does not hold for it.
    if (isFunctionLike(p) && (b.kind === "param" ? p === b.fn : p.getFirstDescendant((d) => d === b.decl))) break;
  }
  return found;
}

/** A statement that never completes normally (it throws or returns). */
function exits(s: Node): boolean {
  if (Node.isThrowStatement(s) || Node.isReturnStatement(s)) return true;
  if (Node.isBlock(s)) {
    const last = s.getStatements().at(-1);
    return !!last && exits(last);
  }
  if (Node.isIfStatement(s)) return !!s.getElseStatement() && exits(s.getThenStatement()) && exits(s.getElseStatement()!);
  return false;
}

/** The values `e` having the given truth implies for the name (undefined: it says nothing). */
function condition(input: Node, same: (n: Node) => boolean, truth: boolean): string[] | undefined {
  const e = unwrapExpression(input);
  if (Node.isPrefixUnaryExpression(e) && e.getOperatorToken() === SyntaxKind.ExclamationToken) return condition(e.getOperand(), same, !truth);
  if (Node.isBinaryExpression(e)) {
    const op = e.getOperatorToken().getKind();
    const l = e.getLeft();
    const r = e.getRight();
    if (op === SyntaxKind.AmpersandAmpersandToken) return truth ? meet(condition(l, same, true), condition(r, same, true)) : both(condition(l, same, false), condition(r, same, false));
    if (op === SyntaxKind.BarBarToken) return truth ? both(condition(l, same, true), condition(r, same, true)) : meet(condition(l, same, false), condition(r, same, false));
    const eq = op === SyntaxKind.EqualsEqualsEqualsToken || op === SyntaxKind.EqualsEqualsToken;
    const ne = op === SyntaxKind.ExclamationEqualsEqualsToken || op === SyntaxKind.ExclamationEqualsToken;
    if ((eq && truth) || (ne && !truth)) {
      const other = same(l) ? r : same(r) ? l : undefined;
      const lit = other && unwrapExpression(other);
      if (lit && (Node.isStringLiteral(lit) || Node.isNoSubstitutionTemplateLiteral(lit))) return [lit.getLiteralValue()];
    }
    return undefined;
  }
  // `ACTIONS.has(a)`, `ACTIONS.includes(a)`.
  if (truth && Node.isCallExpression(e)) {
    const callee = unwrapExpression(e.getExpression());
    const [arg] = e.getArguments();
    if (Node.isPropertyAccessExpression(callee) && ["has", "includes"].includes(callee.getName()) && arg && same(arg)) return collectionStrings(callee.getExpression(), 0);
  }
  return undefined;
}

/** The labels of a case clause and of the empty clauses that fall into it (undefined with a default among them). */
function caseLabels(clause: Node & { getExpression(): Node }, same: (n: Node) => boolean): string[] | undefined {
  const block = clause.getParent();
  const sw = block?.getParent();
  if (!sw || !Node.isSwitchStatement(sw) || !same(sw.getExpression())) return undefined;
  const clauses = sw.getClauses();
  const out: string[] = [];
  for (let i = clauses.indexOf(clause as never); i >= 0; i--) {
    const c = clauses[i]!;
    // A clause before that ends in break (or return, throw) does not fall into this one.
    if (c !== clause && c.getStatements().length) {
      const last = c.getStatements().at(-1)!;
      if (Node.isBreakStatement(last) || exits(last)) break;
      return undefined;
    }
    if (!Node.isCaseClause(c)) return undefined;
    const lit = unwrapExpression(c.getExpression());
    if (!Node.isStringLiteral(lit) && !Node.isNoSubstitutionTemplateLiteral(lit)) return undefined;
    out.unshift(lit.getLiteralValue());
  }
  return out;
}
