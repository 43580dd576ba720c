// A helper that takes a full URL as it is and joins only a path onto its base:
// `const url = path.startsWith("http") ? path : \`${BASE}${path}\``, `/^https?:/.test(p) ? p : base + p`
// (axios does the same with an absolute URL over its `baseURL`). A caller handing it a full URL sends
// that URL: on the v1 host it is the v1 call to rewrite (not the base joined to a whole URL, which
// matches no route), on another host (`https://${id}-8000.proxy.runpod.net/health`) it is no v1 call.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { V1_HOST } from "../../mappings/bases.ts";

/** A condition that tests `name` for a URL scheme: `name.startsWith("http")`, `/^https?:/.test(name)`, `name.includes("://")`. */
function testsScheme(cond: Node, name: string): boolean {
  let c = unwrapExpression(cond);
  if (Node.isPrefixUnaryExpression(c)) c = unwrapExpression(c.getOperand());
  if (!Node.isCallExpression(c)) return false;
  const callee = unwrapExpression(c.getExpression());
  if (!Node.isPropertyAccessExpression(callee)) return false;
  const method = callee.getName();
  const target = unwrapExpression(callee.getExpression());
  const [arg] = c.getArguments();
  const argText = arg ? arg.getText() : "";
  const scheme = /http|:\/\//.test(argText);
  // `path.startsWith("http")`, `path.includes("://")`, `path.match(/^https?:/)`
  if (Node.isIdentifier(target) && target.getText() === name) return scheme && ["startsWith", "includes", "match", "test"].includes(method);
  // `/^https?:\/\//.test(path)`
  return method === "test" && Node.isRegularExpressionLiteral(target) && /http|:\\?\/\\?\//.test(target.getText()) && !!arg && unwrapExpression(arg).getText() === name;
}

/** The conditional a URL expression is (itself, or the initializer of the constant it names), if any. */
function conditionalOf(a: Analysis, urlNode: Node): Node | undefined {
  const u = unwrapExpression(urlNode);
  if (Node.isConditionalExpression(u)) return u;
  if (!Node.isIdentifier(u)) return undefined;
  const b = bind(a, u);
  const init = b?.kind === "var" && b.path.length === 0 ? b.init && unwrapExpression(b.init) : undefined;
  return init && Node.isConditionalExpression(init) ? init : undefined;
}

/** Whether the helper's transport URL is its path parameter `param` as it is when that holds a full URL. */
export function takesFullUrl(a: Analysis, urlNode: Node, param: Node): boolean {
  const cond = conditionalOf(a, urlNode);
  if (!cond || !Node.isConditionalExpression(cond)) return false;
  const name = param.getText();
  if (!testsScheme(cond.getCondition(), name)) return false;
  const isParam = (n: Node) => {
    const e = unwrapExpression(n);
    return Node.isIdentifier(e) && e.getText() === name;
  };
  return isParam(cond.getWhenTrue()) || isParam(cond.getWhenFalse());
}

/** The caller's path argument is written as a full URL (`"https://…"`, `` `https://…/${id}` ``). */
export function writtenFullUrl(arg: Node | undefined): boolean {
  const u = arg && unwrapExpression(arg);
  if (!u) return false;
  const text = Node.isStringLiteral(u) || Node.isNoSubstitutionTemplateLiteral(u) ? u.getLiteralValue() : Node.isTemplateExpression(u) ? u.getHead().getLiteralText() : undefined;
  return text !== undefined && /^https?:\/\//.test(text);
}

/** The caller's path argument is a full URL of another host: no v1 call, and no use of the helper's base. */
export function fullUrlElsewhere(arg: Node | undefined): boolean {
  return writtenFullUrl(arg) && !unwrapExpression(arg!).getText().includes(V1_HOST);
}
