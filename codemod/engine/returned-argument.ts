// A function of the project that hands one of its arguments back as its value: a configuration
// helper's fallback (`optional("RUNPOD_REST_URL", "https://rest.runpod.io/v1")` over
// `return process.env[name]?.trim() || fallback`), `pick(a, b) => a ?? b`. The call holds what the
// argument holds, so a base given there is followed from the call (the do-no-harm check), with
// what the function lets take precedence (`process.env[name]`) noted as overrides. Only where every
// use of the parameter is in what the function returns (through `??`, `||`, a conditional's
// branch, or as the receiver of a string method: `normalize(base) => base.replace(/\/+$/, "")`,
// whose value its caller checks is still the base, follow-uses.ts `holdsBase`): a parameter used
// any other way (`${fallback}/pods`, handed on, tested alone) may be where a URL is built, and the
// bare base stays unfollowed there.
import { Node } from "../ts-morph.ts";
import type { CallExpression } from "ts-morph";
import { enclosingFunction } from "./scope.ts";
import { referencesOf } from "./nodes.ts";
import { isValueWrapper } from "./urls.ts";
import { functionNamed } from "./record-callees.ts";
import type { Analysis } from "./state.ts";
import { stringMethodReceiver } from "./evaluate/string-methods.ts";

const PASSES = (n: Node) => isValueWrapper(n) || Node.isAwaitExpression(n);

/** The expressions taking precedence over the argument in what the function returns, when it returns the argument; else undefined. */
export function returnedArgument(a: Analysis, call: CallExpression, arg: Node): Returned | undefined {
  const index = call.getArguments().indexOf(arg as never);
  const fn = index < 0 ? undefined : functionNamed(a, call.getExpression());
  const param = fn && (fn as any).getParameters?.()[index];
  if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken() || param.isParameterProperty()) return undefined;
  const name = param.getNameNode();
  if (!Node.isIdentifier(name)) return undefined;
  const refs = referencesOf(fn!, name).filter((r) => r !== name);
  if (!refs.length) return undefined;
  const before: Returned = [];
  for (const r of refs) if (!returned(fn!, r, before)) return undefined;
  return before;
}

/** What takes precedence over the argument; `changed` when a string method runs on it on the way. */
export type Returned = Node[] & { changed?: boolean };

/** `r` reaches a value `fn` returns; the left operands of `??` / `||` it sits right of are added to `before`. */
function returned(fn: Node, r: Node, before: Returned): boolean {
  let n = r;
  for (let p = n.getParent(); p; n = p, p = n.getParent()) {
    if (PASSES(p)) continue;
    if (Node.isBinaryExpression(p) && ["??", "||"].includes(p.getOperatorToken().getText())) {
      if (p.getRight() === n) before.push(p.getLeft());
      continue;
    }
    if (Node.isConditionalExpression(p) && p.getCondition() !== n) continue;
    // `base.replace(/\/+$/, "")`, `base.trim()`: the method's call stands for the parameter.
    const call = Node.isPropertyAccessExpression(p) && p.getExpression() === n ? p.getParent() : undefined;
    if (call && Node.isCallExpression(call) && call.getExpression() === p && stringMethodReceiver(call) === n) {
      before.changed = true;
      p = call;
      continue;
    }
    if (Node.isReturnStatement(p)) return enclosingFunction(p) === fn;
    return Node.isArrowFunction(p) && p === fn && p.getBody() === n;
  }
  return false;
}
