// Loops over an object's own entries: `for (const [k, v] of Object.entries(src))`,
// `for (const k of Object.keys(src))`, `for (const k in src)` and their `.forEach` forms. One
// reader serves the copies (`out[k] = v`, copies.ts) and the query names a loop writes
// (`url.searchParams.set(k, …)`, looped-keys.ts).
import { Node } from "../../ts-morph.ts";
import { unwrapExpression } from "../urls.ts";

export interface EntryLoop {
  /** The statement or callback body that iterates; a write must be directly in it. */
  body: Node;
  /** The object whose entries the loop walks (`src` of `Object.entries(src ?? {})`). */
  source: Node;
  key: string;
  value?: string;
}

/** The loop over an object's entries, keys or `in` names, nearest above `at`, that binds `key`. */
export function enclosingEntryLoop(at: Node, key: string): EntryLoop | undefined {
  for (let n: Node | undefined = at.getParent(); n; n = n.getParent()) {
    if (Node.isForOfStatement(n) || Node.isForInStatement(n)) {
      const bound = loopBinding(n.getInitializer());
      if (!bound || bound.key !== key) return undefined;
      if (Node.isForInStatement(n)) return bound.value ? undefined : { body: n.getStatement(), source: withoutEmptyFallback(n.getExpression()), key };
      const src = entriesOf(n.getExpression(), bound.pair);
      return src ? { body: n.getStatement(), source: src, key, value: bound.value } : undefined;
    }
    if (Node.isArrowFunction(n) || Node.isFunctionExpression(n)) {
      // `Object.entries(src).forEach(([k, v]) => …)`
      const call = n.getParent();
      const param = n.getParameters()[0];
      const bound = param && loopBinding(param.getNameNode());
      if (!call || !Node.isCallExpression(call) || call.getArguments()[0] !== n || !bound || bound.key !== key) return undefined;
      const callee = unwrapExpression(call.getExpression());
      if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "forEach") return undefined;
      const src = entriesOf(callee.getExpression(), bound.pair);
      return src ? { body: n.getBody(), source: src, key, value: bound.value } : undefined;
    }
    if (Node.isFunctionDeclaration(n) || Node.isMethodDeclaration(n)) return undefined;
  }
  return undefined;
}

/** `const [k, v]`, `const k`, `[k, v]`, `k`: the names bound; `pair` when bound from an entry's [key, value]. */
function loopBinding(init: Node | undefined): { key: string; value?: string; pair: boolean } | undefined {
  if (!init) return undefined;
  const decl = Node.isVariableDeclarationList(init) && init.getDeclarations().length === 1 ? init.getDeclarations()[0]!.getNameNode() : init;
  if (Node.isIdentifier(decl)) return { key: decl.getText(), pair: false };
  if (Node.isArrayBindingPattern(decl)) {
    const [k, v, more] = decl.getElements();
    if (more || !k || !Node.isBindingElement(k) || k.getDotDotDotToken() || !Node.isIdentifier(k.getNameNode()) || k.getInitializer()) return undefined;
    if (!v) return { key: k.getName(), pair: true };
    if (!Node.isBindingElement(v) || !Node.isIdentifier(v.getNameNode()) || v.getInitializer()) return undefined;
    return { key: k.getName(), value: v.getName(), pair: true };
  }
  return undefined;
}

/** `Object.entries(src)` (bound as `[k, v]` or `[k]`) or `Object.keys(src)` (bound as `k`): the `src`. */
function entriesOf(e: Node, pair: boolean): Node | undefined {
  const u = unwrapExpression(e);
  if (!Node.isCallExpression(u) || u.getArguments().length !== 1) return undefined;
  const callee = u.getExpression().getText().replace(/\s/g, "");
  if (callee !== (pair ? "Object.entries" : "Object.keys")) return undefined;
  return withoutEmptyFallback(u.getArguments()[0]!);
}

/** `opts.query ?? {}`, `query || {}`: an empty object in place of none adds no entry, so the entries are the left side's. */
function withoutEmptyFallback(object: Node): Node {
  const u = unwrapExpression(object);
  if (!Node.isBinaryExpression(u) || !["??", "||"].includes(u.getOperatorToken().getText())) return u;
  const right = unwrapExpression(u.getRight());
  return Node.isObjectLiteralExpression(right) && !right.getProperties().length ? unwrapExpression(u.getLeft()) : u;
}
