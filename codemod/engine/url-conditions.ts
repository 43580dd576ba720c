// Conditionals inside a URL builder that do not make the path a run-time choice:
// - a slash-safe join (`base.endsWith("/") && path.startsWith("/") ? path.slice(1) : path`): either
//   branch is the same path, one slash fewer where the base already ends in one;
// - a test the builder's known path decides (`isAbsoluteURL(path) ? new URL(path) : new URL(base + path)`,
//   `/^https?:/.test(path)`, `path.startsWith("http")`): the branch the call's path takes.
// A condition decided here must give the same answer whatever the path's run-time holes hold.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Part, UrlContext } from "./urls.ts";

type Resolve = (node: Node) => Part[];

const FIRST_DROPPED = new Set(["slice", "substring", "substr"]);

function bare(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAsExpression(x) || Node.isNonNullExpression(x)) x = x.getExpression();
  return x;
}

function text(n: Node): string {
  return bare(n).getText().replace(/\s/g, "");
}

/** `p.slice(1)` (also `substring(1)`, `substr(1)`): `p`. */
function firstCharDropped(n: Node): Node | undefined {
  const x = bare(n);
  if (!Node.isCallExpression(x)) return undefined;
  const callee = x.getExpression();
  const [one, more] = x.getArguments();
  if (!Node.isPropertyAccessExpression(callee) || !FIRST_DROPPED.has(callee.getName()) || more || !one || one.getText() !== "1") return undefined;
  return callee.getExpression();
}

/** The condition tests that `p` starts with a slash (`p.startsWith("/")`, `p[0] === "/"`, `p.charAt(0) === "/"`). */
function testsLeadingSlash(cond: Node, p: string): boolean {
  const c = text(cond).replace(/'/g, '"');
  return [`${p}.startsWith("/")`, `${p}[0]==="/"`, `${p}.charAt(0)==="/"`, `"/"===${p}[0]`].some((t) => c.includes(t));
}

/** `cond ? p.slice(1) : p` (either way round) where `cond` tests p's leading slash: the path expression `p`. */
export function slashSafeJoin(node: Node): Node | undefined {
  if (!Node.isConditionalExpression(node)) return undefined;
  const t = node.getWhenTrue();
  const f = node.getWhenFalse();
  for (const [cut, whole] of [[t, f], [f, t]] as const) {
    const p = firstCharDropped(cut);
    if (p && text(p) === text(whole) && testsLeadingSlash(node.getCondition(), text(whole))) return bare(whole);
  }
  return undefined;
}

/** What a run-time hole might hold, for a test that must not depend on it. */
const FILLERS = ["", "x", "/", ":", "x:", "http://h/"];

/** Path pieces only: what a hole holds where the test itself tells absolute URLs from paths. */
const PATH_FILLERS = ["", "x", "/"];

/** Every text the parts can stand for, with each hole filled in turn (undefined when a base or too many holes take part). */
function completions(parts: Part[], fillers = FILLERS): string[] | undefined {
  if (parts.some((p) => p.kind === "base")) return undefined;
  const holes = parts.filter((p) => p.kind === "hole").length;
  if (holes > 2) return undefined;
  let out = [""];
  for (const p of parts) out = p.kind === "text" ? out.map((s) => s + p.text) : out.flatMap((s) => fillers.map((f) => s + f));
  return out;
}

/**
 * A test telling an absolute URL from a path (`isAbsoluteURL(p)`): a request helper's path parameter
 * is a path there (its callers' paths are read as paths; a caller handing it a whole URL is read as
 * a URL, on its own base). Other tests must agree whatever a hole holds.
 */
function decide(parts: Part[], test: (s: string) => boolean): boolean | undefined {
  const absoluteTest = test("https://h/p") && test("http://h") && !test("/p") && !test("p") && !test("");
  const all = completions(parts, absoluteTest ? PATH_FILLERS : FILLERS);
  return all && agreed(all.map(test));
}

/** All completions agree: that answer. */
function agreed(values: boolean[]): boolean | undefined {
  return values.length && values.every((v) => v === values[0]) ? values[0] : undefined;
}

function regexOf(n: Node, ctx: UrlContext): RegExp | undefined {
  let x = bare(n);
  if (Node.isIdentifier(x)) {
    const v = ctx.valueOf(x);
    x = v ? bare(v) : x;
  }
  if (!Node.isRegularExpressionLiteral(x)) return undefined;
  const m = /^\/(.*)\/([a-z]*)$/s.exec(x.getText());
  try {
    return m ? new RegExp(m[1]!, m[2]!.replace(/[gy]/g, "")) : undefined;
  } catch {
    return undefined;
  }
}

/** Decides a condition on the URL builder's known strings, or undefined when it cannot. */
export function decideCondition(cond: Node, ctx: UrlContext, resolve: Resolve, depth = 0): boolean | undefined {
  const c = bare(cond);
  if (depth > 4) return undefined;
  if (Node.isPrefixUnaryExpression(c) && c.getOperatorToken() === SyntaxKind.ExclamationToken) {
    const inner = decideCondition(c.getOperand(), ctx, resolve, depth + 1);
    return inner === undefined ? undefined : !inner;
  }
  if (Node.isBinaryExpression(c)) {
    const op = c.getOperatorToken().getKind();
    if (op !== SyntaxKind.AmpersandAmpersandToken && op !== SyntaxKind.BarBarToken) return undefined;
    const l = decideCondition(c.getLeft(), ctx, resolve, depth + 1);
    const r = decideCondition(c.getRight(), ctx, resolve, depth + 1);
    if (op === SyntaxKind.AmpersandAmpersandToken) return l === false || r === false ? false : l && r ? true : undefined;
    return l === true || r === true ? true : l === false && r === false ? false : undefined;
  }
  if (!Node.isCallExpression(c)) return undefined;
  const callee = bare(c.getExpression());
  const [arg, more] = c.getArguments();
  if (Node.isPropertyAccessExpression(callee) && arg && !more) {
    const name = callee.getName();
    // `/^[a-z][a-z0-9+.-]*:/i.test(path)`
    const re = name === "test" ? regexOf(callee.getExpression(), ctx) : undefined;
    if (re) {
      return decide(resolve(arg), (s) => re.test(s));
    }
    // `path.startsWith("http")`
    const lit = bare(arg);
    if (name === "startsWith" && (Node.isStringLiteral(lit) || Node.isNoSubstitutionTemplateLiteral(lit))) {
      const prefix = lit.getLiteralValue();
      return decide(resolve(callee.getExpression()), (s) => s.startsWith(prefix));
    }
  }
  // `isAbsoluteURL(path)`: a function of the project that only returns such a test, its parameter the call's argument.
  const inlined = ctx.inline?.(c);
  if (inlined?.expr) return decideCondition(inlined.expr, inlined.ctx, (n) => resolveIn(n, inlined.ctx, resolve), depth + 1);
  return undefined;
}

/** Inside an inlined function, a parameter stands for the call's argument. */
function resolveIn(n: Node, ctx: UrlContext, resolve: Resolve): Part[] {
  const given = ctx.argumentFor?.(n);
  return resolve(given ?? n);
}
