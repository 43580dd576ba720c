// A request helper that is a method reaching its transport through its own instance
// (`get(url) { return this.instance.get(url) }`, `${this.baseUrl}${path}`) serves every instance
// of its class: two instances made with different bases (RunPod's and another API's) share it.
// So a call of it is a site, and a use of a base, only where its receiver can hold that base.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { unwrapExpression } from "./urls.ts";
import { baseIn } from "./evaluate/bases.ts";
import { optionsOf, type Value } from "./evaluate/value.ts";
import { BASE_KEYS } from "./transports/convention.ts";

/** `this.<key>` read by the transport call: its receiver (`this.instance.get(…)`, `this.http(…)`) or its URL's base (`${this.baseUrl}…`). */
export function receiverKey(http: HttpCall, anchor: Node | undefined): string | undefined {
  const callee = unwrapExpression(http.call.getExpression());
  const candidates = [Node.isPropertyAccessExpression(callee) ? unwrapExpression(callee.getExpression()) : undefined, callee, anchor && unwrapExpression(anchor)];
  for (const c of candidates) {
    if (c && Node.isPropertyAccessExpression(c) && c.getExpression().getKind() === SyntaxKind.ThisKeyword) return c.getName();
  }
  return undefined;
}

/**
 * Whether a helper method called on `receiver` may use a v1 base (`literal`, when given: that one).
 * False only when the receiver is known (instances of the project's class, object literals) and
 * none of its `key` members holds it; anything not known may.
 */
export function receiverHolds(a: Analysis, receiver: Node, key: string, literal?: Node): boolean {
  if (receiver.getKind() === SyntaxKind.ThisKeyword) return true;
  const owner = a.evaluator.evaluate(receiver);
  const owners = optionsOf(owner);
  if (!owners.length || !owners.every((o) => o.kind === "instance" || o.kind === "object")) return true;
  return optionsOf(a.evaluator.property(receiver, owner, key)).some((m) => holds(a, receiver, m, literal));
}

function holds(a: Analysis, at: Node, m: Value, literal: Node | undefined): boolean {
  if (m.kind === "string") return found(baseIn(m), literal);
  // An instance a factory made from options (`axios.create({ baseURL })`): its base option.
  if (m.kind === "made") return BASE_KEYS.some((k) => {
    const option = a.evaluator.property(at, m, k);
    return option.kind !== "dynamic" && found(baseIn(option), literal);
  }) || !BASE_KEYS.some((k) => a.evaluator.property(at, m, k).kind !== "dynamic");
  return true;
}

function found(base: ReturnType<typeof baseIn>, literal: Node | undefined): boolean {
  return !!base && (!literal || base.sources.includes(literal));
}
