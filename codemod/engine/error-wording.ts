// Error text matched by its wording: a failed call's error text (its body read as text, or the
// `message` read off its parsed body), carried into an error's message and caught, compared by
// string (`msg.includes("not enough free GPUs")`, `/already stopped/i.test(String(e))`,
// `body.message === "…"`, `switch (msg)`). v1's wording is not v2's: v2 answers an RFC 9457
// problem whose `detail` the v2 document does not word (its examples are generic: "resource not
// found"), so such a branch may never fire once the call is on v2, and nothing says so: a silent
// break. The text is followed by value (variables, templates and `+`, `??` / `||` / conditionals,
// `trim()` / `toLowerCase()`, `String(…)`, the project's functions it is handed to or returned
// from, `new Error(text)` thrown and read back as the caught error's `message` or `String(e)`);
// each literal compared with it that holds a word none of the message's own parts around the text
// hold (a status `404`, the helper's `RunPod POST` are not the body's) is marked where it is
// compared, once a call reaching it is on v2.
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import type { Analysis, Site } from "./state.ts";
import { declarationScope, isDeclarationName, referencesOf, skipParens } from "./nodes.ts";
import { enclosingFunction, isFunctionLike, resolveIdentifier } from "./scope.ts";
import { handedTo } from "./handed-on.ts";
import { callersOf, catchersOf } from "./caught-errors.ts";
import { classNamed } from "./record-callees.ts";
import { followHolder } from "./stored-error-bodies.ts";
import { describeRead } from "./response-branch.ts";
import { responseTransports } from "./error-flow.ts";
import { unwrapExpression } from "./urls.ts";
import { markForSites } from "./marks-for-sites.ts";

/** A comparison of error text with a literal, and the parts of the messages the text was put in. */
interface Compared {
  literal: string;
  around: Set<string>;
  sites: Set<Site>;
}

const texts = new WeakMap<Analysis, Map<Node, Set<Site>>>();
const MATCHERS = new Set(["includes", "startsWith", "endsWith", "indexOf", "lastIndexOf", "match", "matchAll", "search"]);
const SAME_TEXT = new Set(["trim", "trimStart", "trimEnd", "toLowerCase", "toUpperCase", "toLocaleLowerCase", "toLocaleUpperCase", "normalize", "toString"]);
const ERROR_CLASSES = new Set(["Error", "TypeError", "RangeError"]);
const MAX_DEPTH = 14;

/** Pass: the error bodies read as text (`await res.text()` where the call may have failed) of each call planned in this file. */
export function registerErrorTexts(a: Analysis, sf: SourceFile): void {
  let found = texts.get(a);
  if (!found) texts.set(a, (found = new Map()));
  for (const site of a.sites) {
    if (!site.finding || !site.http || site.call.getSourceFile() !== sf) continue;
    for (const call of responseTransports(a, site.http)) for (const t of textReads(call)) found.set(t, (found.get(t) ?? new Set()).add(site));
  }
}

/** `const res = await fetch(…); … await res.text()` on a path where the call failed. */
function textReads(call: Node): Node[] {
  const awaited = skipParens(call).getParent();
  const decl = awaited && Node.isAwaitExpression(awaited) ? skipParens(awaited).getParent() : undefined;
  const name = decl && Node.isVariableDeclaration(decl) ? decl.getNameNode() : undefined;
  if (!name || !Node.isIdentifier(name)) return [];
  const out: Node[] = [];
  for (const r of referencesOf(declarationScope(name), name)) {
    const access = skipParens(r).getParent();
    const c = access && Node.isPropertyAccessExpression(access) && access.getName() === "text" ? access.getParent() : undefined;
    const read = c && Node.isCallExpression(c) ? skipParens(c).getParent() : undefined;
    if (read && Node.isAwaitExpression(read) && describeRead(read).errorReachable) out.push(read);
  }
  return out;
}

/** After do no harm: each comparison reached by a call now on v2 is marked. */
export function settleErrorWording(a: Analysis): void {
  const starts = new Map<Node, Set<Site>>(texts.get(a) ?? []);
  for (const r of a.errorReads.values()) starts.set(r.node, new Set([...(starts.get(r.node) ?? []), ...r.sites]));
  const compared = new Map<Node, Compared>();
  for (const [start, sites] of starts) {
    const migrated = [...sites].filter((s) => s.applied);
    if (!migrated.length) continue;
    for (const s of migrated) {
      const found = new Map<Node, { literal: string; around: Set<string> }>();
      followText(a, start, new Set(), { site: s.call, found, seen: new Set() }, 0);
      for (const [node, c] of found) {
        const had = compared.get(node) ?? { literal: c.literal, around: new Set<string>(), sites: new Set<Site>() };
        c.around.forEach((x) => had.around.add(x));
        compared.set(node, had.sites.add(s) && had);
      }
    }
  }
  const own = compared.size ? ownWordings(a) : [];
  for (const [node, c] of compared) {
    if (!a.files.has(node.getSourceFile().getFilePath()) || !byWording(c.literal, c.around) || own.some((t) => t.includes(c.literal))) continue;
    const reason = (calls: string, one: boolean) =>
      `matches the error text against v1's wording ${JSON.stringify(c.literal)}, which v2's problem detail may not hold (${one ? "a call" : "calls"} now on v2: ${calls}); the v2 document does not word its details, so this branch may no longer be taken`;
    const advice = "branch on the status (res.status) where it tells the case apart, or match v2's detail for this failure once known, then delete the mark";
    markForSites(a, node, c.sites, reason, advice, "error-read");
  }
}

/** A transport's failure (`ECONNRESET`, `fetch failed`, a timeout), not the API's: it has no body. */
const TRANSPORT_FAILURE = /^E[A-Z]{3,}$|fetch failed|network|timed? ?out|abort/i;

/** Whether a literal compares wording the text brought: a word that none of the message's own parts hold. */
function byWording(literal: string, around: Set<string>): boolean {
  if (TRANSPORT_FAILURE.test(literal)) return false;
  const own = [...around].join(" ").toLowerCase();
  return (literal.match(/[A-Za-z]{2,}/g) ?? []).some((w) => !own.includes(w.toLowerCase()));
}

/** The texts the project's own errors carry (`throw new Error(NO_KEY)`, `new ConfigError("…")`): a match on one of them is the app's wording, not v1's. */
function ownWordings(a: Analysis): string[] {
  const out: string[] = [];
  for (const file of a.files.values()) {
    for (const created of file.sf.getDescendantsOfKind(SyntaxKind.NewExpression)) {
      if (!/Error$/.test(created.getExpression().getText())) continue;
      for (const arg of created.getArguments()) {
        const whole = literalOf(arg);
        if (whole !== undefined) out.push(whole);
        else if (Node.isTemplateExpression(arg)) out.push(arg.getHead().getLiteralText(), ...arg.getTemplateSpans().map((s) => s.getLiteral().getLiteralText()));
      }
    }
  }
  return out.filter((t) => t.trim());
}

interface Walk {
  site: Node;
  found: Map<Node, { literal: string; around: Set<string> }>;
  seen: Set<string>;
}

const keyOf = (n: Node, what: string) => `${n.getSourceFile().getFilePath()}:${n.getStart()}:${n.getKind()}:${what}`;

/** Follows a string holding the error text to where it is compared. `around`: the parts of the messages it was put in. */
function followText(a: Analysis, node: Node, around: Set<string>, w: Walk, depth: number): void {
  const key = keyOf(node, "text");
  if (depth > MAX_DEPTH || w.seen.has(key)) return;
  w.seen.add(key);
  const next = (n: Node, more: string[] = []) => followText(a, n, more.length ? new Set([...around, ...more]) : around, w, depth + 1);
  const compare = (at: Node, lit: Node | undefined) => {
    const literal = lit && literalOf(lit);
    if (literal === undefined) return;
    const had = w.found.get(at);
    if (had) around.forEach((x) => had.around.add(x));
    else w.found.set(at, { literal, around: new Set(around) });
  };
  if (Node.isIdentifier(node) && isDeclarationName(node)) {
    for (const r of referencesOf(declarationScope(node), node)) next(r);
    return;
  }
  // `const { message } = body`: the name it binds.
  if (Node.isBindingElement(node)) return Node.isIdentifier(node.getNameNode()) ? next(node.getNameNode()) : undefined;
  const outer = skipParens(node);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) return Node.isIdentifier(p.getNameNode()) ? next(p.getNameNode()) : undefined;
  if (Node.isAwaitExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p)) return next(p);
  if (Node.isTemplateSpan(p) && p.getExpression() === outer) {
    const tpl = p.getParentOrThrow();
    return next(tpl, Node.isTemplateExpression(tpl) ? [tpl.getHead().getLiteralText(), ...tpl.getTemplateSpans().map((s) => s.getLiteral().getLiteralText())] : []);
  }
  if (Node.isConditionalExpression(p) && p.getCondition() !== outer) return next(p);
  if (Node.isBinaryExpression(p)) {
    const op = p.getOperatorToken().getKind();
    const other = p.getLeft() === outer ? p.getRight() : p.getLeft();
    if (op === SyntaxKind.PlusToken) return next(p, [literalOf(other) ?? ""]);
    // `message = body.message || text`: the variable assigned.
    if (op === SyntaxKind.EqualsToken) return p.getRight() === outer ? assigned(p.getLeft(), next) : undefined;
    if (op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) return p.getLeft() === outer ? next(p) : undefined;
    if (op === SyntaxKind.AmpersandAmpersandToken) return p.getRight() === outer ? next(p) : undefined;
    if ([SyntaxKind.EqualsEqualsEqualsToken, SyntaxKind.EqualsEqualsToken, SyntaxKind.ExclamationEqualsEqualsToken, SyntaxKind.ExclamationEqualsToken].includes(op)) return compare(p, other);
    return;
  }
  if (Node.isSwitchStatement(p) && p.getExpression() === outer) {
    for (const clause of p.getClauses()) if (Node.isCaseClause(clause)) compare(clause, clause.getExpression());
    return;
  }
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    const c = p.getParent();
    if (!c || !Node.isCallExpression(c) || c.getExpression() !== p) return;
    if (MATCHERS.has(p.getName())) return compare(c, c.getArguments()[0]);
    if (SAME_TEXT.has(p.getName())) return next(c);
    return;
  }
  if (Node.isCallExpression(p) && p.getArguments().includes(outer as never)) {
    const callee = unwrapExpression(p.getExpression());
    if (callee.getText() === "String") return next(p);
    // `/quota/i.test(msg)`, `PATTERN.exec(msg)`
    if (Node.isPropertyAccessExpression(callee) && ["test", "exec"].includes(callee.getName())) return compare(p, callee.getExpression());
    const to = handedTo(a, outer);
    if (to?.kind === "param") next(to.name);
    return;
  }
  if (Node.isNewExpression(p) && p.getArguments()[0] === outer && isErrorClass(a, p)) return followError(a, p, around, w, depth + 1);
  if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) {
    const fn = Node.isArrowFunction(p) ? p : p.getFirstAncestor((n) => isFunctionLike(n));
    for (const c of fn ? callersOf(a, fn) : []) next(c);
  }
}

/** The declared name an assignment writes (`message = …` of a `let message`). */
function assigned(target: Node, next: (n: Node) => void): void {
  const t = unwrapExpression(target);
  const b = Node.isIdentifier(t) ? resolveIdentifier(t) : undefined;
  const name = b?.kind === "var" && !b.path.length && Node.isVariableDeclaration(b.decl) ? b.decl.getNameNode() : undefined;
  if (name && Node.isIdentifier(name)) next(name);
}

/** `new Error(text)`, or a class of the project extending another that takes the message first. */
function isErrorClass(a: Analysis, created: Node): boolean {
  if (!Node.isNewExpression(created)) return false;
  if (ERROR_CLASSES.has(created.getExpression().getText())) return true;
  const cls = classNamed(a, created.getExpression());
  if (!cls?.getExtends()) return false;
  const ctor = cls.getConstructors().find((c) => c.getBody());
  if (!ctor) return true;
  const first = ctor.getParameters()[0]?.getName();
  const sup = ctor.getDescendantsOfKind(SyntaxKind.CallExpression).find((c) => c.getExpression().getKind() === SyntaxKind.SuperKeyword);
  return !!first && !!sup && unwrapExpression(sup.getArguments()[0] ?? sup).getText() === first;
}

/** The error made with the text as its message: thrown and caught (its `message`, `String(e)`), or read back before. */
function followError(a: Analysis, created: Node, around: Set<string>, w: Walk, depth: number): void {
  followHolder(a, created, ["message"], [], {
    thrown: (t) => {
      // The catches around the site's call see the error only where it is thrown while that call or its function runs.
      const site = thrownFromSite(a, t.thrown, w.site) ? catchersOf(a, w.site, true) : [];
      for (const h of new Set([...catchersOf(a, t.thrown, false), ...site])) followCaught(a, h, around, w, depth + 1);
    },
    body: (n) => followText(a, n, around, w, depth + 1),
    lost: () => {},
    returns: true,
  });
}

/**
 * Whether an error thrown at `thrown` can rise out of the site's call or its function: it is thrown
 * there, or in a function called from there (up to three calls down). A throw in another function
 * that merely reads the same kind of answer (another send of the same operation) reaches only its own catches.
 */
function thrownFromSite(a: Analysis, thrown: Node, site: Node): boolean {
  const home = enclosingFunction(site);
  let fns = [enclosingFunction(thrown)];
  const seen = new Set<Node>();
  for (let level = 0; level <= 3 && fns.length; level++) {
    if (fns.some((f) => f === home || (!Node.isSourceFile(f) && f.containsRange(site.getPos(), site.getEnd())))) return true;
    fns.forEach((f) => seen.add(f));
    fns = fns.flatMap((f) => (isFunctionLike(f) ? callersOf(a, f).map((c) => enclosingFunction(c)) : [])).filter((f) => !seen.has(f));
  }
  return false;
}

/** A caught error whose message is the text: `e.message`, `String(e)`, `${e}`, through the project's functions it is handed to. */
function followCaught(a: Analysis, holder: Node, around: Set<string>, w: Walk, depth: number): void {
  const key = keyOf(holder, "error");
  if (depth > MAX_DEPTH || w.seen.has(key)) return;
  w.seen.add(key);
  const text = (n: Node) => followText(a, n, around, w, depth + 1);
  if (Node.isObjectBindingPattern(holder)) {
    for (const el of holder.getElements()) if ((el.getPropertyNameNode()?.getText() ?? el.getName()) === "message") text(el.getNameNode());
    return;
  }
  if (!Node.isIdentifier(holder) || !isDeclarationName(holder)) return;
  for (const r of referencesOf(declarationScope(holder), holder)) {
    const outer = skipParens(r);
    const p = outer.getParent();
    if (!p) continue;
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      const c = p.getParent();
      if (p.getName() === "message") text(p);
      else if (p.getName() === "toString" && c && Node.isCallExpression(c)) text(c);
    } else if (Node.isAsExpression(p)) {
      const up = skipParens(p).getParent();
      if (up && Node.isPropertyAccessExpression(up) && up.getName() === "message") text(up);
    } else if (Node.isTemplateSpan(p) || (Node.isCallExpression(p) && unwrapExpression(p.getExpression()).getText() === "String")) text(outer);
    else if (Node.isCallExpression(p)) {
      const to = handedTo(a, outer);
      if (to?.kind === "param") followCaught(a, to.name, around, w, depth + 1);
    } else if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) followCaught(a, p.getNameNode(), around, w, depth + 1);
  }
}

/** The text a literal compares: a string, a template without holes, a regular expression's source, or a `const` holding one. */
function literalOf(n: Node): string | undefined {
  const u = unwrapExpression(n);
  if (Node.isStringLiteral(u) || Node.isNoSubstitutionTemplateLiteral(u)) return u.getLiteralValue();
  if (Node.isRegularExpressionLiteral(u)) return u.getLiteralText().replace(/^\/|\/[a-z]*$/g, "").replace(/\\./g, " ");
  if (Node.isIdentifier(u)) {
    const b = resolveIdentifier(u);
    return b?.kind === "var" && b.isConst && !b.path.length && b.init && !Node.isIdentifier(unwrapExpression(b.init)) ? literalOf(b.init) : undefined;
  }
  return undefined;
}
