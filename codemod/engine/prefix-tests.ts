// A base compared against a URL (`req.url.startsWith(environment.runpodApi)` in an HTTP
// interceptor, `url.includes(BASE)`) sends nothing: it is not a use that
// keeps the base on v1. After the flip the test compares against the v2 base, which the migrated
// calls use, so it still matches them. It would no longer match a call kept on v1 on a base of its
// own (`RUNPOD_V1_BASE`): such a call keeps the whole base v1, and the mark says why.
import { Node } from "../ts-morph.ts";
import type { Site } from "./state.ts";
import { where, type Verdict } from "./base-verdict.ts";
import { shortExpression } from "./expression-name.ts";

const TESTS = new Set(["startsWith", "endsWith", "includes", "indexOf", "lastIndexOf"]);

/** The test the value takes part in (`x.startsWith(value)` or `value.startsWith(x)`), if it is one. */
export function prefixTest(outer: Node): Node | undefined {
  const p = outer.getParent();
  if (!p) return undefined;
  // `value.startsWith(x)`.
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer && TESTS.has(p.getName())) {
    const call = p.getParent();
    return call && Node.isCallExpression(call) && call.getExpression() === p ? call : undefined;
  }
  // `x.startsWith(value)`.
  if (Node.isCallExpression(p) && p.getArguments()[0] === outer) {
    const callee = p.getExpression();
    return Node.isPropertyAccessExpression(callee) && TESTS.has(callee.getName()) ? p : undefined;
  }
  return undefined;
}

/** A marked call kept on a v1 base of its own: each base it leaves that is tested keeps v1 instead (true when one changed). */
export function pinTestedBases(site: Site, verdicts: Map<Node, Verdict>): boolean {
  let changed = false;
  for (const d of site.deps) {
    const v = verdicts.get(d);
    if (!v?.flips || !v.tests?.length) continue;
    const tests = v.tests.map((t) => `${where(t)} ${shortExpression(t)}`).join(", ");
    verdicts.set(d, { flips: false, unfollowed: [site.call], because: `a test of URLs against it (${tests}) would no longer match a call on it that stays v1 on a base of its own (${where(site.call)})` });
    changed = true;
  }
  return changed;
}

/** `value.endsWith("/")`, `value.startsWith("https:")`: a test of the value's own text against a literal (no URL of a call in it). */
export function testedEnd(value: Node): boolean {
  const access = value.getParent();
  const call = access?.getParent();
  if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== value || !["endsWith", "startsWith"].includes(access.getName())) return false;
  if (!call || !Node.isCallExpression(call) || call.getExpression() !== access || call.getArguments().length !== 1) return false;
  const arg = skip(call.getArguments()[0]!);
  return Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg);
}

function skip(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAsExpression(x)) x = x.getExpression();
  return x;
}
