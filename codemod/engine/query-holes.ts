// A query string built at run time and glued to a v1 path (`/pods${queryString}` with
// `queryString = params.size ? \`?${params}\` : ""`): the path is still known, so the hole is
// taken as the URL's query, not as part of the path. The query itself is left for review.
import { Node } from "../ts-morph.ts";
import { unwrapExpression, type LocatedUrl } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { valueOf } from "./values.ts";

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
