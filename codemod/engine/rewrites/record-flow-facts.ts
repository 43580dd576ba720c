// Facts about where a record goes, for the record-read pass: whether a logical expression only
// tests it, whether a read sits where an `Array.isArray` test leaves no list, whether a helper's result is used beyond its status, which calls receive what a
// function returns, and which field declarations a value is typed through.
import { findReferencesAsNodes } from "../find-references.ts";
import { Node, SyntaxKind } from "../../ts-morph.ts";
import type { VariableDeclaration } from "ts-morph";
import { enclosingFunction, isFunctionLike } from "../scope.ts";
import { referencesOf, skipParens, typedOuter } from "../nodes.ts";
import { functionName, references } from "../references.ts";
import { wrapperCalls } from "../wrapper-result.ts";

/** A logical expression whose value is only tested (`if (a || b)`, `!(a ?? b)`, `while (…)`), never kept. */
export function onlyTested(expr: Node): boolean {
  const outer = skipParens(expr);
  const p = outer.getParent();
  if (!p) return false;
  if ((Node.isIfStatement(p) || Node.isWhileStatement(p) || Node.isDoStatement(p)) && p.getExpression() === outer) return true;
  if (Node.isConditionalExpression(p) && p.getCondition() === outer) return true;
  if (Node.isPrefixUnaryExpression(p) || Node.isExpressionStatement(p)) return true;
  if (Node.isBinaryExpression(p) && ["&&", "||", "??"].includes(p.getOperatorToken().getText())) return onlyTested(p);
  return false;
}

/**
 * A read of a list value in the branch its `Array.isArray` test keeps for what is not an array
 * (`Array.isArray(r) ? r : r?.items ?? r?.data ?? []`, `!Array.isArray(r) ? r.items : r`): the
 * branch never runs for a list, v1's array or v2's unwrapped one, so the read is no use of it.
 */
export function notArrayBranch(access: Node, list: Node): boolean {
  const sym = list.getSymbol();
  if (!sym || !Node.isIdentifier(list)) return false;
  let child: Node = access;
  for (let up = access.getParent(); up && !isFunctionLike(up); child = up, up = up.getParent()) {
    if (!Node.isConditionalExpression(up) || child === up.getCondition()) continue;
    let test = skipParens(up.getCondition());
    let negated = false;
    if (Node.isPrefixUnaryExpression(test) && test.getOperatorToken() === SyntaxKind.ExclamationToken) {
      negated = true;
      test = skipParens(test.getOperand());
    }
    if (!Node.isCallExpression(test) || test.getExpression().getText() !== "Array.isArray") continue;
    const arg = test.getArguments()[0];
    if (!arg || !Node.isIdentifier(arg) || arg.getSymbol() !== sym) continue;
    if (child === (negated ? up.getWhenTrue() : up.getWhenFalse())) return true;
  }
  return false;
}

/** The awaited result is used for more than its status (`r.ok`, `r.status`), or is passed on. */
export function resultBeyondStatus(call: Node): boolean {
  let outer = skipParens(call);
  if (Node.isAwaitExpression(outer.getParent())) outer = skipParens(outer.getParent()!);
  const p = outer.getParent();
  if (!p || Node.isExpressionStatement(p)) return false;
  const statusOnly = (n: Node) => {
    const up = skipParens(n).getParent();
    return !!up && Node.isPropertyAccessExpression(up) && ["ok", "status", "statusText"].includes(up.getName());
  };
  if (Node.isVariableDeclaration(p) && Node.isIdentifier(p.getNameNode())) return referencesOf(enclosingFunction(p), p.getNameNode()).some((r) => !statusOnly(r));
  return !statusOnly(outer);
}

/**
 * The call expressions of a named function or method (same project), or undefined when it escapes.
 * A callback handed to a wrapper that returns its result is "called" where the wrapper is.
 */
export function callersOf(fn: Node): Node[] | undefined {
  const wrapped = wrapperCalls(fn);
  if (wrapped) return wrapped;
  const name = isFunctionLike(fn) ? (functionName(fn) ?? propertyName(fn)) : undefined;
  if (!name) return undefined;
  const out: Node[] = [];
  for (const r of references(name)) {
    // `module.exports = { getPod }` names the function without passing its value anywhere here.
    if (Node.isShorthandPropertyAssignment(r.getParent())) continue;
    // `ReturnType<typeof api.createPod>`: a type written with it holds no value.
    if (inType(r)) continue;
    const call = r.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === r) out.push(call);
    else return undefined;
  }
  // An exported function nobody here calls hands the record to code outside the run.
  if (!out.length && isExported(fn)) return undefined;
  return out;
}

export function declaresField(object: Node, name: string): boolean {
  try {
    return !!object.getType().getProperty(name)?.getDeclarations().length;
  } catch {
    return false;
  }
}

/**
 * `const api = { listPods: () => … }`: the property a function is the value of, called as
 * `api.listPods()`. Only where the object is a variable's value and every use of that variable
 * reads a property of it (not handed on whole, spread or exported by another name), so the
 * property's references are all of its uses.
 */
function propertyName(fn: Node): Node | undefined {
  const holder = fn.getParent();
  if (!holder || !Node.isPropertyAssignment(holder) || holder.getInitializer() !== fn) return undefined;
  const name = holder.getNameNode();
  const decl = objectVariable(holder);
  if (!Node.isIdentifier(name) || !decl) return undefined;
  // Every reference the compiler knows (an `export { api }` or `module.exports = api` too, which are not property reads).
  let uses: Node[];
  try {
    uses = findReferencesAsNodes(decl.getNameNode());
  } catch {
    return undefined;
  }
  // An import of it names it in another module (whose uses are among these); an export or a whole use does not read a property.
  const read = (r: Node) => r === decl.getNameNode() || Node.isImportSpecifier(r.getParent()) || inType(r) || (Node.isPropertyAccessExpression(r.getParent()) && (r.getParent() as any).getExpression() === r);
  return uses.every(read) ? name : undefined;
}

function inType(r: Node): boolean {
  return !!r.getFirstAncestor((x) => Node.isTypeNode(x));
}

/** The variable declaration whose value is the object literal holding `property` (through `as`, `satisfies`, parentheses). */
function objectVariable(property: Node): VariableDeclaration | undefined {
  const literal = property.getParent();
  const object = literal && typedOuter(literal);
  const p = object?.getParent();
  return p && Node.isVariableDeclaration(p) && p.getInitializer() === object && Node.isIdentifier(p.getNameNode()) ? p : undefined;
}

function isExported(fn: Node): boolean {
  // An object's function property is as exported as the object (`export const api = { … }`).
  const decl = propertyName(fn) ? objectVariable(fn.getParent()!) : undefined;
  if (decl) return !!decl.getVariableStatement()?.isExported();
  const holder = Node.isFunctionDeclaration(fn) ? fn : fn.getParent();
  if (Node.isFunctionDeclaration(holder)) return holder.isExported() || holder.isDefaultExport();
  if (holder && Node.isVariableDeclaration(holder)) return !!holder.getVariableStatement()?.isExported();
  const cls = fn.getFirstAncestor((x) => Node.isClassDeclaration(x));
  if (cls && Node.isClassDeclaration(cls) && (Node.isMethodDeclaration(fn) || Node.isPropertyDeclaration(holder ?? fn))) {
    if (Node.isMethodDeclaration(fn) && fn.hasModifier?.(SyntaxKind.PrivateKeyword)) return false;
    return cls.isExported() || cls.isDefaultExport();
  }
  return false;
}

/** The property declarations of `names` on the type a value (or its function's return) is declared with. */
export function fieldDeclarations(n: Node, viaReturn: boolean, names: string[]): Node[] {
  try {
    let type = n.getType();
    if (viaReturn) {
      const fn = enclosingFunction(n) as any;
      const ret = fn.getReturnType?.();
      if (ret) type = ret.getTypeArguments?.()[0] && /^Promise</.test(ret.getText()) ? ret.getTypeArguments()[0] : ret;
    }
    const out: Node[] = [];
    for (const t of type.isUnion() ? type.getUnionTypes() : [type]) {
      const target = t.isArray() ? t.getArrayElementTypeOrThrow() : t;
      for (const name of names) for (const d of target.getProperty(name)?.getDeclarations() ?? []) out.push(d);
    }
    return out;
  } catch {
    return [];
  }
}
