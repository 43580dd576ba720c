// A URL joined from an array (`[BASE, "pods", id].join("/")`, `[base, path].filter(Boolean).join("/")`):
// the elements' parts with the separator between them. The separator is one literal for every
// gap, so it is never edited (a path change that would touch it cannot be spread: the site is marked).
// With `.filter(Boolean)` an empty literal element is left out with its separator; an element
// that may be empty or absent at run time (an optional parameter, `undefined` among its values)
// makes the URL a run-time choice: the whole join is a hole, and the site is found by the recall net.
import { Node } from "../ts-morph.ts";
import { optionsOf, type Value } from "./evaluate/value.ts";
import { resolveIdentifier } from "./scope.ts";
import type { Part } from "./urls.ts";

function bare(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAsExpression(x) || Node.isNonNullExpression(x)) x = x.getExpression();
  return x;
}

/** `[…].join(sep)` or `[…].filter(Boolean).join(sep)` with a literal separator: the elements, the separator and whether empty ones are left out. */
export function arrayJoin(node: Node): { elements: Node[]; separator: Node & { getLiteralValue(): string }; filtered: boolean } | undefined {
  if (!Node.isCallExpression(node) || node.getArguments().length !== 1) return undefined;
  const callee = node.getExpression();
  const sep = bare(node.getArguments()[0]!);
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "join" || !(Node.isStringLiteral(sep) || Node.isNoSubstitutionTemplateLiteral(sep))) return undefined;
  let list = bare(callee.getExpression());
  let filtered = false;
  if (Node.isCallExpression(list)) {
    const f = list.getExpression();
    const [pred, more] = list.getArguments();
    const keepsTruthy = pred && !more && (pred.getText() === "Boolean" || /^\(?\s*(\w+)\s*\)?\s*=>\s*!!\s*\1$/.test(pred.getText()) || /^\(?\s*(\w+)\s*\)?\s*=>\s*\1$/.test(pred.getText()));
    if (!Node.isPropertyAccessExpression(f) || f.getName() !== "filter" || !keepsTruthy) return undefined;
    list = bare(f.getExpression());
    filtered = true;
  }
  if (!Node.isArrayLiteralExpression(list) || list.getElements().some((e) => Node.isSpreadElement(e) || Node.isOmittedExpression(e))) return undefined;
  return { elements: list.getElements(), separator: sep, filtered };
}

/** An element that may be empty or absent at run time: an optional or defaulted parameter, or a value with `undefined` or "" among its options. */
export function mayBeEmpty(element: Node, evaluate: (n: Node) => Value): boolean {
  const e = bare(element);
  const b = Node.isIdentifier(e) ? resolveIdentifier(e) : undefined;
  if (b?.kind === "param" && Node.isParameterDeclaration(b.decl) && (b.decl.hasQuestionToken() || b.decl.getInitializer())) return true;
  return optionsOf(evaluate(e)).some((o) => (o.kind === "dynamic" && o.why === "undefined") || (o.kind === "string" && o.text === ""));
}

/** The parts of an array join, or a single hole when it cannot be read as one URL. */
export function joinedParts(node: Node, resolve: (n: Node) => Part[], emptyAtRunTime: (n: Node) => boolean = () => true, chosen?: { element: Node; present: boolean }): Part[] | undefined {
  const join = arrayJoin(node);
  if (!join) return undefined;
  const out: Part[] = [];
  for (const el of join.elements) {
    if (chosen?.element === el && !chosen.present) continue;
    const parts = resolve(el);
    const given = chosen?.element === el;
    const text = parts.every((p) => p.kind === "text") ? parts.map((p) => (p as { text: string }).text).join("") : undefined;
    if (join.filtered && text === "") continue;
    if (join.filtered && text === undefined && parts.some((p) => p.kind === "hole") && !given && emptyAtRunTime(el)) return [{ kind: "hole", node }];
    if (out.length) out.push({ kind: "text", text: join.separator.getLiteralValue(), node: join.separator, fixed: true });
    out.push(...parts);
  }
  return out.length ? out : [{ kind: "hole", node }];
}

/**
 * `[BASE, "containerregistryauth", id].filter(Boolean).join("/")` with one element that may be
 * empty: the two URLs it chooses between at run time (with the element, without it), for the
 * call site's mark; undefined for any other join.
 */
export function joinChoices(node: Node, resolve: (n: Node) => Part[], emptyAtRunTime: (n: Node) => boolean): [Part[], Part[]] | undefined {
  const join = arrayJoin(node);
  if (!join?.filtered) return undefined;
  const optional = join.elements.filter((el) => resolve(el).some((p) => p.kind === "hole") && emptyAtRunTime(el));
  if (optional.length !== 1) return undefined;
  const element = optional[0]!;
  const withIt = joinedParts(node, resolve, emptyAtRunTime, { element, present: true });
  const without = joinedParts(node, resolve, emptyAtRunTime, { element, present: false });
  return withIt && without ? [withIt, without] : undefined;
}
