// The list unwrap a site writes (`(await res.json()).pods`, `res.data.pods`, `.then((body) =>
// body.pods)`), wrapped in the adapter's `filterList` so the v1 filters apply on the client; and
// whether a filter value's expression can be written there (pure, its names in scope and fixed).
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { ADAPTER_BINDING } from "../../adapter/index.ts";
import { edit, type Plan } from "../state.ts";
import type { Edit } from "../../types.ts";
import { isAssignmentOperator, writtenAt } from "../nodes.ts";

export interface UnwrapWrap {
  /** The unwrap's closing insertion (`.pods`, `).pods`, the `.then(…)`), extended in place. */
  close?: Edit;
  /** `const pods = await r.json()` unwrapped as `const { pods } = …`: written `const pods = filterList((…).pods, …)` instead. */
  renamed?: { edit: Edit; init: Node };
  /** axios `const { data } = await api.get(…)` unwrapped as `{ data: { pods: data } }`: written `const data = filterList((await api.get(…)).data.pods, …)`. */
  bound?: { edit: Edit; pattern: Node; local: string; key: string };
  /** Its opening `(` insertion, when the unwrap wrote one. */
  open?: Edit;
  /** The node the wrapped expression starts at (for scope checks) and its position. */
  at: Node;
  start: number;
  then: boolean;
}

/**
 * Each place the unwrap edits of this site put the list, when every one is an insertion the
 * filter can wrap; undefined when one is not (a destructuring `{ pods }`, an axios `data: {
 * pods: … }` binding) or there is none (the list went through the adapter's `toV1List`).
 */
export function unwrapWraps(plan: Plan, wrapper: string, unwrapEdits: ReadonlySet<Edit>): UnwrapWrap[] | undefined {
  const live = plan.site.edits.filter((e) => unwrapEdits.has(e));
  const opens = live.filter((e) => e.start === e.end && (e.text === "(" || e.text === "(await "));
  const out: UnwrapWrap[] = [];
  for (const e of live) {
    if (opens.includes(e)) continue;
    const sf = plan.a.files.get(e.file)?.sf;
    if (!sf) return undefined;
    if (e.start !== e.end && e.old === wrapper && e.text === `{ ${wrapper} }`) {
      const decl = sf.getDescendantAtPos(e.start)?.getParent();
      const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
      if (!init) return undefined;
      out.push({ renamed: { edit: e, init }, at: init, start: init.getStart(), then: false });
      continue;
    }
    if (e.start !== e.end && e.text === `data: { ${wrapper}: ${e.old.split(":").at(-1)!.trim()} }`) {
      const el = sf.getDescendantAtPos(e.start)?.getFirstAncestor((n) => Node.isBindingElement(n));
      const pattern = el?.getParent();
      const decl = pattern?.getParent();
      const init = decl && Node.isVariableDeclaration(decl) && !decl.getTypeNode() ? decl.getInitializer() : undefined;
      if (!el || !Node.isBindingElement(el) || !pattern || !Node.isObjectBindingPattern(pattern) || pattern.getElements().length !== 1 || el.getInitializer() || el.getDotDotDotToken() || !init) return undefined;
      out.push({ bound: { edit: e, pattern, local: el.getNameNode().getText(), key: el.getPropertyNameNode()?.getText() ?? el.getName() }, at: init, start: init.getStart(), then: false });
      continue;
    }
    if (e.start !== e.end) return undefined;
    // Type arguments and assertions follow the unwrap (`{ pods: Pod[] }`): not values.
    if (e.text.startsWith(`{ ${wrapper}: `) || e.text === " }" || e.text.startsWith("<{")) continue;
    if (e.text === `.then((body) => body.${wrapper})` || e.text === `.then((body: any) => body.${wrapper})`) {
      const at = sf.getDescendantAtPos(Math.max(0, e.start - 1));
      if (!at) return undefined;
      out.push({ close: e, at, start: e.start, then: true });
      continue;
    }
    if (e.text === `).${wrapper}` || e.text === ` as any).${wrapper}`) {
      const open = opens.filter((o) => o.file === e.file && o.start < e.start).sort((x, y) => y.start - x.start)[0];
      const at = open && sf.getDescendantAtPos(open.start);
      if (!open || !at) return undefined;
      out.push({ close: e, open, at, start: open.start, then: false });
      continue;
    }
    if (e.text !== `.${wrapper}`) return undefined;
    const node = chainEndingAt(sf.getDescendantAtPos(Math.max(0, e.start - 1)), e.start);
    if (!node) return undefined;
    out.push({ close: e, at: node, start: node.getStart(), then: false });
  }
  return out.length ? out : undefined;
}

/** The longest member/call chain ending at `end` (`res.data`, `(await r.json())`, `r`) that holds `token`. */
function chainEndingAt(token: Node | undefined, end: number): Node | undefined {
  let n = token;
  if (!n || n.getEnd() !== end) return undefined;
  for (let p = n.getParent(); p && p.getEnd() === end && (Node.isPropertyAccessExpression(p) || Node.isCallExpression(p) || Node.isElementAccessExpression(p) || Node.isParenthesizedExpression(p) || Node.isNonNullExpression(p)); p = p.getParent()) n = p;
  return Node.isExpression(n) ? n : undefined;
}

/** Writes `v2Adapter.filterList(<list>, "<operation>", { … })` around each place. */
export function wrapInFilter(plan: Plan, wraps: UnwrapWrap[], wrapper: string, operation: string, filters: string): void {
  const fn = `${ADAPTER_BINDING}.filterList`;
  const tail = `, ${JSON.stringify(operation)}, ${filters})`;
  for (const w of wraps) {
    if (w.renamed) {
      w.renamed.edit.text = wrapper;
      edit(plan, w.at, { start: w.start, end: w.start, text: `${fn}((` });
      edit(plan, w.at, { start: w.at.getEnd(), end: w.at.getEnd(), text: `).${wrapper}${tail}` });
    } else if (w.bound) {
      const b = w.bound;
      plan.site.edits = plan.site.edits.filter((x) => x !== b.edit);
      edit(plan, b.pattern, { start: b.pattern.getStart(), end: b.pattern.getEnd(), text: b.local });
      edit(plan, w.at, { start: w.start, end: w.start, text: `${fn}((` });
      edit(plan, w.at, { start: w.at.getEnd(), end: w.at.getEnd(), text: `).${b.key}.${wrapper}${tail}` });
    } else if (!w.close) continue;
    else if (w.then) w.close.text = w.close.text.replace(`body.${wrapper})`, `${fn}(body.${wrapper}${tail})`);
    else if (w.open) {
      w.open.text = `${fn}(${w.open.text}`;
      w.close.text += tail;
    } else {
      edit(plan, w.at, { start: w.start, end: w.start, text: `${fn}(` });
      w.close.text += tail;
    }
  }
}

const IMPURE = new Set([SyntaxKind.CallExpression, SyntaxKind.NewExpression, SyntaxKind.AwaitExpression, SyntaxKind.YieldExpression, SyntaxKind.PostfixUnaryExpression, SyntaxKind.ArrowFunction, SyntaxKind.FunctionExpression, SyntaxKind.TaggedTemplateExpression, SyntaxKind.ElementAccessExpression, SyntaxKind.DeleteExpression]);

/**
 * Whether `expr` means the same where each of `places` is: no call or effect, and every name a
 * parameter, a `const` or an import whose scope holds the place (after its declaration).
 */
export function portable(expr: Node, places: Node[]): boolean {
  const nodes = [expr, ...expr.getDescendants()];
  if (nodes.some((n) => IMPURE.has(n.getKind()) || (Node.isBinaryExpression(n) && isAssignmentOperator(n.getOperatorToken().getKind())) || (Node.isPrefixUnaryExpression(n) && writtenAt(n.getOperand())))) return false;
  for (const id of nodes.filter((n) => Node.isIdentifier(n))) {
    const p = id.getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getNameNode() === id) continue;
    if (p && (Node.isAsExpression(p) || Node.isTypeReference(p)) && id.getFirstAncestor((a) => Node.isTypeNode(a))) continue;
    if (id.getText() === "undefined") continue;
    const decl = id.getSymbol()?.getDeclarations()[0];
    if (!decl || !places.every((at) => inScope(decl, at))) return false;
  }
  return true;
}

function inScope(decl: Node, at: Node): boolean {
  if (decl.getSourceFile() !== at.getSourceFile()) return false;
  if (Node.isImportSpecifier(decl) || Node.isImportClause(decl) || Node.isNamespaceImport(decl)) return true;
  let owner: Node | undefined = decl;
  while (owner && Node.isBindingElement(owner)) owner = owner.getParent()?.getParent();
  if (owner && Node.isParameterDeclaration(owner)) return owner.getParent()!.getStart() <= at.getStart() && at.getEnd() <= owner.getParent()!.getEnd() && !reassigned(decl);
  if (!owner || !Node.isVariableDeclaration(owner)) return false;
  const list = owner.getParent();
  if (!list || !Node.isVariableDeclarationList(list) || list.getDeclarationKind() !== "const") return false;
  const scope = list.getParent()?.getParent();
  return !!scope && scope.getStart() <= at.getStart() && at.getEnd() <= scope.getEnd() && owner.getEnd() <= at.getStart();
}

/** A parameter written anywhere in its function. */
function reassigned(decl: Node): boolean {
  const name = (decl as { getNameNode?(): Node }).getNameNode?.();
  if (!name || !Node.isIdentifier(name)) return true;
  const fn = decl.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isMethodDeclaration(a));
  return !!fn?.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((b) => isAssignmentOperator(b.getOperatorToken().getKind()) && b.getLeft().getText() === name.getText());
}
