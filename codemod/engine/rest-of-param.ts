// The rest of a destructured parameter (`const { apiKey, ...init } = options`, or a parameter
// written `{ apiKey, ...init }`): the caller's options less the keys the pattern takes out, so what
// a caller puts under any other key (`method`, `body`) reaches whatever `init` is handed to.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { Binding } from "./scope.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";

export type RestOfParam = { param: Binding & { kind: "param" }; taken: string[] };

/** The keys an object pattern names besides its rest element. */
function takenKeys(pattern: Node): string[] | undefined {
  if (!Node.isObjectBindingPattern(pattern)) return undefined;
  const keys: string[] = [];
  for (const el of pattern.getElements()) {
    if (el.getDotDotDotToken()) continue;
    const prop = el.getPropertyNameNode();
    if (prop && !Node.isIdentifier(prop) && !Node.isStringLiteral(prop)) return undefined; // a computed key: unknown what is left
    keys.push(prop ? (Node.isStringLiteral(prop) ? prop.getLiteralValue() : prop.getText()) : el.getNameNode().getText());
  }
  return keys;
}

/** `init` bound as the rest of a parameter of `fn` (directly, or through a `const` destructuring of it). */
export function restOfParam(a: Analysis, fn: Node, node: Node | undefined): RestOfParam | undefined {
  const u = node && unwrapExpression(node);
  if (!u || !Node.isIdentifier(u)) return undefined;
  const b = bind(a, u);
  if (!b || (b.kind !== "param" && b.kind !== "var") || b.path.length !== 1 || b.path[0] !== "...") return undefined;
  if (b.kind === "param") {
    const taken = b.fn === fn ? takenKeys((b.decl as any).getNameNode()) : undefined;
    // The parameter as a whole (its rest is what a caller gave, less the named keys).
    return taken ? { param: { ...b, path: [] }, taken } : undefined;
  }
  if (!b.isConst || !b.init) return undefined;
  const whole = unwrapExpression(b.init);
  const source = Node.isIdentifier(whole) ? bind(a, whole) : undefined;
  if (source?.kind !== "param" || source.fn !== fn || source.path.length !== 0) return undefined;
  const taken = takenKeys((b.decl as any).getNameNode());
  return taken ? { param: source, taken } : undefined;
}
