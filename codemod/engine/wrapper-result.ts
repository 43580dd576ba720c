// A callback handed to a wrapper of the project that returns what the callback returns
// (`this.withRetry(() => axios.post(…))`, `timed("create", async () => api.get(…))`): the
// wrapper's call holds the callback's answer, so the answer is followed from there, as if the
// call were made in its place. Judged by the wrapper's own returns (value flow), never by its name:
// every value it returns must be the callback's result, called through its parameter.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, typedOuter, writtenAt } from "./nodes.ts";
import { unwrapAwaited } from "./urls.ts";
import { functionBodiesNamed } from "./record-callees.ts";

/** The calls of project wrappers that hand back what `fn` (a callback handed to them) returns, or undefined. */
export function wrapperCalls(fn: Node): Node[] | undefined {
  if (!Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn)) return undefined;
  const call = typedOuter(fn).getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const index = call.getArguments().findIndex((x) => typedOuter(x) === typedOuter(fn));
  if (index < 0) return undefined;
  const bodies = functionBodiesNamed(call.getExpression());
  // Several bodies (an overridden method, a name declared twice): which one runs is not known.
  const wrapper = bodies.length === 1 ? bodies[0] : undefined;
  const param = wrapper && (wrapper as any).getParameters()[index];
  if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken()) return undefined;
  return returnsCallbackResult(wrapper!, param) ? [call] : undefined;
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
  if (refs.some((r) => writtenAt(r))) return false;
  const isCallbackCall = (e: Node | undefined): boolean => {
    let x = e && unwrapAwaited(e);
    if (x && Node.isIdentifier(x)) x = constValue(wrapper, x);
    return !!x && Node.isCallExpression(x) && refs.includes(x.getExpression());
  };
  const body = (wrapper as any).getBody?.() as Node | undefined;
  if (body && !Node.isBlock(body)) return isCallbackCall(body);
  const returns = wrapper.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === wrapper);
  return returns.length > 0 && returns.every((r) => isCallbackCall(r.getExpression()));
}

/** `const result = await fn(); … return result;`: the initializer of a `const` declared in the wrapper itself. */
function constValue(wrapper: Node, id: Node): Node | undefined {
  const decl = wrapper.getDescendantsOfKind(SyntaxKind.VariableDeclaration).find((d) => d.getNameNode().getText() === id.getText() && enclosingFunction(d) === wrapper);
  const list = decl?.getParent();
  if (!decl || !list || !Node.isVariableDeclarationList(list) || String(list.getDeclarationKind()) !== "const") return undefined;
  const init = decl.getInitializer();
  return init && unwrapAwaited(init);
}
