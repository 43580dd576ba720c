// Headers set on an object after it is built: `h["Content-Type"] = …`, `init.headers.Authorization
// = …`, `Object.assign(h, …)`. An object literal held in a variable is what it was built as only
// when nothing writes into it later; a write of Content-Type says what the request carries, and a
// write the codemod cannot name (a computed key, `Object.assign`, the object replaced) makes it unknown.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction, identifiersNamed, resolveIdentifier } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";

export type HeaderWrites =
  /** The value last written under the key watched (in source order), if any. */
  | { kind: "known"; value?: Node }
  | { kind: "unknown"; why: string; at: Node };

/**
 * The writes into a literal through the variable it is built in (directly, or under keys of it:
 * `const init = { headers: {…} }`): the last value written under `key` (Content-Type in headers,
 * `headers` in options), or why the literal is not known after it is built.
 */
export function writesInto(lit: Node, key: RegExp): HeaderWrites {
  const path: string[] = [];
  let n: Node = lit;
  let up = n.getParent();
  while (up && Node.isPropertyAssignment(up) && up.getInitializer() === n) {
    path.unshift(up.getName().replace(/^["'`]|["'`]$/g, ""));
    n = up.getParent()!;
    up = n.getParent();
  }
  if (!up || !Node.isVariableDeclaration(up) || up.getInitializer() !== n) return { kind: "known" };
  const name = up.getNameNode();
  if (!Node.isIdentifier(name)) return { kind: "known" };
  let value: Node | undefined;
  for (const use of identifiersNamed(enclosingFunction(up), name.getText())) {
    if (use === name || resolveIdentifier(use)?.decl !== up) continue;
    // The access chain from the variable: `init.headers["Content-Type"]` → ["headers", "Content-Type"].
    const keys: (string | undefined)[] = [];
    let top: Node = use;
    for (;;) {
      const p = top.getParent();
      if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === top) keys.push(p.getName());
      else if (p && Node.isElementAccessExpression(p) && p.getExpression() === top) {
        const k = p.getArgumentExpression() && unwrapExpression(p.getArgumentExpression()!);
        keys.push(k && (Node.isStringLiteral(k) || Node.isNoSubstitutionTemplateLiteral(k)) ? k.getLiteralValue() : undefined);
      } else if (p && (Node.isParenthesizedExpression(p) || Node.isNonNullExpression(p) || Node.isAsExpression(p))) {
        top = p;
        continue;
      } else break;
      top = p;
    }
    // Only writes at or inside the headers object matter.
    if (!path.every((k, i) => keys[i] === k)) continue;
    const p = top.getParent();
    const inside = keys.length > path.length;
    if (p && Node.isCallExpression(p) && unwrapExpression(p.getExpression()).getText() === "Object.assign" && p.getArguments()[0] === top) return { kind: "unknown", why: `${shortName(top)} is added to with Object.assign`, at: p };
    const assigned = p && Node.isBinaryExpression(p) && p.getLeft() === top && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken;
    const deleted = p && Node.isDeleteExpression(p);
    if (!assigned && !deleted) continue;
    if (!inside) return { kind: "unknown", why: `${shortName(top)} is replaced after it is built`, at: p! };
    const written = keys[path.length];
    if (written === undefined) return { kind: "unknown", why: `${shortName(top)} is written under a computed name`, at: p! };
    if (keys.length === path.length + 1 && key.test(written)) value = assigned ? (p as any).getRight() : undefined;
  }
  return { kind: "known", value };
}

function shortName(n: Node): string {
  const t = n.getText();
  return t.length <= 40 && !t.includes("\n") ? t : "the headers";
}
