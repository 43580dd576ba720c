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
import { classOfThis, memberValues } from "./symbols.ts";

/**
 * `this.<key>` read by the transport call: its URL's base (`${this.baseUrl}…`), else its receiver
 * (`this.instance.get(…)`, `this.http(…)`). The URL's own base comes first: over an injected
 * transport (`this.fetcher(\`${this.baseUrl}${path}\`)`) the transport member is the same function
 * in every instance, and only the base member tells a RunPod instance from another API's.
 */
export function receiverMember(http: HttpCall, anchor: Node | undefined): Node | undefined {
  const callee = unwrapExpression(http.call.getExpression());
  const candidates = [anchor && unwrapExpression(anchor), Node.isPropertyAccessExpression(callee) ? unwrapExpression(callee.getExpression()) : undefined, callee];
  return candidates.find((c) => c && Node.isPropertyAccessExpression(c) && c.getExpression().getKind() === SyntaxKind.ThisKeyword);
}

/** Every v1 base literal a value can hold (a string, or the base option of an instance a factory made); undefined when not known. */
export function heldSources(a: Analysis, at: Node, v: Value): Node[] | undefined {
  const out: Node[] = [];
  for (const m of optionsOf(v)) {
    if (m.kind === "string") out.push(...(baseIn(m)?.sources ?? []));
    else if (m.kind === "made") {
      const options = BASE_KEYS.map((k) => a.evaluator.property(at, m, k)).filter((o) => o.kind !== "dynamic");
      if (!options.length) return undefined;
      for (const o of options) out.push(...(baseIn(o)?.sources ?? []));
    } else return undefined;
  }
  return [...new Set(out)];
}

/** The v1 base literals a method call's receiver gives it through `this.<key>`; undefined when the receiver is not known. */
export function receiverSources(a: Analysis, receiver: Node, key: string): Node[] | undefined {
  if (receiver.getKind() === SyntaxKind.ThisKeyword) return superSources(a, receiver, key);
  const owner = a.evaluator.evaluate(receiver);
  const owners = optionsOf(owner);
  if (!owners.length || !owners.every((o) => o.kind === "instance" || o.kind === "object")) return undefined;
  return heldSources(a, receiver, a.evaluator.property(receiver, owner, key));
}

/**
 * `this` in a subclass that declares no `key` of its own but hands its parent's constructor its
 * options (`super({ baseURL: "…" })`): the parent's member as that call makes it. Two subclasses of
 * one core, RunPod's and another API's, each reach it with their own base.
 */
function superSources(a: Analysis, self: Node, key: string): Node[] | undefined {
  const cls = classOfThis(self);
  if (!cls || !Node.isClassDeclaration(cls) || memberValues(cls, key).length || cls.getProperty(key)) return undefined;
  const supers = cls.getConstructors()[0]?.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => c.getExpression().getKind() === SyntaxKind.SuperKeyword) ?? [];
  const parent = cls.getBaseClass();
  if (supers.length !== 1 || !parent || parent.getSourceFile().isDeclarationFile()) return undefined;
  const made: Value = { kind: "instance", cls: parent, call: supers[0]!, frame: undefined };
  return heldSources(a, self, a.evaluator.property(self, made, key));
}

/**
 * Whether a helper method called on `receiver` may use a v1 base (`literal`, when given: that one).
 * False only when the receiver is known (instances of the project's class, object literals) and
 * none of its `key` members holds it (an instance's base option included); anything not known may.
 */
export function receiverHolds(a: Analysis, receiver: Node, key: string, literal?: Node): boolean {
  const sources = receiverSources(a, receiver, key);
  return !sources || (literal ? sources.includes(literal) : sources.length > 0);
}
