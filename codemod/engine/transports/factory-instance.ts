// A function of the project that returns a library instance (`function rp() { return
// axios.create({ baseURL }) }`, `const client = () => ky.create({ prefixUrl })`): each call of it is
// that instance, with the base its config carries, so `rp().post(…)` and `const c = rp(); c.post(…)`
// are calls on the instance: their methods, bodies and per-request bases are the library's. Every
// return must give an instance of the same library with the same base; otherwise it is not one.
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { returnedExpressions } from "../values.ts";
import { calledFunction } from "../called-functions.ts";
import type { Root } from "./transport.ts";

/** The instance root a factory call gives, by `rootOfValue` on each returned expression. */
export function factoryInstance(a: Analysis, call: CallExpression, rootOfValue: (value: Node) => Root | undefined): Root | undefined {
  const fn = calledFunction(a, call);
  if (!fn) return undefined;
  const returned = returnedExpressions(fn);
  if (!returned.length) return undefined;
  const roots = returned.map(rootOfValue);
  const first = roots[0];
  if (!first || first.lib === "helper" || !("instance" in first) || !first.instance) return undefined;
  const same = roots.every((r) => r && r.lib === first.lib && "instance" in r && r.instance?.value === first.instance!.value);
  return same ? first : undefined;
}
