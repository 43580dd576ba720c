// A name a loop takes from an object's keys: `key` of `for (const [key, value] of
// Object.entries(query))`, of `for (const key of Object.keys(query))` or of `for (const key in
// query)`. A query written name by name in such a loop (`url.searchParams.set(key, String(value))`)
// carries that object's keys and no other (skipping some, `if (value == null) continue`, adds none),
// so its names are followed as the object's, as for `new URLSearchParams(query)`.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";

/** The object whose keys the loop gives `name`, or undefined when `name` is not such a loop's key. */
export function loopedKeysOf(a: Analysis, name: Node): Node | undefined {
  const n = unwrapExpression(name);
  const b = Node.isIdentifier(n) ? bind(a, n) : undefined;
  // A `const` loop name only: one written again in the body could be any name.
  if (b?.kind !== "var" || !b.isConst) return undefined;
  const list = b.decl.getParent();
  const loop = list?.getParent();
  if (!list || !Node.isVariableDeclarationList(list) || !loop || (loop as any).getInitializer?.() !== list) return undefined;
  const declared = (b.decl as any).getNameNode?.() as Node | undefined;
  if (!declared) return undefined;
  if (Node.isForInStatement(loop)) return Node.isIdentifier(declared) ? withoutEmptyFallback(loop.getExpression()) : undefined;
  if (!Node.isForOfStatement(loop)) return undefined;
  const over = unwrapExpression(loop.getExpression());
  if (!Node.isCallExpression(over) || over.getArguments().length !== 1) return undefined;
  const callee = over.getExpression().getText().replace(/\s/g, "");
  const object = withoutEmptyFallback(over.getArguments()[0]!);
  if (callee === "Object.keys") return Node.isIdentifier(declared) ? object : undefined;
  // `[key, value]`: the first element is the key.
  if (callee !== "Object.entries" || !Node.isArrayBindingPattern(declared)) return undefined;
  const first = declared.getElements()[0];
  return first && Node.isBindingElement(first) && !first.getDotDotDotToken() && first.getNameNode().getKind() === SyntaxKind.Identifier && first.getNameNode().getText() === n.getText() ? object : undefined;
}

/** `opts.query ?? {}`, `query || {}`: an empty object in place of none adds no key, so the keys are the left side's. */
function withoutEmptyFallback(object: Node): Node {
  const u = unwrapExpression(object);
  if (!Node.isBinaryExpression(u) || !["??", "||"].includes(u.getOperatorToken().getText())) return object;
  const right = unwrapExpression(u.getRight());
  return Node.isObjectLiteralExpression(right) && !right.getProperties().length ? u.getLeft() : object;
}
