// A base compared against a URL (`req.url.startsWith(environment.runpodApi)` in an HTTP
// interceptor, `url.includes(BASE)`) sends nothing: it is not a use that
// keeps the base on v1. After the flip the test compares against the v2 base, which the migrated
// calls use, so it still matches them. It would no longer match a call kept on v1 on a base of its
// own (`RUNPOD_V1_BASE`). Where the test's answer only chooses the request's headers (an
// interceptor adding the key: header-choice.ts) and its form is known (`u.startsWith(base)`,
// `u.includes(base)`), it is widened to match the kept call's base too
// (`(u.startsWith(base) || u.startsWith(RUNPOD_V1_BASE))`), so the kept call keeps its headers and
// the base flips; any other test keeps the whole base v1, and the mark says why.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis, Site } from "./state.ts";
import { addEdit } from "./state.ts";
import { where, type Verdict } from "./base-verdict.ts";
import { shortExpression } from "./expression-name.ts";
import { choosesHeadersOnly } from "./header-choice.ts";
import { replaceNode } from "./text-edit.ts";
import { V1_BASE_NAME } from "./v1-redirect.ts";
import { declareNames, keptCallEnvs, type Fallbacks } from "./kept-redirects.ts";

const TESTS = new Set(["startsWith", "endsWith", "includes", "indexOf", "lastIndexOf"]);

/** The test the value takes part in (`x.startsWith(value)` or `value.startsWith(x)`), if it is one. */
export function prefixTest(outer: Node): Node | undefined {
  const p = outer.getParent();
  if (!p) return undefined;
  // `value.startsWith(x)`.
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer && TESTS.has(p.getName())) {
    const call = p.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== p) return undefined;
    givenValue.delete(call);
    receiverValue.add(call);
    return call;
  }
  // `x.startsWith(value)`.
  if (Node.isCallExpression(p) && p.getArguments()[0] === outer) {
    const callee = p.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !TESTS.has(callee.getName())) return undefined;
    if (callee.getExpression() !== outer && !receiverValue.has(p)) givenValue.add(p);
    return p;
  }
  return undefined;
}

/** Tests found with a base's value as their argument (`x.startsWith(value)`), and never as their receiver. */
const givenValue = new WeakSet<Node>();
const receiverValue = new WeakSet<Node>();

/**
 * A marked call kept on a v1 base of its own: each base it leaves that is tested keeps v1 instead,
 * unless every test of it can be widened to match the call's own base (true when one changed).
 */
export function pinTestedBases(a: Analysis, site: Site, verdicts: Map<Node, Verdict>): boolean {
  let changed = false;
  for (const d of site.deps) {
    const v = verdicts.get(d);
    if (!v?.flips || !v.tests?.length) continue;
    // Only the tests that cannot be widened are named (the others would be, once those are fixed).
    const stuck = plainV1Base(a, site) ? v.tests.filter((t) => !widening(a, t)) : v.tests;
    if (!stuck.length) continue;
    const tests = stuck.map((t) => `${where(t)} ${shortExpression(t)}`).join(", ");
    verdicts.set(d, { flips: false, unfollowed: [site.call], because: `a test of URLs against it (${tests}) would no longer match a call on it that stays v1 on a base of its own (${where(site.call)})` });
    changed = true;
  }
  return changed;
}

/** Whether the kept call's URL will start with the declared v1 base itself (not a base derived at run time). */
function plainV1Base(a: Analysis, site: Site): boolean {
  const r = site.redirect;
  if (!r) return false;
  const overridable = [...site.deps].some((d) => a.bases.get(d)?.override || a.bases.get(d)?.env);
  if (r.derived && overridable) return false;
  return r.names.length > 0 && r.names.every((n) => n === V1_BASE_NAME);
}

/** The edit widening a test (`u.startsWith(base)` → `(u.startsWith(base) || u.startsWith(RUNPOD_V1_BASE))`), when it may be. */
function widening(a: Analysis, test: Node): { text: string } | undefined {
  if (!Node.isCallExpression(test) || !givenValue.has(test) || test.getArguments().length !== 1) return undefined;
  if (a.frozen.has(test.getSourceFile().getFilePath())) return undefined;
  const callee = test.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !["startsWith", "includes"].includes(callee.getName()) || !pure(callee.getExpression())) return undefined;
  if (!choosesHeadersOnly(test)) return undefined;
  const p = test.getParent();
  const wide = `${test.getText()} || ${callee.getText()}(${V1_BASE_NAME})`;
  return { text: p && (Node.isIfStatement(p) || Node.isParenthesizedExpression(p)) ? wide : `(${wide})` };
}

/** A receiver read twice without effect: `req.url`, `this.config.url`, `config.url?.x`. */
function pure(n: Node): boolean {
  if (Node.isIdentifier(n) || n.getKind() === SyntaxKind.ThisKeyword) return true;
  if (Node.isPropertyAccessExpression(n) || Node.isNonNullExpression(n) || Node.isParenthesizedExpression(n)) return pure(n.getExpression());
  return false;
}

/** A marked call moved to its own v1 base: the tests of each base it leaves that flips match that base too. */
export function widenTests(a: Analysis, site: Site, verdicts: Map<Node, Verdict>, fallbacks: Fallbacks): void {
  for (const d of site.deps) {
    const v = verdicts.get(d);
    if (!v?.flips || !v.tests?.length) continue;
    for (const t of v.tests) {
      const key = `widen:${t.getSourceFile().getFilePath()}:${t.getStart()}`;
      const w = widening(a, t);
      if (!w || a.sharedRedirects.has(key)) continue;
      a.sharedRedirects.add(key);
      addEdit(a, replaceNode(t, w.text));
      const file = a.files.get(t.getSourceFile().getFilePath());
      if (file) declareNames(file, [V1_BASE_NAME], keptCallEnvs(a, site), fallbacks);
    }
  }
}
