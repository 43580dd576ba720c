// Do no harm: a v1 base flips to v2 only when every use of it is accounted for, that is, it
// reaches a call site the engine planned (rewritten, or marked with its problem). Uses are
// followed through variables, class fields, constructor assignments, config-object properties,
// library instances, exports/imports and request helpers (whose own uses are their callers, and
// a factory's are the callers of what it returns). A base with a use that cannot be followed
// stays v1, gets a mark listing those uses, and every site that depends on it keeps v1 too,
// marked, so nothing sends v1 paths to v2 or v2 paths to v1.
import { actionInputDefault, keepInputsTogether } from "./action-inputs.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { V2_BASE } from "../../mappings/bases.ts";
import type { Analysis, Site } from "./state.ts";
import type { Edit } from "../types.ts";
import { addEdit, addFinding } from "./state.ts";
import { todo, todoAll } from "./todo-marks.ts";
import { byRisk, keepProblems } from "./mark-problems.ts";
import type { Problem, Problems } from "./rewrites/problems.ts";
import { propertyWrites } from "./property-writes.ts";
import { Follower } from "./follow-uses.ts";
import { V1_BASE_NAME } from "./v1-redirect.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { outOfSightCaller, strayCaller } from "./record-callees.ts";
import { isTestFile } from "./test-files.ts";
import { statementOf } from "./nodes.ts";
import { keptV1CallAt } from "./kept-v1-calls.ts";
import { references } from "./references.ts";
import { holdKey, keepHeldSites } from "./site-holds.ts";
import { renamedFieldLeftBehind } from "./renamed-type-uses.ts";
import { unheldWrite } from "./reassigned-records.ts";
import { flipOrMark, where, type Verdict } from "./base-verdict.ts";
import { pinTestedBases, widenTests } from "./prefix-tests.ts";
import { applyRedirect, declareFallbacks, usableRedirect, type Fallbacks } from "./kept-redirects.ts";


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

/** Decides which bases flip, applies the edits that may be applied, and marks the rest. */
export function resolveDoNoHarm(a: Analysis): void {
  keepHeldSites(a, a.holds);
  const follower = new Follower(a);
  const verdicts = new Map<Node, Verdict>();
  const unseen = new Map<Node, string[]>();
  const unseenUsesOf = new Map<Node, string[]>();
  const passedOf = new Map<Node, { holder: Node; key: string; at: Node }[]>();
  const testBases = new Map<Node, Node[]>();
  for (const base of a.bases.values()) {
    const out: Node[] = [];
    follower.overrides = new Set();
    follower.setters = [];
    follower.passedOptions = [];
    follower.tests = [];
    follower.literal = base.literal;
    if (base.helper) out.push(...follower.helperUses(base.helper));
    else follower.follow(base.literal, out, new Set<string>(), 0);
    // v1 route paths the recall net counted in modules of this base's client: sent on it, unfollowed
    // (named in the base's mark only when nothing else keeps it v1; each has a mark of its own).
    for (const [path, files] of out.length ? [] : a.netUses ?? []) {
      if (!files.has(base.literal.getSourceFile().getFilePath())) continue;
      follower.why.set(path, "a v1 route path not tied to a call the codemod can follow");
      out.push(path);
    }
    // A base the run cannot write, or that files it could not read import, stays v1.
    const baseFile = base.literal.getSourceFile().getFilePath();
    if (a.frozen.has(baseFile)) out.push(base.literal);
    for (const by of a.blocked.get(baseFile) ?? []) unseen.set(base.literal, [...(unseen.get(base.literal) ?? []), by]);
    const unseenUses = a.unseenUses.get(baseFile);
    if (unseenUses) unseenUsesOf.set(base.literal, unseenUses);
    if (unseen.has(base.literal) || unseenUses) out.push(base.literal);
    // Assignments to the property holding it (`OpenAPI.BASE = process.env.X`) take precedence too.
    const written = propertyWrites(a, base.literal);
    for (const w of written.nodes) follower.overrideBy(w);
    for (const t of written.texts) follower.overrides.add(t);
    // What the evaluator saw can override the base at run time (an environment variable behind a schema default).
    // The base's own variable (`process.env.X ?? "…/v1"`) is renamed with it: not an override.
    const own = (o: string) => !!base.env && (o === base.env || o === `the environment variable ${base.env.split(".").pop()}`);
    const evaluated = [...(a.overrides.get(base.literal) ?? [])].filter((o) => o.startsWith("the environment variable") && !own(o));
    // The sites' own evaluation has each call's arguments bound (`process.env[key]` of `setting("RUNPOD_API_URL")`):
    // where it names the environment variables, the follower's reading without them is left out.
    const followed = [...follower.overrides].filter((o) => !own(o) && (!evaluated.length || !o.startsWith("the environment variable")));
    const overrides = [...new Set([...followed, ...evaluated])];
    if (!base.override && overrides.length) base.override = overrides.join(", ");
    base.setBy = follower.setters;
    // A test's own base, whose only unfollowed uses are the test's (mocks, expectations): it flips
    // with the code under test, and its mark says the test must move to v2 shapes too.
    const testBase = out.length > 0 && isTestFile(a, base.literal) && out.every((n) => isTestFile(a, n));
    if (testBase) testBases.set(base.literal, out);
    verdicts.set(base.literal, { flips: out.length === 0 || testBase, unfollowed: testBase ? [] : out, why: follower.why, tests: follower.tests });
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
  // An action input whose action.yml default is the v1 base wins over the code's default: it moves
  // to v2 with the base (renamed), or keeps the base v1 (action-inputs.ts).
  for (const base of a.bases.values()) {
    const input = actionInputDefault(a, base);
    if (input?.input) base.input = input.input;
    if (input?.stuck && verdicts.get(base.literal)!.flips) verdicts.set(base.literal, { flips: false, unfollowed: [], because: input.stuck });
  }
  for (const base of a.bases.values()) if (base.pinned) verdicts.set(base.literal, { flips: false, unfollowed: [], because: "the declared v1 base of marked calls" });
  for (const base of a.bases.values()) {
    const held = a.holds?.bases.get(holdKey(base.literal));
    if (held) verdicts.set(base.literal, { flips: false, unfollowed: [], because: held.why });
  }
  do pinBasesOfMarkedCalls(a, verdicts);
  while (keepInputsTogether(a, verdicts));
  const fallbacks: Fallbacks = new Map();
  const redirected: Edit[] = [];
  for (const site of a.sites) settleSite(a, site, verdicts, fallbacks, redirected);
  declareFallbacks(fallbacks);
  for (const base of a.bases.values()) {
    // A base written inside the expression a kept call's redirect replaces (`${env.X ?? "…/v1"}/pods`
    // → `${RUNPOD_V1_BASE}/pods`) served that call alone: it is gone, nothing flips or is marked.
    if (base.flip.length && base.flip.every((f) => redirected.some((r) => replaces(r, f)))) continue;
    flipOrMark(a, base, verdicts.get(base.literal)!, unseen.get(base.literal), a.frozen.get(base.literal.getSourceFile().getFilePath()), unseenUsesOf.get(base.literal));
  }
  for (const [literal, uses] of testBases) {
    if (!verdicts.get(literal)?.flips) continue;
    const reason = `this test's client now calls v2: its mocked answers and expectations on records (${uses.slice(0, 3).map(where).join(", ")}${uses.length > 3 ? ", …" : ""}) are in v1 shape`;
    const advice = "update the mocked answers and expectations to v2 paths, bodies and records (docs/mapping.md)";
    todo(a, literal, "base", "review", reason, advice);
    addFinding(a, literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
  }
}

/**
 * A marked call is left whole. When a base it shares flips, the call keeps v1 through its own
 * declared v1 base; where that cannot be written (the base is an instance's or a helper's), the
 * base stays v1 for every call on it. Repeated until nothing changes: a call kept on v1 that way
 * is marked too, and pins its other bases.
 */
function pinBasesOfMarkedCalls(a: Analysis, verdicts: Map<Node, Verdict>): void {
  for (let changed = true; changed; ) {
    changed = false;
    // A call that would rename a field of a type that a call staying v1 is typed through stays v1 too.
    for (const site of a.sites) {
      if (!site.finding || !site.complete || staysV1(site, verdicts)) continue;
      const reason = sharedTypeConflict(a, site, verdicts);
      if (!reason) continue;
      if (takeAdapterRoute(site)) {
        changed = true;
        continue;
      }
      site.complete = false;
      site.finding.category = site.finding.category === "no-equivalent" ? "no-equivalent" : "review";
      site.finding.reason = reason;
      site.finding.advice = "migrate both calls together, or give each its own record type";
      keepProblems(site.finding, [{ reason, advice: site.finding.advice }]);
      todo(a, site.call, site.finding.operation ?? "base", site.finding.category, reason, site.finding.advice);
      changed = true;
    }
    for (const site of a.sites) {
      // A site the run may not write (a read-only or conflicting file) stays v1 as it is: its bases too.
      const frozen = a.frozen.has(site.file?.sf.getFilePath() ?? site.call.getSourceFile().getFilePath()) || site.edits.some((e) => a.frozen.has(e.file));
      const stuck = [...site.deps].some((d) => verdicts.get(d)?.flips === false || !verdicts.has(d));
      // A call that would migrate but one of its bases stays v1 keeps every base it has on v1 (it
      // cannot move for one caller and not another); a marked call with a redirect keeps v1 on its own.
      const keptWhole = site.finding && site.complete && stuck;
      // A marked call moving to a v1 base of its own would escape the base's URL tests (prefix-tests.ts).
      if (!frozen && site.finding && !site.complete && site.whole && usableRedirect(a, site) && pinTestedBases(a, site, verdicts)) changed = true;
      if (!frozen && !keptWhole && (!site.finding || usableRedirect(a, site) || !site.whole)) continue;
      if (!frozen && site.complete && !stuck) continue;
      for (const d of site.deps) {
        if (verdicts.get(d)?.flips !== true) continue;
        verdicts.set(d, { flips: false, unfollowed: [site.call], because: `a call on it that stays v1 (${where(site.call)}) cannot be given a base of its own${site.noRedirect ? `: ${site.noRedirect}` : ""}` });
        changed = true;
      }
    }
  }
}

/** Why a site's type renames (or renamed reads in a function it hands its record to) would break a call that stays v1, if they would. */
function sharedTypeConflict(a: Analysis, site: Site, verdicts: Map<Node, Verdict>): string | undefined {
  if (!site.typeRenames?.size) return undefined;
  for (const d of site.typeRenames) {
    if (!Node.isVariableDeclaration(d)) continue;
    const write = unheldWrite(d, a.sites, (s) => !!s.finding && s.complete && !staysV1(s, verdicts) && !s.keepsV1Record);
    if (write) return `${d.getName()} (${where(d)}) holds its record and is also given ${write.getText().slice(0, 40)} (${where(write)}), which does not migrate with it`;
  }
  for (const d of site.typeRenames) {
    if (!Node.isParameterDeclaration(d)) continue;
    const stray = strayCaller(a, d, references);
    if (stray) return `${readerName(d)} reads its record, and is also used where the codemod cannot follow what it is given (${where(stray)})`;
    const outside = outOfSightCaller(d, references);
    if (outside) return `${readerName(d)} reads its record and is exported: ${outside}`;
  }
  for (const other of a.sites) {
    // A call migrated through the adapter hands on v1 records too.
    if (other === site || !other.finding || !other.typeUses?.size || !(staysV1(other, verdicts) || other.keepsV1Record)) continue;
    const decl = [...site.typeRenames].find((d) => other.typeUses!.has(d));
    const whose = other.keepsV1Record && !staysV1(other, verdicts) ? "a call whose record the adapter keeps in v1 shape" : "a call that stays v1";
    if (decl && Node.isParameterDeclaration(decl)) return `${readerName(decl)} reads its record and a record of ${whose} (${where(other.call)})`;
    if (decl) return `its record type's field ${(decl as any).getName?.() ?? decl.getText()} is shared with ${whose} (${where(other.call)})`;
  }
  // The renamed type named in the statement of a call that stays v1 (`req<Template[]>(…)`,
  // `const all: Template[] = await …`): that call's record would be retyped as v2 while it stays v1.
  for (const d of site.typeRenames) {
    const owner = d.getParent();
    const alias = owner?.getParent();
    const name = Node.isInterfaceDeclaration(owner) ? owner.getNameNode() : Node.isTypeLiteral(owner) && Node.isTypeAliasDeclaration(alias) ? alias.getNameNode() : undefined;
    if (!name || !Node.isPropertySignature(d)) continue;
    // Only a field this site's edits change (a read of `name`, the same in v2, retypes nothing).
    const path = d.getSourceFile().getFilePath();
    if (!site.edits.some((e) => e.file === path && e.start >= d.getStart() && e.end <= d.getEnd() && e.text !== e.old)) continue;
    const refs = references(name);
    for (const other of a.sites) {
      if (other === site || !other.finding || !(staysV1(other, verdicts) || other.keepsV1Record)) continue;
      const statement = other.call.getFirstAncestor((n) => Node.isStatement(n));
      if (!statement || !refs.some((r) => r.getSourceFile() === statement.getSourceFile() && r.getStart() >= statement.getStart() && r.getEnd() <= statement.getEnd())) continue;
      const whose = other.keepsV1Record && !staysV1(other, verdicts) ? "a call whose record the adapter keeps in v1 shape" : "a call that stays v1";
      return `its record type ${name.getText()} (field ${d.getName()}) also types the record of ${whose} (${where(other.call)})`;
    }
    // A call an earlier run kept on the declared v1 base is no site of this run, and stays v1 all the same.
    const sites = new Set(a.sites.map((s) => statementOf(s.call)));
    for (const r of refs) {
      const kept = keptV1CallAt(r);
      if (kept && !sites.has(statementOf(kept))) return `its record type ${name.getText()} (field ${d.getName()}) also types the record of a call that stays v1 (${where(kept)})`;
    }
  }
  // A use of a renamed field that no applying site rewrites to the same name (another module's reads,
  // a literal of the type). The site's own edits go with it: they count even when its base is kept.
  return renamedFieldLeftBehind(a, site, (s) => s === site || (s.complete && !staysV1(s, verdicts)));
}

function readerName(param: Node): string {
  const fn = param.getParent()!;
  const name = (fn as any).getName?.() ?? (fn.getParent() as any)?.getName?.() ?? "a function";
  return `${name}(${(param as any).getName?.() ?? "…"}) at ${where(fn)}`;
}

/** A site whose renamed type is shared with a v1-shaped record migrates through the adapter instead, keeping the type v1. */
function takeAdapterRoute(site: Site): boolean {
  const route = site.adapterRoute;
  if (!route) return false;
  site.adapterRoute = undefined;
  site.edits = route.edits;
  site.typeRenames = route.typeRenames;
  site.onApply = route.onApply;
  site.keepsV1Record = true;
  for (const d of route.uses) (site.typeUses ??= new Set()).add(d);
  return true;
}

/** Whether a site stays v1: marked (left whole), or on a base that does not flip. */
function staysV1(site: Site, verdicts: Map<Node, Verdict>): boolean {
  if (!site.complete && site.whole) return true;
  return [...site.deps].some((d) => verdicts.get(d)?.flips === false || !verdicts.has(d));
}

/** What happens to one site: its rewrite applies, or it stays whole on v1 (redirected or with its base), marked. */
function settleSite(a: Analysis, site: Site, verdicts: Map<Node, Verdict>, fallbacks: Fallbacks, redirected: Edit[]): void {
  const stuck = [...site.deps].filter((d) => verdicts.get(d)?.flips === false || !verdicts.has(d));
  const frozenEdit = site.edits.find((e) => a.frozen.has(e.file));
  if (frozenEdit && site.finding) {
    site.finding.category = site.finding.category === "no-equivalent" ? "no-equivalent" : "review";
    const frozen = a.frozen.get(frozenEdit.file)!;
    site.finding.reason = `${site.finding.reason}; kept on v1: ${frozen.why}`;
    site.finding.advice = frozen.advice;
    site.complete = false;
    const kept = { reason: `kept on v1: ${frozen.why}`, advice: frozen.advice, risk: "elsewhere" as const };
    keepProblems(site.finding, [kept]);
    todoAll(a, site.call, site.finding.operation ?? "base", site.finding.category, withCautions(site, kept));
    return;
  }
  if (site.finding && !site.complete && site.whole) {
    // Marked: left whole, on its own v1 base when the base it had flips (or is inline).
    const flips = [...site.deps].some((d) => verdicts.get(d)?.flips === true);
    if (usableRedirect(a, site) && (flips || site.deps.size === 0) && !a.frozen.has(site.file.sf.getFilePath())) {
      redirected.push(...applyRedirect(a, site, fallbacks));
      widenTests(a, site, verdicts, fallbacks);
    }
    return;
  }
  if (!stuck.length) {
    const c = site.cautions;
    if (c?.length && site.finding) todoAll(a, site.call, site.finding.operation ?? "base", site.finding.category, c);
    for (const e of site.edits) addEdit(a, e);
    site.onApply?.();
    site.applied = true;
    return;
  }
  if (!site.finding) return;
  const pinned = stuck.filter((d) => a.bases.get(d)?.pinned);
  if (pinned.length === stuck.length) {
    const shared = sharedTypeConflict(a, site, verdicts);
    if (shared && !takeAdapterRoute(site)) return markKept(a, site, shared, "migrate both calls together, or give each its own record type");
    const reason = `the call is on ${V1_BASE_NAME}, the base kept for calls in v1 shape, and needs nothing else`;
    const advice = `replace ${V1_BASE_NAME} here with the v2 base ${V2_BASE} and run rewrite again`;
    markKept(a, site, reason, advice);
    return;
  }
  const names = stuck.map((d) => `${where(d)} ${(d as any).getText?.() ?? ""}`.trim()).join(", ");
  const because = stuck.map((d) => verdicts.get(d)?.because).find((b) => b) ?? "some of its uses could not be followed";
  const reason = `kept on v1: its base (${names}) stays v1 because ${because}`;
  const advice = `migrate the base and every call that uses it together (see the mark on the base), then use the v2 base ${V2_BASE}`;
  markKept(a, site, reason, advice);
}

function markKept(a: Analysis, site: Site, reason: string, advice: string): void {
  const finding = site.finding!;
  finding.category = finding.category === "no-equivalent" ? "no-equivalent" : "review";
  const cautioned = site.complete && !!site.cautions?.length;
  finding.reason = site.complete && !cautioned ? reason : `${finding.reason}; ${reason}`;
  finding.advice = site.complete && !cautioned ? advice : `${finding.advice}; ${advice}`;
  site.complete = false;
  const kept = { reason, advice, risk: "elsewhere" as const };
  keepProblems(finding, [kept]);
  todoAll(a, site.call, finding.operation ?? "base", finding.category, withCautions(site, kept));
}

/** A "kept on v1" problem, after the cautions of the site (one mark per site). */
function withCautions(site: Site, kept: Problem): Problems {
  return byRisk([...(site.cautions ?? []), kept]);
}

/** Whether edit `outer` replaces the whole text `inner` edits (and does not keep it, so `inner` has nothing left to edit). */
function replaces(outer: Edit, inner: Edit): boolean {
  return outer.file === inner.file && outer.start <= inner.start && inner.end <= outer.end && outer !== inner && (outer.start < inner.start || inner.end < outer.end) && !outer.text.includes(inner.old);
}

export type { Site };
