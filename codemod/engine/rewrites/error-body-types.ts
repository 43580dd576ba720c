// Whether an error body's type lets a read of v2's field stand as written: the value is `any` as
// the code declares it (`catch (e)`, `: any`, `(body as any)`, a class field `body: any`), or its
// type already has the field. Else the read goes through a cast or the declared type is widened.
import { Node } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { bind } from "../values.ts";
import { unwrapExpression } from "../urls.ts";

/** Whether the value's type (down `path`) is `any` by its declaration, or already has `field`. */
export function hasFieldOrAny(a: Analysis, expr: Node, field: string, path: string[] = []): boolean {
  try {
    let t = expr.getType();
    for (const k of path) {
      if (t.isAny()) return anyByDeclaration(a, expr, 0);
      const p = t.getNonNullableType().getProperty(k);
      if (!p) return false;
      t = p.getTypeAtLocation(expr);
    }
    if (t.isAny()) return anyByDeclaration(a, expr, 0);
    return !!t.getNonNullableType().getProperty(field);
  } catch {
    return false;
  }
}

/**
 * `any` because the code declares nothing (`catch (e)`, an untyped handler parameter, `: any`),
 * not because a type it names did not resolve here (`AxiosError<Body>` without the package's
 * types): a named type may lack the v2 field where the project is compiled.
 */
function anyByDeclaration(a: Analysis, expr: Node, depth: number): boolean {
  // `(body as any).message`: the code says it is any, whatever `body` is declared as.
  let written = expr;
  while (Node.isParenthesizedExpression(written)) written = written.getExpression();
  if ((Node.isAsExpression(written) || Node.isTypeAssertion(written)) && written.getTypeNode()?.getText() === "any") return true;
  // `e.body` where the class declares `public body: any`.
  if (Node.isPropertyAccessExpression(written) && declaredAny(written)) return true;
  let root = unwrapExpression(expr);
  for (;;) {
    if (Node.isAsExpression(root) || Node.isTypeAssertion(root)) return root.getTypeNode()?.getText() === "any";
    if (Node.isPropertyAccessExpression(root) || Node.isNonNullExpression(root) || Node.isParenthesizedExpression(root) || Node.isAwaitExpression(root)) root = root.getExpression();
    // `res.json().catch(() => ({}))`: the body's.
    else if (Node.isCallExpression(root) && /\.catch$/.test(root.getExpression().getText())) root = (root.getExpression() as any).getExpression();
    else break;
  }
  if (Node.isCallExpression(root)) {
    // A fetch body (`await res.json()`, `JSON.parse(text)`) is `any` as the platform declares it.
    if (/(\.json|^JSON\.parse)$/.test(root.getExpression().getText()) && !root.getTypeArguments().length) return true;
    try {
      return root.getExpression().getType().getCallSignatures().length > 0;
    } catch {
      return false;
    }
  }
  if (!Node.isIdentifier(root) || depth > 3) return false;
  const b = bind(a, root);
  if (!b || b.kind === "import" || b.kind === "function") return false;
  const typeNode = (b.decl as any).getTypeNode?.() as Node | undefined;
  if (typeNode) return typeNode.getText() === "any";
  const init = b.kind === "var" ? b.init : undefined;
  return init ? anyByDeclaration(a, init, depth + 1) : true;
}

/** Whether a property read's declarations (a class field, a parameter property, an interface member) are all written `any`. */
function declaredAny(access: Node): boolean {
  try {
    const decls = (access as any).getNameNode().getSymbol()?.getDeclarations() ?? [];
    return decls.length > 0 && decls.every((d: Node) => (d as any).getTypeNode?.()?.getText() === "any");
  } catch {
    return false;
  }
}
