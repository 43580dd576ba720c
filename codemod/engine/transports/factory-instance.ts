// A function of the project that returns a library instance (`function rp() { return
// axios.create({ baseURL }) }`, `const client = () => ky.create({ prefixUrl })`): each call of it is
// that instance, with the base its config carries, so `rp().post(…)` and `const c = rp(); c.post(…)`
// are calls on the instance: their methods, bodies and per-request bases are the library's. Every
// return must give an instance of the same library with the same base; otherwise it is not one.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import { enclosingFunction, isFunctionLike } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import type { Analysis } from "../state.ts";
import { bind } from "../values.ts";
import type { Root } from "./transport.ts";

/** The instance root a factory call gives, by `rootOfValue` on each returned expression. */
export function factoryInstance(a: Analysis, call: CallExpression, rootOfValue: (value: Node) => Root | undefined): Root | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isIdentifier(callee)) return undefined;
  const b = bind(a, callee);
  const fn = b?.kind === "function" ? b.decl : b?.kind === "var" && b.init && isFunctionLike(unwrapExpression(b.init)) ? unwrapExpression(b.init) : undefined;
  if (!fn || Node.isClassDeclaration(fn)) return undefined;
  const returned = returnedExpressions(fn);
  if (!returned.length) return undefined;
  const roots = returned.map(rootOfValue);
  const first = roots[0];
  if (!first || first.lib === "helper" || !("instance" in first) || !first.instance) return undefined;
  const same = roots.every((r) => r && r.lib === first.lib && "instance" in r && r.instance?.value === first.instance!.value);
  return same ? first : undefined;
}

/** What a function returns: an arrow's expression body, or each `return` of its own (not of nested functions). */
function returnedExpressions(fn: Node): Node[] {
  if (Node.isArrowFunction(fn) && !Node.isBlock(fn.getBody())) return [fn.getBody()];
  const out: Node[] = [];
  for (const r of fn.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (enclosingFunction(r) !== fn) continue;
    const e = r.getExpression();
    if (!e) return [];
    out.push(e);
  }
  return out;
}
