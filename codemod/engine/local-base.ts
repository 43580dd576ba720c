// A marked call whose base is computed in another function (`${apiBase(env)}/pods`, a URL built on
// `getConfig().baseUrl`) still has, in its own function, the expression that yields that base. The
// call keeps v1 by replacing that expression at the site, never the producer: the producer serves
// the calls that migrate, and its default flips with them.
import { Node } from "../ts-morph.ts";
import { runningFunction } from "./scope.ts";
import { resolveParts, unwrapExpression } from "./urls.ts";
import { bind, urlContext } from "./values.ts";
import { references } from "./references.ts";
import type { Analysis } from "./state.ts";

/**
 * The expression in `at`'s own function that evaluates to exactly the base `base` (a node the URL's
 * parts were resolved to, elsewhere), reached from the URL expression through template heads, `+`,
 * `new URL(…)` and local variables that only this call reads. Undefined when there is none.
 */
export function localBaseExpression(a: Analysis, urlNode: Node, base: Node, at: Node): Node | undefined {
  // (A call inside a retry thunk the function returns, `withRetry(async () => axios.request({ url }))`, runs for that function.)
  const fn = runningFunction(at);
  const sf = at.getSourceFile();
  const ctx = urlContext(a);
  const isBase = (n: Node) => {
    const parts = resolveParts(n, ctx);
    return parts.length === 1 && parts[0]!.kind === "base" && parts[0]!.node === base;
  };
  const seen = new Set<Node>();
  const walk = (input: Node, depth: number): Node | undefined => {
    const n = unwrapExpression(input);
    if (depth > 6 || seen.has(n) || n.getSourceFile() !== sf || runningFunction(n) !== fn) return undefined;
    seen.add(n);
    if (isBase(n)) return n;
    if (Node.isTemplateExpression(n)) {
      const span = n.getTemplateSpans()[0];
      return n.getHead().getLiteralText() === "" && span ? walk(span.getExpression(), depth + 1) : undefined;
    }
    if (Node.isBinaryExpression(n) && n.getOperatorToken().getText() === "+") return walk(n.getLeft(), depth + 1);
    if (Node.isNewExpression(n) && n.getExpression().getText() === "URL") {
      const [rel, b] = n.getArguments();
      return b ? walk(b, depth + 1) : rel ? walk(rel, depth + 1) : undefined;
    }
    if (Node.isCallExpression(n)) {
      const callee = n.getExpression();
      if (Node.isPropertyAccessExpression(callee) && callee.getName() === "toString" && n.getArguments().length === 0) return walk(callee.getExpression(), depth + 1);
      return undefined;
    }
    if (Node.isPropertyAccessExpression(n) && n.getName() === "href") return walk(n.getExpression(), depth + 1);
    if (Node.isIdentifier(n)) {
      // A local variable holding the URL: its initializer is rewritten only when this call is its one reader.
      const b = bind(a, n);
      if (b?.kind !== "var" || !b.init || b.path.length || !Node.isVariableDeclaration(b.decl) || !soleReader(b.decl, at)) return undefined;
      return walk(b.init, depth + 1);
    }
    return undefined;
  };
  return walk(urlNode, 0);
}

/** Whether the call `at` is the only call given the variable (its own method calls, `url.searchParams.set`, are not others). */
export function soleReader(decl: Node, at: Node): boolean {
  const name = (decl as any).getNameNode?.() as Node | undefined;
  if (!name || !Node.isIdentifier(name)) return false;
  for (const ref of references(name)) {
    if (ref === name) continue;
    const parent = ref.getParent();
    if (!parent) continue;
    // `url.searchParams.set(…)`, `url.pathname`: the URL object's own members.
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === ref) continue;
    if (ref.getFirstAncestor((x) => x === at)) continue;
    return false;
  }
  return true;
}
