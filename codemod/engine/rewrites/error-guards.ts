// Two error-body forms that are not reads of a field but follow the reads' form: a guard
// `"message" in body` (false on every v2 problem, so the read it guards never runs), and a
// v1-shaped stand-in the code puts in the body's place (`catch { body = { message: text } }`, read
// by the same code as the server's body). Converted with the reads they serve; where the reads
// take both forms, the guard tests both and the stand-in stays (`detail ?? message` reads it).
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { declarationScope, referencesOf, skipParens } from "../nodes.ts";
import { unwrapExpression } from "../urls.ts";
import { errorFieldMap } from "../../../mappings/index.ts";

type Field = "message" | "error";
const isField = (name: string): name is Field => name === "message" || name === "error";

/** The v1 field `"message" in body` tests, where `value` is the body. */
export function guardedField(bin: Node, value: Node): Field | undefined {
  if (!Node.isBinaryExpression(bin) || bin.getOperatorToken().getKind() !== SyntaxKind.InKeyword || bin.getRight() !== value) return undefined;
  const key = bin.getLeft();
  const name = Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key) ? key.getLiteralValue() : undefined;
  return name && isField(name) ? name : undefined;
}

/** `("detail" in body || "message" in body)` written by an earlier run. */
export function isBothGuard(bin: Node): boolean {
  const field = Node.isBinaryExpression(bin) ? guardedField(bin, bin.getRight()) : undefined;
  const or = skipParens(bin).getParent();
  if (!field || !or || !Node.isBinaryExpression(or) || or.getOperatorToken().getKind() !== SyntaxKind.BarBarToken || or.getRight() !== skipParens(bin)) return false;
  const left = unwrapExpression(or.getLeft());
  return Node.isBinaryExpression(left) && guardedField(left, left.getRight()) === undefined && left.getLeft().getText().slice(1, -1) === errorFieldMap[field] && left.getRight().getText() === (bin as any).getRight().getText();
}

/** The members of object literals a variable is given besides the body (`let body = …; … body = { message: text }`) that name a v1 error field. */
export function fallbackFields(declName: Node): { node: Node; field: Field }[] {
  const decl = declName.getParent();
  const values: Node[] = [];
  if (decl && Node.isVariableDeclaration(decl) && decl.getInitializer()) values.push(decl.getInitializer()!);
  for (const r of referencesOf(declarationScope(declName), declName)) {
    const p = skipParens(r).getParent();
    if (p && Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && p.getLeft() === skipParens(r)) values.push(p.getRight());
  }
  const out: { node: Node; field: Field }[] = [];
  for (const v of values) {
    const literal = unwrapExpression(v);
    if (!Node.isObjectLiteralExpression(literal)) continue;
    for (const m of literal.getProperties()) {
      const key = Node.isShorthandPropertyAssignment(m) ? m.getName() : Node.isPropertyAssignment(m) ? m.getNameNode().getText().replace(/^["']|["']$/g, "") : undefined;
      if (key && isField(key)) out.push({ node: m, field: key });
    }
  }
  return out;
}

/** The edits for a guard or a stand-in's member, for the reads' form; undefined for any other node. */
export function guardEdits(n: Node, to: string, mode: "convert" | "both"): [Node, string][] | undefined {
  if (Node.isBinaryExpression(n) && guardedField(n, n.getRight())) {
    const key = n.getLeft();
    const q = key.getText()[0];
    if (mode === "convert") return [[key, `${q}${to}${q}`]];
    const both = `${q}${to}${q} in ${n.getRight().getText()} || ${n.getText()}`;
    const p = n.getParent();
    const alone = !!p && (Node.isParenthesizedExpression(p) || (Node.isIfStatement(p) && p.getExpression() === n) || Node.isReturnStatement(p) || Node.isVariableDeclaration(p));
    return [[n, alone ? both : `(${both})`]];
  }
  if (Node.isShorthandPropertyAssignment(n)) return mode === "convert" ? [[n, `${to}: ${n.getName()}`]] : [];
  if (Node.isPropertyAssignment(n)) {
    const name = n.getNameNode();
    const q = Node.isStringLiteral(name) ? name.getText()[0] : "";
    return mode === "convert" ? [[name, `${q}${to}${q}`]] : [];
  }
  return undefined;
}
