// Where a data-fetching hook's answer is read: SWR keeps what its fetcher resolves to and gives it
// back as the hook's `data` (`const { data } = useSWR(…)`, `useSWR(…).data`, `swr.data`), also
// through a custom hook that returns the hook's result (`return useSWR(…)`, then `const { data } =
// usePods()`). The value is not awaited: `data` is the body itself (undefined while loading).
import { Node } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import type { BodySite } from "./body-sites.ts";

const MAX_DEPTH = 3;

/** The reads of the hook result's `data` (binding elements or member reads), following returns to the custom hooks' callers. */
export function hookDataSites(call: Node, depth = 0): BodySite[] {
  const outer = skipParens(call);
  const p = outer.getParent();
  if (!p) return [];
  const to = depth < MAX_DEPTH ? returnedTo(outer) : undefined;
  if (Array.isArray(to)) return to.flatMap((c) => hookDataSites(c, depth + 1));
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) return p.getName() === "data" ? [{ kind: "value", node: p }] : [];
  if (!Node.isVariableDeclaration(p) || p.getInitializer() !== outer) return [];
  const name = p.getNameNode();
  if (Node.isObjectBindingPattern(name)) {
    return name.getElements().filter((el) => (el.getPropertyNameNode()?.getText() ?? el.getName()) === "data").map((el): BodySite => ({ kind: "binding", node: el }));
  }
  if (!Node.isIdentifier(name)) return [];
  const out: BodySite[] = [];
  for (const r of referencesOf(enclosingFunction(p), name)) {
    const rp = r.getParent();
    if (rp && Node.isPropertyAccessExpression(rp) && rp.getExpression() === r && rp.getName() === "data") out.push({ kind: "value", node: rp });
  }
  return out;
}
