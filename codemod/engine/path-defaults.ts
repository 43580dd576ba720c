// The default of a request helper's path (`call({ pathname = '/pods', … })`, `send(route = '/pods')`):
// the helper's sites are its calls, each planned with the path it gives. Where every call of the
// helper gives its own, the default never reaches a request; it is not a v1 use left unfollowed
// (recall-net.ts would keep the helper's base v1 for it). A call that gives none sends the default:
// then it still counts.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { functionName, references } from "./references.ts";
import { objectLiteral, prop } from "./values.ts";
import { unwrapExpression } from "./urls.ts";

/** Whether the literal `n` is the default of a helper's path that every call of the helper gives itself. */
export function overriddenPathDefault(a: Analysis, n: Node): boolean {
  const holder = n.getParent();
  if (!holder || !(Node.isBindingElement(holder) || Node.isParameterDeclaration(holder)) || holder.getInitializer() !== n) return false;
  // The parameter it defaults: itself, or the one whose object pattern holds it (one level).
  const param = Node.isParameterDeclaration(holder) ? holder : holder.getParent()?.getParent();
  if (!param || !Node.isParameterDeclaration(param)) return false;
  const fn = param.getParent();
  const sig = fn && a.helperCache.get(fn);
  if (!fn || !sig) return false;
  const index = (fn as unknown as { getParameters(): Node[] }).getParameters().indexOf(param);
  const key = Node.isBindingElement(holder) ? (holder.getPropertyNameNode() ?? holder.getNameNode()).getText() : undefined;
  // The helper's path: the positional parameter, or the key of its options parameter.
  if (key === undefined ? sig.pathIndex !== index || sig.pathKey !== undefined : sig.optionsIndex !== index || sig.pathKey !== key) return false;
  const name = functionName(fn);
  const uses = name ? references(name) : [];
  return uses.length > 0 && uses.every((r) => {
    const call = r.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== r) return false;
    const arg = call.getArguments()[index];
    if (!arg) return false;
    return key === undefined ? !(Node.isIdentifier(unwrapExpression(arg)) && arg.getText() === "undefined") : !!prop(objectLiteral(a, arg), key);
  });
}
