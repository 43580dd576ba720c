// A query string built at run time and glued to a v1 path (`/pods${queryString}` with
// `queryString = params.size ? \`?${params}\` : ""`): the path is still known, so the hole is
// taken as the URL's query, not as part of the path. Its names are followed in query-flow.ts.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { unwrapExpression, type LocatedUrl, type UrlContext } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { bind, urlContext } from "./values.ts";
import { writesOf } from "./scope.ts";
import { urlQueryWrites } from "./url-object.ts";

const QUERY_NAME = /^(query|qs|search|params|querystring|querystr|queryparams|searchparams)/i;

/**
 * Whether every value the hole can hold is a query (`?…`) or empty, and some is not empty:
 * through names (a `let` with every value it is given), conditionals, `||` / `??` / `&&`,
 * concatenation, the project's functions returning one (`toQuery(params)`), and a URL object
 * whose query is written later (its hole, urls.ts).
 */
function queryValued(node: Node, a: Analysis, ctx: UrlContext | undefined, depth = 0): "query" | "empty" | undefined {
  const n = unwrapExpression(node);
  if (depth > 6) return undefined;
  const given = ctx?.argumentFor?.(n);
  if (given) return queryValued(given, a, ctx, depth + 1);
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue() === "" ? "empty" : n.getLiteralValue().startsWith("?") ? "query" : undefined;
  if (Node.isTemplateExpression(n)) return n.getHead().getLiteralText().startsWith("?") ? "query" : undefined;
  const both = (x: Node, y: Node) => {
    const l = queryValued(x, a, ctx, depth + 1);
    const r = l && queryValued(y, a, ctx, depth + 1);
    return l && r ? (l === "query" || r === "query" ? "query" : "empty") : undefined;
  };
  if (Node.isConditionalExpression(n)) return both(n.getWhenTrue(), n.getWhenFalse());
  if (Node.isBinaryExpression(n)) {
    const op = n.getOperatorToken().getKind();
    if (op === SyntaxKind.PlusToken) return queryValued(n.getLeft(), a, ctx, depth + 1) === "query" ? "query" : undefined;
    if (op === SyntaxKind.BarBarToken || op === SyntaxKind.QuestionQuestionToken) return both(n.getLeft(), n.getRight());
    // `qs && \`?${qs}\``: the right, or a falsy left (an empty string).
    if (op === SyntaxKind.AmpersandAmpersandToken) return queryValued(n.getRight(), a, ctx, depth + 1);
    return undefined;
  }
  if (Node.isCallExpression(n)) {
    const inlined = (ctx?.inline ?? urlContext(a).inline)?.(n);
    if (!inlined?.returns.length) return undefined;
    const each = inlined.returns.map((r) => queryValued(r, a, inlined.ctx, depth + 1));
    return each.every((v) => v) && each.includes("query") ? "query" : undefined;
  }
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind !== "var" || !b.init || b.path.length) return undefined;
    if (urlQueryWrites(b.decl)) return "query";
    const w = writesOf(b.decl);
    if (w.other || w.appended.length) return undefined;
    const each = [b.init, ...w.assigned].map((v) => queryValued(v, a, ctx, depth + 1));
    return each.every((v) => v) ? (each.includes("query") ? "query" : "empty") : undefined;
  }
  return undefined;
}

/** Whether a hole can only be a query string (its value starts with `?`, or it is named like one). */
export function isQueryHole(a: Analysis, node: Node, ctx?: UrlContext): boolean {
  if (queryValued(node, a, ctx) === "query") return true;
  const n = unwrapExpression(node);
  return Node.isIdentifier(n) && QUERY_NAME.test(n.getText());
}

/** Moves a trailing query hole from the path into the query; returns whether it did. */
export function splitQueryHole(a: Analysis, url: LocatedUrl): boolean {
  if (url.query || !url.path.endsWith("\0") || url.path.length < 2 || url.path.split("/").at(-1) === "\0") return false;
  const holes = url.parts.filter((p) => p.kind === "hole");
  const last = holes.at(-1);
  if (!last || !isQueryHole(a, last.node, last.kind === "hole" ? last.ctx : undefined)) return false;
  url.path = url.path.slice(0, -1);
  url.pathText = url.pathText.slice(0, -1);
  url.query = "\0";
  return true;
}

export { runtimeQueryNames, queryFlow, type QueryNames, type Written } from "./query-flow.ts";
