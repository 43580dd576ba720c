// A request helper whose callers may be outside the run: one the module exports (a function, an
// exported arrow, a public method of an exported class) with no use in the project is called by
// code the run never sees (a library's users), which passes v1 paths, so do no harm cannot count
// its base's use as accounted for (follow-uses.ts).
import { Node, SyntaxKind } from "../ts-morph.ts";
import { unwrapExpression } from "./urls.ts";
import { typedOuter } from "./nodes.ts";

/** A function the module exports, or a public method of a class it exports: code outside the run may call it. */
export function exportedOutward(fn: Node): boolean {
  if (Node.isFunctionDeclaration(fn)) return fn.isExported() || fn.isDefaultExport();
  // A function of an exported plain object (`export const Client = { async rest(…) {…}, get: (p) => … }`).
  const obj = objectHolding(fn);
  if (obj) return objectExported(obj);
  // `export const request = async (path) => …`
  const decl = fn.getParent();
  const statement = decl && Node.isVariableDeclaration(decl) ? decl.getVariableStatement() : undefined;
  if (statement) return statement.isExported();
  if (!Node.isMethodDeclaration(fn) || fn.hasModifier(SyntaxKind.PrivateKeyword) || fn.hasModifier(SyntaxKind.ProtectedKeyword) || Node.isPrivateIdentifier(fn.getNameNode())) return false;
  const cls = fn.getParent();
  return Node.isClassDeclaration(cls) && (cls.isExported() || cls.isDefaultExport());
}

/** Whether the method's class declares the field its URL is built on with the base written in place (`private base = "…/v1"`, `= BASE`). */
export function baseField(method: Node, key: string): boolean {
  const cls = method.getParent();
  const init = Node.isClassDeclaration(cls) ? cls.getProperty(key)?.getInitializer() : undefined;
  const value = init && unwrapExpression(init);
  return !!value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value) || Node.isTemplateExpression(value) || Node.isIdentifier(value));
}

/** The object literal a function is a property of (a method, or the value of `key: function …` / `key: (…) => …`). */
export function objectHolding(fn: Node): Node | undefined {
  const up = Node.isMethodDeclaration(fn) ? fn : fn.getParent();
  if (!up || !(Node.isMethodDeclaration(up) || (Node.isPropertyAssignment(up) && up.getInitializer() === fn))) return undefined;
  const obj = up.getParent();
  return obj && Node.isObjectLiteralExpression(obj) ? obj : undefined;
}

/** The key name of a function held by an object literal (its uses are `obj.key`). */
export function objectHeldName(fn: Node): Node | undefined {
  if (!objectHolding(fn)) return undefined;
  const name = (Node.isMethodDeclaration(fn) ? fn : fn.getParent()!) as Node & { getNameNode(): Node };
  const n = name.getNameNode();
  return Node.isIdentifier(n) ? n : undefined;
}

/** `export const X = { … }`, `export default { … }`: code outside the project may call its functions. */
function objectExported(obj: Node): boolean {
  const up = typedOuter(obj).getParent();
  if (up && Node.isExportAssignment(up)) return true;
  const statement = up && Node.isVariableDeclaration(up) ? up.getVariableStatement() : undefined;
  return !!statement?.isExported();
}
