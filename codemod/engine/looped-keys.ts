// A name a loop takes from an object's keys: `key` of `for (const [key, value] of
// Object.entries(query))`, of `for (const key of Object.keys(query))` or of `for (const key in
// query)`. A query written name by name in such a loop (`url.searchParams.set(key, String(value))`)
// carries that object's keys and no other (skipping some, `if (value == null) continue`, adds none),
// so its names are followed as the object's, as for `new URLSearchParams(query)`.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { enclosingEntryLoop } from "./evaluate/entry-loops.ts";

/** The object whose keys the loop gives `name`, or undefined when `name` is not such a loop's key. */
export function loopedKeysOf(a: Analysis, name: Node): Node | undefined {
  const n = unwrapExpression(name);
  const b = Node.isIdentifier(n) ? bind(a, n) : undefined;
  // A `const` loop name only: one written again in the body could be any name.
  if (b?.kind !== "var" || !b.isConst) return undefined;
  // Declared by the loop itself, not in its body under the same name.
  const list = b.decl.getParent();
  const loop = list?.getParent();
  if (!list || !loop || (!Node.isForOfStatement(loop) && !Node.isForInStatement(loop)) || loop.getInitializer() !== list) return undefined;
  return enclosingEntryLoop(b.decl, n.getText())?.source;
}
