// A URL joined from an array (`[BASE, "pods", id].join("/")`, `[base, path].filter(Boolean).join("/")`):
// the elements' parts with the separator between them. The separator is one literal for every
// gap, so it is never edited (a path change that would touch it cannot be spread: the site is marked).
// With `.filter(Boolean)` an empty literal element is left out with its separator; an element
// that may be empty at run time (not a required parameter typed without `undefined`, nor known
// non-empty strings) makes the URL a run-time choice: with one such element the call chooses between
// two URLs (call-site.ts marks it naming both); with more, the whole join is a hole the recall net sees.
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

/**
 * Whether an element may be empty or absent at run time: anything but a required parameter typed
 * without `undefined`/`null` (`id: string`) or a value whose every string is known and non-empty.
 */
export function mayBeEmpty(element: Node, evaluate: (n: Node) => Value): boolean {
  const e = bare(element);
  const b = Node.isIdentifier(e) ? resolveIdentifier(e) : undefined;
  if (b?.kind === "param" && b.path.length === 0 && Node.isParameterDeclaration(b.decl)) {
    const type = b.decl.getTypeNode()?.getText();
    return b.decl.hasQuestionToken() || !!b.decl.getInitializer() || b.decl.isRestParameter() || !type || /\b(undefined|null|void|any|unknown)\b|\?/.test(type);
  }
  const options = optionsOf(evaluate(e));
  return !options.every((o) => o.kind === "string" && o.text !== "");
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
