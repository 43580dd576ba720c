// Where a data-fetching hook's answer is read: SWR keeps what its fetcher resolves to and gives it
// back as the hook's `data` (`const { data } = useSWR(…)`, `useSWR(…).data`, `swr.data`), also
// through a custom hook that returns the hook's result (`return useSWR(…)`, then `const { data } =
// usePods()`); TanStack Query's hooks the same (query-results.ts). The value is not awaited: `data`
// is the body itself (undefined while loading).
import { Node } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import type { BodySite } from "./body-sites.ts";

const MAX_DEPTH = 3;

/** Where the value goes out of sight, and why (the node's place is added). */
export type Left = { node: Node; why: string };

/**
 * What a member of the result other than `data` does with the value: `node` is the member read
 * (`m.mutate`) or a reference to the name it is bound to (`const { mutate } = …`). Its reads, where
 * it leaves sight, or undefined when it reads nothing of it.
 */
export type OtherMember = (node: Node, name: string) => BodySite[] | Left | undefined;

export interface HookUses {
  reads: BodySite[];
  /** The first place the result goes out of sight (only asked for with `other`). */
  leaves?: Left;
}

const here = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;

/** The reads of the hook result's `data` (binding elements or member reads), following returns to the custom hooks' callers. */
export function hookDataSites(call: Node): BodySite[] {
  return hookResultUses(call).reads;
}

/**
 * The reads of the hook result's `data`, and with `other` (which says what the result's other
 * members do) the first place the result goes where it is not followed: handed on whole, returned
 * out of the run, destructured with a rest element.
 */
export function hookResultUses(call: Node, other?: OtherMember): HookUses {
  const out: HookUses = { reads: [] };
  const leave = (node: Node, why: string) => {
    if (other) out.leaves ??= { node, why: `${why} (${here(node)})` };
  };
  const member = (node: Node, name: string) => {
    const r = other?.(node, name);
    if (Array.isArray(r)) out.reads.push(...r);
    else if (r) out.leaves ??= r;
  };
  const walk = (result: Node, depth: number): void => {
    const outer = skipParens(result);
    const p = outer.getParent();
    if (!p || Node.isExpressionStatement(p)) return;
    const to = returnedTo(outer);
    if (Array.isArray(to) && depth < MAX_DEPTH) return to.forEach((c) => walk(c, depth + 1));
    if (to) return leave(outer, "the hook's result is returned to code the codemod does not follow");
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      if (p.getName() === "data") out.reads.push({ kind: "value", node: p });
      else member(p, p.getName());
      return;
    }
    if (!Node.isVariableDeclaration(p) || p.getInitializer() !== outer) return leave(outer, "the hook's result is used where the codemod does not follow it");
    const name = p.getNameNode();
    if (Node.isObjectBindingPattern(name)) {
      for (const el of name.getElements()) {
        const key = el.getPropertyNameNode()?.getText() ?? el.getName();
        if (el.getDotDotDotToken()) leave(el, "the hook's result is destructured with a rest element");
        else if (key === "data") out.reads.push({ kind: "binding", node: el });
        else if (other && Node.isIdentifier(el.getNameNode())) for (const r of referencesOf(enclosingFunction(p), el.getNameNode())) member(r, key);
      }
      return;
    }
    if (!Node.isIdentifier(name)) return leave(name, "the hook's result is destructured where the codemod does not follow it");
    for (const r of referencesOf(enclosingFunction(p), name)) {
      const rp = r.getParent();
      if (rp && Node.isPropertyAccessExpression(rp) && rp.getExpression() === r) {
        if (rp.getName() === "data") out.reads.push({ kind: "value", node: rp });
        else member(rp, rp.getName());
      } else leave(r, "the hook's result is handed on whole");
    }
  };
  walk(call, 0);
  return out;
}
