// Where a record is only shown as text, never read by code: printed (`console.log(pod)`), logged,
// or serialised into the text an MCP tool answers (`{ type: "text", text: JSON.stringify(pod) }`).
// A reader of that text (a person, a model) sees the v2 record's fields instead of v1's; no code
// breaks, so the call can migrate. A record serialised anywhere else (an HTTP answer, a file, a
// return value) is still a boundary the codemod cannot see past.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { skipParens } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf } from "./nodes.ts";

const PRINT = /^(console\.(log|info|warn|error|debug|dir|table)|process\.(stdout|stderr)\.write)$/;
/** Logger methods by convention (`logger.info(…)`, `log.debug(…)`): the text goes to a log. */
const LOG_METHOD = /^(log|info|warn|error|debug|trace)$/;

/** The node (a record, or a string made from it) is shown as text and goes nowhere else. */
export function shownAsText(node: Node, depth = 0): boolean {
  if (depth > 3) return false;
  const outer = skipParens(node);
  const p = outer.getParent();
  if (!p) return false;
  if (Node.isCallExpression(p) && p.getArguments().includes(outer as never)) {
    const callee = p.getExpression();
    const text = callee.getText().replace(/\s/g, "");
    if (PRINT.test(text)) return true;
    if (Node.isPropertyAccessExpression(callee) && LOG_METHOD.test(callee.getName()) && /log/i.test(callee.getExpression().getText())) return true;
    // JSON.stringify(record, …): the string it makes is what is shown.
    if (text === "JSON.stringify" && p.getArguments()[0] === outer) return shownAsText(p, depth + 1);
    return false;
  }
  // `${JSON.stringify(pod)}` and `"Pod: " + JSON.stringify(pod)`: the whole text is what is shown.
  if (Node.isTemplateSpan(p)) return shownAsText(p.getParentOrThrow(), depth + 1);
  if (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.PlusToken) return shownAsText(p, depth + 1);
  if (Node.isPropertyAssignment(p) && p.getInitializer() === outer && p.getName() === "text") return isTextContent(p.getParentOrThrow());
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
    const name = p.getNameNode();
    if (!Node.isIdentifier(name)) return false;
    const refs = referencesOf(enclosingFunction(p), name);
    return refs.length > 0 && refs.every((r) => shownAsText(r, depth + 1));
  }
  if (Node.isShorthandPropertyAssignment(p) && p.getName() === "text") return isTextContent(p.getParentOrThrow());
  return false;
}

/** `{ type: "text", text }`: a text content block of an MCP tool's answer. */
function isTextContent(obj: Node): boolean {
  if (!Node.isObjectLiteralExpression(obj)) return false;
  const type = obj.getProperty("type");
  const init = type && Node.isPropertyAssignment(type) ? skipParens(type.getInitializerOrThrow()) : undefined;
  return !!init && (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init)) && init.getLiteralValue() === "text";
}
