// A query string built at run time and glued to a v1 path (`/pods${queryString}` with
// `queryString = params.size ? \`?${params}\` : ""`): the path is still known, so the hole is
// taken as the URL's query, not as part of the path. The query itself is left for review.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { unwrapExpression, type LocatedUrl, type UrlContext } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { bind, objectLiteral, valueOf } from "./values.ts";
import { enclosingFunction } from "./scope.ts";

const QUERY_NAME = /^(query|qs|search|params|querystring|querystr|queryparams|searchparams)/i;

function startsWithQuestionMark(node: Node, a: Analysis, depth = 0): boolean {
  const n = unwrapExpression(node);
  if (depth > 4) return false;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue().startsWith("?") || n.getLiteralValue() === "";
  if (Node.isTemplateExpression(n)) return n.getHead().getLiteralText().startsWith("?");
  if (Node.isConditionalExpression(n)) {
    const branches = [n.getWhenTrue(), n.getWhenFalse()];
    return branches.every((b) => startsWithQuestionMark(b, a, depth + 1)) && branches.some((b) => !isEmptyString(b));
  }
  if (Node.isBinaryExpression(n) && n.getOperatorToken().getText() === "+") return startsWithQuestionMark(n.getLeft(), a, depth + 1);
  if (Node.isIdentifier(n)) {
    const v = valueOf(a, n);
    return v ? startsWithQuestionMark(v, a, depth + 1) : false;
  }
  return false;
}

function isEmptyString(node: Node): boolean {
  const n = unwrapExpression(node);
  return (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) && n.getLiteralValue() === "";
}

/** Whether a hole can only be a query string (its value starts with `?`, or it is named like one). */
export function isQueryHole(a: Analysis, node: Node): boolean {
  if (startsWithQuestionMark(node, a)) return true;
  const n = unwrapExpression(node);
  return Node.isIdentifier(n) && QUERY_NAME.test(n.getText());
}

/** Moves a trailing query hole from the path into the query; returns whether it did. */
export function splitQueryHole(a: Analysis, url: LocatedUrl): boolean {
  if (url.query || !url.path.endsWith("\0") || url.path.length < 2 || url.path.split("/").at(-1) === "\0") return false;
  const holes = url.parts.filter((p) => p.kind === "hole");
  const last = holes.at(-1);
  if (!last || !isQueryHole(a, last.node)) return false;
  url.path = url.path.slice(0, -1);
  url.pathText = url.pathText.slice(0, -1);
  url.query = "\0";
  return true;
}

/**
 * The parameter names a query hole can carry, when they are all written in the code: the hole's
 * value followed through names, conditionals and `String(params)` / `params.toString()` to a
 * `new URLSearchParams(…)`, whose names are its object argument's keys and every literal name
 * `params.append(…)` / `params.set(…)` gives it in the same function. Undefined when any name is
 * computed (a loop over `Object.entries`, a spread, an argument built elsewhere). Inside a URL
 * builder (`ctx`), a parameter is what the call gives it: its argument, else its default (`params =
 * {}`), else nothing.
 */
export function runtimeQueryNames(a: Analysis, hole: Node, ctx?: UrlContext): QueryNames | undefined {
  const names: QueryNames = new Map();
  return collect(a, hole, names, 0, ctx) ? names : undefined;
}

/** Each name, with where it is written (a string literal, or an object literal's property). */
export type QueryNames = Map<string, Node[]>;

function named(names: QueryNames, name: string, at: Node): void {
  names.set(name, [...(names.get(name) ?? []), at]);
}

function collect(a: Analysis, node: Node, names: QueryNames, depth: number, ctx: UrlContext | undefined): boolean {
  const n = unwrapExpression(node);
  if (depth > 6) return false;
  const given = ctx?.argumentFor?.(n);
  if (given) return collect(a, given, names, depth + 1, ctx);
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue() === "" || n.getLiteralValue() === "?";
  if (Node.isTemplateExpression(n)) return n.getTemplateSpans().every((s) => collect(a, s.getExpression(), names, depth + 1, ctx));
  if (Node.isConditionalExpression(n)) return collect(a, n.getWhenTrue(), names, depth + 1, ctx) && collect(a, n.getWhenFalse(), names, depth + 1, ctx);
  if (Node.isBinaryExpression(n) && n.getOperatorToken().getText() === "+") return collect(a, n.getLeft(), names, depth + 1, ctx) && collect(a, n.getRight(), names, depth + 1, ctx);
  if (Node.isCallExpression(n)) {
    const callee = n.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "toString" && !n.getArguments().length) return collect(a, callee.getExpression(), names, depth + 1, ctx);
    if (Node.isIdentifier(callee) && callee.getText() === "String" && n.getArguments().length === 1) return collect(a, n.getArguments()[0]!, names, depth + 1, ctx);
    return false;
  }
  if (Node.isNewExpression(n)) return searchParamsNames(a, n, undefined, names, ctx);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind !== "var" || !b.init || b.path.length) return false;
    const init = unwrapExpression(b.init);
    if (Node.isNewExpression(init)) return searchParamsNames(a, init, b.decl, names, ctx);
    return collect(a, init, names, depth + 1, ctx);
  }
  return false;
}

/** `new URLSearchParams({ a, b })` (and, held in `decl`, its `.append("c", …)` / `.set("d", …)` calls). */
function searchParamsNames(a: Analysis, created: Node, decl: Node | undefined, names: QueryNames, ctx: UrlContext | undefined): boolean {
  if (!Node.isNewExpression(created) || created.getExpression().getText() !== "URLSearchParams") return false;
  const [written] = created.getArguments();
  // A builder's parameter the call gives nothing: `new URLSearchParams(undefined)` is empty.
  const arg = written && ctx?.absent?.(written) ? undefined : written && (ctx?.argumentFor?.(written) ?? written);
  if (arg) {
    const obj = objectLiteral(a, arg);
    if (!obj || !Node.isObjectLiteralExpression(obj)) return false;
    for (const p of obj.getProperties()) {
      if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) return false;
      const key = p.getNameNode();
      if (Node.isComputedPropertyName(key)) return false;
      named(names, Node.isStringLiteral(key) ? key.getLiteralValue() : key.getText(), p);
    }
  }
  if (!decl) return true;
  const name = (decl as any).getNameNode?.() as Node | undefined;
  if (!name || !Node.isIdentifier(name)) return false;
  for (const use of enclosingFunction(decl).getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (use === name || use.getText() !== name.getText() || bind(a, use)?.decl !== decl) continue;
    const access = use.getParent();
    // Handed to another function, it may get names there.
    if (access && Node.isCallExpression(access) && access.getArguments().includes(use) && access.getExpression().getText() !== "String") return false;
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== use) continue;
    const call = access.getParent();
    if (!["append", "set"].includes(access.getName()) || !call || !Node.isCallExpression(call)) continue;
    const first = call.getArguments()[0];
    const key = first && unwrapExpression(first);
    if (!key || !(Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key))) return false;
    named(names, key.getLiteralValue(), key);
  }
  return true;
}
