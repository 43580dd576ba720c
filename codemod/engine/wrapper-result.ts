// A callback handed to a wrapper of the project that returns what the callback returns
// (`this.withRetry(() => axios.post(…))`, `timed("create", async () => api.get(…))`): the
// wrapper's call holds the callback's answer, so the answer is followed from there, as if the
// call were made in its place. Judged by the wrapper's own returns (value flow), never by its name:
// every value it returns must be the callback's result, called through its parameter.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { referencesOf, typedOuter } from "./nodes.ts";

/** The calls of project wrappers that hand back what `fn` (a callback handed to them) returns, or undefined. */
export function wrapperCalls(fn: Node): Node[] | undefined {
  if (!Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn)) return undefined;
  const call = typedOuter(fn).getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const index = call.getArguments().findIndex((x) => typedOuter(x) === typedOuter(fn));
  if (index < 0) return undefined;
  const wrapper = wrapperFunction(call.getExpression());
  const param = wrapper && (wrapper as any).getParameters()[index];
  if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken()) return undefined;
  return returnsCallbackResult(wrapper!, param) ? [call] : undefined;
}

/** The one function of the run's source a callee names (a function, a method, a function-valued variable or property). */
function wrapperFunction(callee: Node): Node | undefined {
  let decls: Node[];
  try {
    let symbol = callee.getSymbol();
    if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol() ?? symbol;
    decls = symbol?.getDeclarations() ?? [];
  } catch {
    return undefined;
  }
  const fns = decls.map((d) => {
    const init = Node.isVariableDeclaration(d) || Node.isPropertyAssignment(d) || Node.isPropertyDeclaration(d) ? d.getInitializer() : d;
    return init && isFunctionLike(init) && !Node.isClassDeclaration(init) && (init as any).getBody?.() ? init : undefined;
  });
  // Several bodies (an overridden method, overloads with an implementation elsewhere): which one runs is not known.
  if (fns.length !== 1 || !fns[0] || fns[0].getSourceFile().isDeclarationFile()) return undefined;
  return fns[0];
}

/**
 * Every value `wrapper` returns is `param(…)` (awaited or not), or a `const` holding it; the
 * parameter is never written. A wrapper that returns anything else (a result object, a cached
 * value, a default on failure) changes the answer, and is not looked through.
 */
function returnsCallbackResult(wrapper: Node, param: Node & { getNameNode(): Node }): boolean {
  const name = param.getNameNode();
  if (!Node.isIdentifier(name)) return false;
  const refs = referencesOf(wrapper, name).filter((r) => r !== name);
  if (refs.some((r) => written(r))) return false;
  const isCallbackCall = (e: Node | undefined): boolean => {
    let x = e && unwrapValue(e);
    if (x && Node.isIdentifier(x)) x = constValue(wrapper, x);
    return !!x && Node.isCallExpression(x) && refs.includes(x.getExpression());
  };
  const body = (wrapper as any).getBody?.() as Node | undefined;
  if (body && !Node.isBlock(body)) return isCallbackCall(body);
  const returns = wrapper.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === wrapper);
  return returns.length > 0 && returns.every((r) => isCallbackCall(r.getExpression()));
}

/** Through parentheses, `await`, `as`, `!`, `satisfies`. */
function unwrapValue(e: Node): Node {
  let x = e;
  while (Node.isParenthesizedExpression(x) || Node.isAwaitExpression(x) || Node.isAsExpression(x) || Node.isNonNullExpression(x) || Node.isSatisfiesExpression(x)) x = x.getExpression();
  return x;
}

/** `const result = await fn(); … return result;`: the initializer of a `const` declared in the wrapper itself. */
function constValue(wrapper: Node, id: Node): Node | undefined {
  const decl = wrapper.getDescendantsOfKind(SyntaxKind.VariableDeclaration).find((d) => d.getNameNode().getText() === id.getText() && enclosingFunction(d) === wrapper);
  const list = decl?.getParent();
  if (!decl || !list || !Node.isVariableDeclarationList(list) || String(list.getDeclarationKind()) !== "const") return undefined;
  const init = decl.getInitializer();
  return init && unwrapValue(init);
}

/** On the left of an assignment, or updated (`fn = other`, `fn++`). */
function written(r: Node): boolean {
  const p = r.getParent();
  if (!p) return false;
  if (Node.isBinaryExpression(p) && p.getLeft() === r && p.getOperatorToken().getText().endsWith("=") && !["==", "===", "!=", "!=="].includes(p.getOperatorToken().getText())) return true;
  return Node.isPostfixUnaryExpression(p) || (Node.isPrefixUnaryExpression(p) && ["++", "--"].includes(p.getText().slice(0, 2)));
}
