// Do no harm: a v1 base flips to v2 only when every use of it is accounted for, that is, it
// reaches a call site the engine planned (rewritten, or marked with its problem). Uses are
// followed through variables, class fields, constructor assignments, config-object properties,
// library instances, exports/imports and request helpers (whose own uses are their callers, and
// a factory's are the callers of what it returns). A base with a use that cannot be followed
// stays v1, gets a mark listing those uses, and every site that depends on it keeps v1 too,
// marked, so nothing sends v1 paths to v2 or v2 paths to v1.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { V2_BASE } from "../../mappings/bases.ts";
import { enclosingFunction, isFunctionLike } from "../scope.ts";
import type { Analysis, BaseSource, Site } from "./state.ts";
import { addFinding } from "./state.ts";
import { todo } from "./todo-marks.ts";
import { functionName, references } from "./references.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "../urls.ts";

type Verdict = { flips: boolean; unfollowed: Node[]; because?: string };

const WRAPPERS = new Set([SyntaxKind.ParenthesizedExpression, SyntaxKind.AsExpression, SyntaxKind.NonNullExpression, SyntaxKind.SatisfiesExpression, SyntaxKind.TypeAssertionExpression, SyntaxKind.AwaitExpression]);

class Follower {
  private readonly helperMemo = new Map<Node, boolean>();
  /** Expressions that take precedence over the followed value (`opts.baseUrl ?? BASE`). */
  overrides = new Set<string>();
  /** Values this base gives as an option to a client or function (`new Client({ baseUrl })`). */
  passedOptions: { holder: Node; key: string; at: Node }[] = [];
  /** Each URL part inside a request helper → the helpers it belongs to (indexed once: looked up per followed use). */
  private readonly helperOf = new Map<Node, Node[]>();

  constructor(private readonly a: Analysis) {
    for (const [fn, parts] of a.helperParts) for (const part of parts) this.helperOf.set(part, [...(this.helperOf.get(part) ?? []), fn]);
  }

  accounted(node: Node): boolean {
    if (this.a.accounted.has(node)) return true;
    return (this.helperOf.get(node) ?? []).some((fn) => this.helperClosed(fn));
  }

  /** Every call of a helper was planned (its callers are the sites). */
  helperClosed(fn: Node): boolean {
    const memo = this.helperMemo.get(fn);
    if (memo !== undefined) return memo;
    this.helperMemo.set(fn, false);
    const closed = this.helperUses(fn).length === 0;
    this.helperMemo.set(fn, closed);
    return closed;
  }

  /** The uses of a helper that are not planned calls. */
  helperUses(fn: Node): Node[] {
    const out: Node[] = [];
    const named = (fn as any).getNameNode?.() as Node | undefined;
    if ((Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) && named) {
      for (const r of references(named)) this.follow(r, out, new Set(), 0);
    } else this.follow(fn, out, new Set(), 0);
    return out;
  }

  /** Collects the uses of a value that no planned site accounts for. */
  follow(value: Node, out: Node[], seen: Set<Node>, depth: number): void {
    if (seen.has(value)) return;
    seen.add(value);
    if (this.accounted(value)) return;
    if (depth > 10) return void out.push(value);
    let outer = value;
    for (;;) {
      const p = outer.getParent();
      if (!p) break;
      if (WRAPPERS.has(p.getKind())) outer = p;
      else if (Node.isBinaryExpression(p) && ["??", "||"].includes(p.getOperatorToken().getText())) {
        if (p.getRight() === outer) this.overrides.add(p.getLeft().getText().replace(/\s+/g, " "));
        outer = p;
      }
      else if (Node.isConditionalExpression(p) && p.getCondition() !== outer) outer = p;
      else break;
      if (this.accounted(outer)) return;
    }
    const p = outer.getParent();
    if (!p) return void out.push(value);
    const each = (refs: Node[]) => refs.forEach((r) => this.follow(r, out, seen, depth + 1));
    if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
      const name = p.getNameNode();
      return Node.isIdentifier(name) ? each(references(name)) : void out.push(outer);
    }
    if ((Node.isPropertyDeclaration(p) || Node.isParameterDeclaration(p)) && p.getInitializer() === outer) return each(references(p.getNameNode()));
    if (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && p.getRight() === outer) {
      const left = p.getLeft();
      const nameNode = Node.isPropertyAccessExpression(left) ? left.getNameNode() : Node.isIdentifier(left) ? left : undefined;
      const text = left.getText().replace(/\s/g, "");
      if (/^(module\.)?exports(\.|$)/.test(text)) return void out.push(outer);
      return nameNode ? each(references(nameNode)) : void out.push(outer);
    }
    if ((Node.isPropertyAssignment(p) && p.getInitializer() === outer) || (Node.isShorthandPropertyAssignment(p) && p.getNameNode() === outer)) {
      // The object literal, through `as const` / `satisfies` / parentheses, to what holds it.
      let obj: Node | undefined = p.getParent();
      while (obj && obj.getParent() && WRAPPERS.has(obj.getParent()!.getKind())) obj = obj.getParent();
      const holder = obj && obj.getParent();
      if (holder && Node.isVariableDeclaration(holder) && holder.getInitializer() === obj) return each(references(p.getNameNode()));
      // A library instance's config (`axios.create({ baseURL })`): the instance's uses.
      if (holder && (Node.isCallExpression(holder) || Node.isNewExpression(holder)) && this.accounted(outer)) return this.follow(holder, out, seen, depth + 1);
      // An option given to a client (`new Client({ baseUrl: "…/v1" })`): the client's own default
      // for that option (`opts.baseUrl ?? DEFAULT`) must not flip while this value stays v1.
      if (holder && (Node.isCallExpression(holder) || Node.isNewExpression(holder))) this.passedOptions.push({ holder, key: p.getName(), at: outer });
      return void out.push(outer);
    }
    if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) {
      const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : p;
      return this.callers(fn, out, seen, depth);
    }
    if (Node.isExportAssignment(p)) return void out.push(outer);
    out.push(outer);
  }

  /** The value a function returns goes to each of its call expressions. */
  private callers(fn: Node, out: Node[], seen: Set<Node>, depth: number): void {
    if (!isFunctionLike(fn)) return void out.push(fn);
    const holder = fn.getParent();
    if (holder && Node.isArrowFunction(holder) && holder.getBody() === fn) return this.callers(holder, out, seen, depth + 1);
    const name = functionName(fn);
    if (!name) return void out.push(fn);
    for (const r of references(name)) {
      const call = r.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === r) this.follow(call, out, seen, depth + 1);
      else out.push(r);
    }
  }
}

/** Base literals a called class or function falls back to for an option (`opts.<key> ?? BASE`). */
function defaultsFor(a: Analysis, holder: Node, key: string): Node[] {
  const callee = unwrapExpression((holder as any).getExpression());
  let target: Node | undefined;
  if (Node.isIdentifier(callee)) {
    const b = bind(a, callee);
    if (b?.kind === "function") target = b.decl;
    else if (b?.kind === "var" && b.init) target = unwrapExpression(b.init);
  }
  if (!target) return [];
  const out: Node[] = [];
  for (const bin of target.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    if (!["??", "||"].includes(bin.getOperatorToken().getText())) continue;
    const left = unwrapExpression(bin.getLeft());
    const name = Node.isPropertyAccessExpression(left) ? left.getName() : Node.isIdentifier(left) ? left.getText() : undefined;
    if (name !== key) continue;
    const right = unwrapExpression(bin.getRight());
    const lit = Node.isStringLiteral(right) || Node.isNoSubstitutionTemplateLiteral(right) ? right : a.baseSource.get(right) ?? sourceOfName(a, right);
    if (lit && a.bases.has(lit)) out.push(lit);
  }
  return out;
}

function sourceOfName(a: Analysis, node: Node): Node | undefined {
  if (!Node.isIdentifier(node)) return undefined;
  const b = bind(a, node);
  const init = b?.kind === "var" && b.init ? unwrapExpression(b.init) : undefined;
  return init && (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init)) ? init : undefined;
}

function where(n: Node): string {
  const sf = n.getSourceFile();
  return `${sf.getBaseName()}:${sf.getLineAndColumnAtPos(n.getStart()).line}`;
}

/** Decides which bases flip, applies the edits that may be applied, and marks the rest. */
export function resolveDoNoHarm(a: Analysis): void {
  const follower = new Follower(a);
  const verdicts = new Map<Node, Verdict>();
  const unseen = new Map<Node, string[]>();
  const passedOf = new Map<Node, { holder: Node; key: string; at: Node }[]>();
  for (const base of a.bases.values()) {
    const out: Node[] = [];
    follower.overrides = new Set();
    follower.passedOptions = [];
    if (base.helper) out.push(...follower.helperUses(base.helper));
    else follower.follow(base.literal, out, new Set(), 0);
    // A base the run cannot write, or that files it could not read import, stays v1.
    const baseFile = base.literal.getSourceFile().getFilePath();
    if (a.frozen.has(baseFile)) out.push(base.literal);
    for (const by of a.blocked.get(baseFile) ?? []) unseen.set(base.literal, [...(unseen.get(base.literal) ?? []), by]);
    if (unseen.has(base.literal)) out.push(base.literal);
    const overrides = [...follower.overrides].filter((o) => o !== base.env);
    if (!base.override && overrides.length) base.override = overrides.join(", ");
    verdicts.set(base.literal, { flips: out.length === 0, unfollowed: out });
    passedOf.set(base.literal, follower.passedOptions);
  }
  // A base that stays v1 and is given to a client as an option keeps that client's default v1 too.
  for (const base of a.bases.values()) {
    const verdict = verdicts.get(base.literal)!;
    if (verdict.flips) continue;
    for (const passed of passedOf.get(base.literal) ?? []) {
      for (const other of defaultsFor(a, passed.holder, passed.key)) {
        const v = verdicts.get(other);
        if (v?.flips) verdicts.set(other, { flips: false, unfollowed: [passed.at], because: `a caller gives the v1 base for the same option (${where(passed.at)}), which stays v1` });
      }
    }
  }
  // A site on a base that stays v1 stays v1 itself: its rewrite is dropped and it is marked.
  for (const site of a.sites) {
    const stuck = [...site.deps].filter((d) => verdicts.get(d)?.flips === false || !verdicts.has(d));
    const frozenEdit = site.edits.find((e) => a.frozen.has(e.file!));
    if (frozenEdit && site.finding) {
      site.finding.category = site.finding.category === "no-equivalent" ? "no-equivalent" : "review";
      site.finding.reason = `${site.finding.reason}; kept on v1: ${a.frozen.get(frozenEdit.file!)}`;
      site.complete = false;
      todo(a, site.call, site.finding.operation ?? "base", site.finding.category, `kept on v1: ${a.frozen.get(frozenEdit.file!)}`, "make the file writable or pass --force, then run rewrite again");
      continue;
    }
    if (!stuck.length) {
      for (const e of site.edits) a.files.get(e.file!)?.edits.push(e);
      continue;
    }
    if (!site.finding) continue;
    const names = stuck.map((d) => `${where(d)} ${(d as any).getText?.() ?? ""}`.trim()).join(", ");
    const reason = `kept on v1: its base (${names}) stays v1 because some of its uses could not be followed`;
    const advice = `migrate the base and every call that uses it together (see the mark on the base), then use the v2 base ${V2_BASE}`;
    site.finding.category = site.finding.category === "no-equivalent" ? "no-equivalent" : "review";
    site.finding.reason = site.complete ? reason : `${site.finding.reason}; ${reason}`;
    site.finding.advice = site.complete ? advice : `${site.finding.advice}; ${advice}`;
    site.complete = false;
    todo(a, site.call, site.finding.operation ?? "base", site.finding.category, reason, advice);
  }
  for (const base of a.bases.values()) flipOrMark(a, base, verdicts.get(base.literal)!, unseen.get(base.literal), a.frozen.get(base.literal.getSourceFile().getFilePath()));
}

function flipOrMark(a: Analysis, base: BaseSource, verdict: Verdict, unseenBy: string[] | undefined, frozen: string | undefined): void {
  if (!verdict.flips && (unseenBy || frozen)) {
    const reason = frozen ? `v1 base kept: ${frozen}` : `v1 base kept: files the codemod could not analyse import this module (${unseenBy!.join(", ")})`;
    const advice = frozen ? "make the file writable or pass --force, then run rewrite again" : "make those files readable UTF-8 under --max-file-size (or migrate them by hand), then run again";
    todo(a, base.literal, "base", "review", reason, advice);
    addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice });
    return;
  }
  if (verdict.flips) {
    base.file.edits.push(...base.flip);
    if (base.env) {
      const name = `${base.env}_V2`;
      const reason = `the v2 base is now read from ${name}, not ${base.env}: deployments set ${base.env} to the v1 API or to a gateway's /v1, and v2 paths sent there fail`;
      const advice = `set ${name} to ${V2_BASE} (or leave it unset) wherever ${base.env} is configured, then remove ${base.env}`;
      todo(a, base.literal, "base", "review", reason, advice);
      addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice });
    }
    if (base.override) {
      const list = base.override.split(", ");
      const reason = `the v2 base applies only when ${list.length > 1 ? `none of ${list.join(", ")} is set` : `${list[0]} is not set`}: a caller that passes the v1 base (or a gateway's /v1) there now sends v2 paths to v1`;
      const advice = `make sure every value given to ${base.override} is the v2 base ${V2_BASE} (or none)`;
      todo(a, base.literal, "base", "review", reason, advice);
      addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice });
    }
    return;
  }
  const uses = verdict.unfollowed.slice(0, 8).map((u) => `${where(u)} (${u.getText().replace(/\s+/g, " ").slice(0, 40)})`);
  const more = verdict.unfollowed.length > 8 ? ` and ${verdict.unfollowed.length - 8} more` : "";
  const reason = verdict.because ? `v1 base kept: ${verdict.because}` : `v1 base kept: the codemod could not follow ${verdict.unfollowed.length === 1 ? "this use" : "these uses"} to a v1 call: ${uses.join(", ")}${more}`;
  const advice = `migrate those calls by hand (v2 paths, bodies and answers: docs/mapping.md), then switch this base to ${V2_BASE}`;
  todo(a, base.literal, "base", "review", reason, advice);
  addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice });
}

export type { Site };
