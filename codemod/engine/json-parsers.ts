// A project function that parses the text it is given and returns the value (`safeJSON(text)`:
// `try { return JSON.parse(text) } catch { return undefined }`): a call of it parses that text as
// `JSON.parse(text)` does, so an error body read from `await res.text()` and handed to it is followed
// as the parsed body. Other returns may only give nothing (`undefined`, `null`): a fallback value
// of its own would be a shape the codemod does not know.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { enclosingFunction } from "./scope.ts";
import { skipParens } from "./nodes.ts";
import { functionNamed } from "./record-callees.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";

/** The call parsing `text` (its argument): `JSON.parse(text)` or a call of such a project function. */
export function parsedBy(a: Analysis, text: Node): Node | undefined {
  const outer = skipParens(text);
  const p = outer.getParent();
  if (!p || !Node.isCallExpression(p) || p.getArguments()[0] !== outer) return undefined;
  if (p.getExpression().getText() === "JSON.parse") return p;
  const fn = functionNamed(a, p.getExpression());
  return fn && parsesFirstParam(a, fn) ? p : undefined;
}

function parsesFirstParam(a: Analysis, fn: Node): boolean {
  const param = ((fn as any).getParameters?.() as Node[] | undefined)?.[0];
  if (!param) return false;
  const body = (fn as any).getBody?.() as Node | undefined;
  const returned = body && !Node.isBlock(body) ? [body] : fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn).map((r) => r.getExpression());
  let parses = false;
  for (const r of returned) {
    const e = r && unwrapExpression(r);
    if (!e || e.getKind() === SyntaxKind.NullKeyword || (Node.isIdentifier(e) && e.getText() === "undefined")) continue;
    if (!Node.isCallExpression(e) || e.getExpression().getText() !== "JSON.parse") return false;
    const arg = e.getArguments()[0] && unwrapExpression(e.getArguments()[0]!);
    const b = arg && Node.isIdentifier(arg) ? bind(a, arg) : undefined;
    if (b?.kind !== "param" || b.fn !== fn || b.index !== 0 || b.path.length) return false;
    parses = true;
  }
  return parses;
}
