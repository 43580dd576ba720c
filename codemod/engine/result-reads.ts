// Where a request helper's own result (helper-answer.ts `resultPlaceOf`: the body at a key of an
// object, `{ ok: true, value }`, `{ data, error }`, or an element of a tuple, `[err, body]`) is read
// for the body at its callers: `r.value`, `(await get()).corps`, `const { data } = await …`,
// `const [e, pod] = await …`, through functions that return the result as it is. A result handed
// or returned where it is not followed takes the body out of sight (a "handed" site, so the record
// or list is marked), unless the code has narrowed it to its failure side (`if (!r.ok) return r`).
import { Node } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import type { BodySite } from "./body-sites.ts";
import { chainedFallback } from "./result-fallback.ts";

export type ResultPlaceSig = { key?: string; index?: number; success?: { key: string; value: boolean } };

const MAX_DEPTH = 3;

/**
 * The body reads of the result `call` answers (a promise of it, or the result itself once awaited).
 * Where the result also leaves sight, only that is said: the body there is not converted with the
 * reads in sight, so none of them is taken as the whole of its reads.
 */
export function resultPlaceReads(call: Node, place: ResultPlaceSig, sites: BodySite[]): void {
  const found: BodySite[] = [];
  placeReads(call, place, found, 0);
  const gone = found.filter((s) => s.kind === "handed");
  sites.push(...(gone.length ? gone : found));
}

function placeReads(call: Node, place: ResultPlaceSig, sites: BodySite[], depth: number): void {
  const outer = skipParens(call);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isAwaitExpression(p)) return resultUse(skipParens(p), place, sites, depth);
  if (Node.isExpressionStatement(p) || Node.isVoidExpression(p)) return;
  if (returned(outer, place, sites, depth)) return;
  // `.catch(() => ({ ok: false, data: null }))`, `.finally(…)`: the same result, the failure's answer holding no body.
  const chained = chainedFallback(outer, place);
  if (chained === "own body") return leaves(outer, "is given a fallback by .catch that may answer a body of its own", sites);
  if (chained) return placeReads(chained, place, sites, depth);
  leaves(outer, "is used as a promise the codemod does not follow", sites);
}

/** A use of the (awaited) result: its place read, taken apart, kept in a variable, returned or handed on. */
function resultUse(value: Node, place: ResultPlaceSig, sites: BodySite[], depth: number): void {
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p || Node.isExpressionStatement(p)) return;
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    if (p.getName() === place.key) sites.push({ kind: "value", node: p, inResult: true });
    return;
  }
  if (Node.isElementAccessExpression(p) && p.getExpression() === outer) {
    const arg = p.getArgumentExpression();
    const at = arg && Node.isNumericLiteral(arg) ? Number(arg.getLiteralValue()) : arg && (Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg)) ? arg.getLiteralValue() : undefined;
    if (at === undefined) return leaves(p, "is read by a computed key", sites);
    if (at === place.index || at === place.key) sites.push({ kind: "value", node: p, inResult: true });
    return;
  }
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
    const name = p.getNameNode();
    if (Node.isIdentifier(name)) {
      for (const ref of referencesOf(enclosingFunction(p), name)) refUse(ref, place, sites, depth);
      return;
    }
    const els = (name as any).getElements() as Node[];
    els.forEach((el, i) => {
      if (!Node.isBindingElement(el)) return;
      if (el.getDotDotDotToken()) return void leaves(el, "is taken apart with a rest element", sites);
      const key = Node.isObjectBindingPattern(name) ? (el.getPropertyNameNode()?.getText() ?? el.getName()) : i;
      if (key === place.key || key === place.index) sites.push({ kind: "binding", node: el, inResult: true });
    });
    return;
  }
  // Tests of the result (`if (!r)`, `r === undefined`) take nothing of the body.
  if (Node.isIfStatement(p) || Node.isPrefixUnaryExpression(p) || (Node.isBinaryExpression(p) && ["===", "!==", "==", "!="].includes(p.getOperatorToken().getText()))) return;
  if (returned(outer, place, sites, depth)) return;
  leaves(outer, Node.isCallExpression(p) ? `is handed to ${p.getExpression().getText()}` : "goes where the codemod does not follow it", sites);
}

/** A reference to a variable holding the result. */
function refUse(ref: Node, place: ResultPlaceSig, sites: BodySite[], depth: number): void {
  const p = skipParens(ref).getParent();
  // Its other members (`r.ok`, `r.error`) are not the body; it is written, not read, on the left of `=`.
  if (p && Node.isBinaryExpression(p) && p.getLeft() === skipParens(ref) && p.getOperatorToken().getText() === "=") return;
  if (failureSide(ref, place)) return;
  resultUse(ref, place, sites, depth);
}

/** The result returned from a function: its callers hold it as this call's (followed to a depth). */
function returned(outer: Node, place: ResultPlaceSig, sites: BodySite[], depth: number): boolean {
  const to = returnedTo(outer);
  if (!to) return false;
  if (to === "escapes" || depth >= MAX_DEPTH) leaves(outer, "is returned to callers the codemod cannot list", sites);
  else for (const c of to) placeReads(c, place, sites, depth + 1);
  return true;
}

function leaves(node: Node, why: string, sites: BodySite[]): void {
  const at = `${node.getSourceFile().getBaseName()}:${node.getStartLineNumber()}`;
  sites.push({ kind: "handed", node, why, said: `the helper's result ${why} (${at}), taking the body with it` });
}

/**
 * The reference sits where the code has narrowed the result to its failure side: in `if (!r.ok) …`
 * (or `else` of `if (r.ok)`), or the false side of `r.ok ? … : r`, by the member that tells the body's side.
 */
function failureSide(ref: Node, place: ResultPlaceSig): boolean {
  const s = place.success;
  if (!s) return false;
  const name = ref.getText();
  const test = (cond: Node): "success" | "failure" | undefined => {
    const t = cond.getText().replace(/\s/g, "");
    const member = `${name}.${s.key}`;
    const positive = [member, `${member}===${s.value}`, `${member}!==${!s.value}`];
    const negative = [`!${member}`, `${member}===${!s.value}`, `${member}!==${s.value}`];
    return positive.includes(t) ? "success" : negative.includes(t) ? "failure" : undefined;
  };
  const fn = enclosingFunction(ref);
  let child: Node = ref;
  for (let up = ref.getParent(); up && up !== fn; child = up, up = up.getParent()) {
    if (Node.isIfStatement(up)) {
      const side = test(up.getExpression());
      if ((side === "failure" && child === up.getThenStatement()) || (side === "success" && child === up.getElseStatement())) return true;
    }
    if (Node.isConditionalExpression(up)) {
      const side = test(up.getCondition());
      if ((side === "failure" && child === up.getWhenTrue()) || (side === "success" && child === up.getWhenFalse())) return true;
    }
  }
  return false;
}
