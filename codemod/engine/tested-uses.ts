// Uses of a followed base that only test it and send nothing: `!base`, `base === x`,
// `base.startsWith("http://localhost:")` (a guard on what the base may be set to), a slash-safe
// join's `base.endsWith("/")`, `typeof base`, `Number(base)`. A URL tested against the base
// (`req.url.startsWith(BASE)`) is one too, but do-no-harm checks it beside the calls kept on v1,
// so it is handed back.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { onlyTested } from "./evaluate/string-tests.ts";
import { prefixTest } from "./prefix-tests.ts";
import { flipKeepsAnswer, testedEnd } from "./own-text-tests.ts";

const NUMERIC = /^(Number|parseInt|parseFloat|Boolean|Number\.parseInt|Number\.parseFloat)$/;

/**
 * `outer` (the followed value at its outermost wrapper, under the property path `path`) only
 * tested: "none" when the use holds no URL, the URL test when it tests a URL, else undefined.
 */
export function testedUse(a: Analysis, outer: Node, path: string[]): "none" | { urlTest: Node } | undefined {
  const p = outer.getParent();
  if (!p) return undefined;
  // Only tested (`if (!client)`, `client === null`): the value goes nowhere.
  if ((Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken) || ((Node.isIfStatement(p) || Node.isWhileStatement(p)) && p.getExpression() === outer)) return "none";
  if (Node.isBinaryExpression(p) && ["===", "!==", "==", "!="].includes(p.getOperatorToken().getText())) return "none";
  // `base.startsWith("http://localhost:")`: its own text against a literal, no request URL.
  // (`base.endsWith("/")` stays a test: a slash-safe join reads it beside the URL.)
  if (!path.length && testedEnd(outer) && (p as any).getName?.() === "startsWith") return "none";
  // `base.endsWith("/")` whose answer the flip cannot change (a slash-safe join's test): it pins no base.
  if (!path.length && flipKeepsAnswer(outer)) return "none";
  const test = !path.length ? prefixTest(outer) : undefined;
  if (test) return { urlTest: test };
  // `base.endsWith("/")` (a slash-safe join's test): a boolean holds no URL.
  if (!path.length && (testedEnd(outer) || onlyTested(outer, (n) => a.evaluator.evaluate(n)))) return "none";
  // `typeof DEFAULTS[key] === "number"`, `Number(raw)`: a type test or a number holds no URL.
  if (Node.isTypeOfExpression(p)) return "none";
  if (Node.isCallExpression(p) && p.getArguments()[0] === outer && NUMERIC.test(p.getExpression().getText())) return "none";
  return undefined;
}
