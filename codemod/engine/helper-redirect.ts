// A marked call through a project's request helper keeps v1 through the helper itself. Where the
// helper's base is a slot its callers fill (an option with a default, `{ baseUrl = BASE } = opts`,
// `opts.baseUrl ?? BASE`, a base parameter), the marked call fills that slot with the declared v1
// base and the default flips for the others. Otherwise the helper gets a new trailing parameter.
// Two rules keep it sound: text written into the parameter list names only bindings visible there
// (a parameter default cannot see the body's `const`s), and a call that gives its own base keeps it.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import { bindingNames, resolveIdentifier } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { insertAt, replaceNode, textEdit } from "./text-edit.ts";
import { HELPER_BASE_PARAM, nameFor, V1_BASE_NAME, V1_DERIVE_NAME, type Redirect } from "./v1-redirect.ts";
import { isTypeScriptFile } from "./nodes.ts";
import { testedEnd } from "./own-text-tests.ts";

/** Where callers give the helper its base: a parameter, or one key of an options parameter. */
interface Slot {
  index: number;
  key?: string;
}

type Call = Node & { getArguments(): Node[] };

/**
 * `given`: what the call gives instead of the declared v1 base (an outer helper's own base
 * parameter, threaded-base.ts); only a v1 base (not an origin) can be handed on so.
 * `carriesBase(arg, key)`: whether what the call gives in a slot can hold a base the evaluator
 * knows (`{ baseUrl: MIRROR }` built elsewhere): such a call keeps its own base, nothing is added.
 */
export function helperRedirect(fn: Node, anchor: Node, anchorValue: string, call: Call, given?: string, carriesBase: (arg: Node, key: string | undefined) => boolean = () => true): Redirect | undefined {
  const target = nameFor(anchorValue);
  if (!target || (given && target.name !== V1_BASE_NAME)) return undefined;
  // A base ending in `/` (`new URL(path, "…/v1/")` joins relative paths under it) is given the
  // same way: `RUNPOD_V1_BASE + "/"`, or the handed-on base with its slash when one is given.
  const name = !target.slash ? (given ?? target.name) : given ? `${given} && ${given} + "/"` : `${target.name} + "/"`;
  const slot = slotOf(fn, anchor, 0);
  // A base computed from what callers give, other than one slot: the marked call asks the helper
  // for the v1 counterpart of the base it computes for it (each caller keeps its own).
  if (slot === "reads-parameters") return target.name === V1_BASE_NAME && !given && !target.slash ? v1Flag(fn, anchor, call) : undefined;
  const named = (r: Redirect | undefined) => (r && target.slash ? { ...r, names: r.names.map((n) => (n === name ? target.name : n)) } : r);
  if (!slot) return named(newParameter(fn, anchor, name, call, anchorValue));
  const filled = fillSlot(call, slot, name);
  if (filled) return named(filled);
  // The slot is a key of something the call passes whole (`upstream(env, path)` reading
  // `env.RUNPOD_API_BASE ?? "…/v1"`), which the call cannot be given a key in: when it carries no
  // base the evaluator knows, the helper gets a base parameter of its own, as a helper without a slot.
  const passed = call.getArguments()[slot.index];
  if (slot.key === undefined || !passed || Node.isObjectLiteralExpression(unwrapExpression(passed)) || carriesBase(passed, slot.key)) return undefined;
  return named(newParameter(fn, anchor, name, call, anchorValue));
}

/** What a call puts in the helper's base slot (`viaTarget(mirror, …)` for `target.apiBase ?? "…/v1"`): the argument and key, or undefined. */
export function givenSlot(fn: Node, anchor: Node, call: Call): { arg: Node; key?: string } | undefined {
  const slot = slotOf(fn, anchor, 0);
  const arg = slot && slot !== "reads-parameters" ? call.getArguments()[slot.index] : undefined;
  return arg && slot !== "reads-parameters" ? { arg, key: slot!.key } : undefined;
}

/** The slot the anchor reads, "reads-parameters" when it reads the helper's parameters otherwise, else undefined. */
function slotOf(fn: Node, anchor: Node, depth: number): Slot | "reads-parameters" | undefined {
  const e = unwrapExpression(anchor);
  if (depth > 4) return readsParameters(fn, e, 0) ? "reads-parameters" : undefined;
  const direct = slotRead(fn, e);
  if (direct) return direct;
  // `opts.baseUrl ?? BASE`: the option, else a default that reads no parameter.
  if (Node.isBinaryExpression(e) && ["??", "||"].includes(e.getOperatorToken().getText())) {
    const left = slotRead(fn, unwrapExpression(e.getLeft()));
    if (left && !readsParameters(fn, e.getRight(), 0)) return left;
  }
  if (Node.isIdentifier(e)) {
    const b = resolveIdentifier(e);
    if (b?.kind === "var" && inside(fn, b.decl) && b.init && !changed(b.decl)) {
      // `const { baseUrl = BASE } = options`: the options parameter's key.
      const from = unwrapExpression(b.init);
      const whole = slotRead(fn, from);
      if (b.path.length === 1 && whole && whole.key === undefined) return { index: whole.index, key: b.path[0]! };
      if (b.path.length === 0) return slotOf(fn, from, depth + 1);
    }
  }
  return readsParameters(fn, e, 0) ? "reads-parameters" : undefined;
}

/** `param`, `param.key`, or a name destructured from one in the parameter list (`{ baseUrl } = {}`). */
function slotRead(fn: Node, e: Node): Slot | undefined {
  if (Node.isIdentifier(e)) {
    const b = resolveIdentifier(e);
    if (b?.kind !== "param" || b.fn !== fn || changed(b.decl, e.getText())) return undefined;
    if (b.path.length === 0) return { index: b.index };
    return b.path.length === 1 && !/^\.\.\.|\[computed\]$/.test(b.path[0]!) ? { index: b.index, key: b.path[0]! } : undefined;
  }
  if (Node.isPropertyAccessExpression(e)) {
    const whole = slotRead(fn, unwrapExpression(e.getExpression()));
    return whole && whole.key === undefined ? { index: whole.index, key: e.getName() } : undefined;
  }
  return undefined;
}

/** Whether an expression reads the helper's parameters, or body names it cannot follow. */
function readsParameters(fn: Node, e: Node, depth: number): boolean {
  const ids = Node.isIdentifier(e) ? [e] : e.getDescendantsOfKind(SyntaxKind.Identifier);
  for (const id of ids) {
    if (isPropertyName(id)) continue;
    if (id.getText() === "arguments") return true;
    const b = resolveIdentifier(id);
    if (!b || !inside(fn, b.decl)) continue;
    if (b.kind === "param") return true;
    if (b.kind !== "var" || !b.init || changed(b.decl) || depth > 4 || readsParameters(fn, b.init, depth + 1)) return true;
  }
  return false;
}

/** Names in an expression that resolve to declarations inside the helper (not visible in its parameter list). */
function bodyNames(fn: Node, e: Node): boolean {
  const ids = Node.isIdentifier(e) ? [e] : e.getDescendantsOfKind(SyntaxKind.Identifier);
  return ids.some((id) => {
    if (isPropertyName(id)) return false;
    const b = resolveIdentifier(id);
    return !!b && b.kind !== "param" && inside(fn, b.decl);
  });
}

function writesLiteral(e: Node): boolean {
  const literal = (n: Node) => Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) || Node.isTemplateExpression(n);
  return literal(e) || !!e.getFirstDescendant(literal);
}

function isPropertyName(id: Node): boolean {
  const p = id.getParent();
  return !!p && ((Node.isPropertyAccessExpression(p) && p.getNameNode() === id) || (Node.isPropertyAssignment(p) && p.getNameNode() === id));
}

function inside(fn: Node, decl: Node): boolean {
  return decl.getSourceFile() === fn.getSourceFile() && decl.getStart() >= fn.getStart() && decl.getEnd() <= fn.getEnd();
}

/** A `let`/`var` written again, or a parameter assigned in the body: not one value for the whole call. */
function changed(decl: Node, name?: string): boolean {
  if (Node.isVariableDeclaration(decl)) {
    const list = decl.getParent();
    if (list && Node.isVariableDeclarationList(list) && list.getDeclarationKind() === "const") return false;
  }
  const fn = decl.getFirstAncestor((n) => Node.isFunctionDeclaration(n) || Node.isFunctionExpression(n) || Node.isArrowFunction(n) || Node.isMethodDeclaration(n)) ?? decl.getSourceFile();
  const names = name ? [name] : Node.isVariableDeclaration(decl) ? bindingNames(decl.getNameNode()).map((b) => b.name) : [];
  return fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((b) => {
    const op = b.getOperatorToken().getKind();
    return op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment && names.includes(unwrapExpression(b.getLeft()).getText());
  });
}

/** A marked call's per-request base option in the options parameter a forwarding method passes on (forwarded-base.ts). */
export function fillOptionSlot(call: Call, index: number, key: string, name: string): Redirect | undefined {
  return fillSlot(call, { index, key }, name);
}

/** The marked call gives the declared v1 base in the slot, when it gives none of its own there. */
function fillSlot(call: Call, slot: Slot, name: string): Redirect | undefined {
  const args = call.getArguments();
  if (args.some((x) => Node.isSpreadElement(x))) return undefined;
  const given = args[slot.index];
  const empty = !given || (Node.isIdentifier(given) && given.getText() === "undefined");
  const key = slot.key === undefined ? undefined : /^[A-Za-z_$][\w$]*$/.test(slot.key) ? slot.key : JSON.stringify(slot.key);
  const value = key === undefined ? name : `{ ${key}: ${name} }`;
  if (empty) {
    if (given) return { edits: [replaceNode(given, value)], names: [name] };
    const fill = Array.from({ length: slot.index - args.length }, () => "undefined");
    const closeParen = call.getLastChildByKind(SyntaxKind.CloseParenToken);
    if (!closeParen) return undefined;
    const at = args.length ? args.at(-1)!.getEnd() : closeParen.getStart();
    const text = [...fill, value].join(", ");
    return { edits: [insertAt(call, at, args.length ? `, ${text}` : text)], names: [name] };
  }
  // Options given inline, without this key (or anything that could carry it): the key is added.
  const u = unwrapExpression(given);
  if (key === undefined || !Node.isObjectLiteralExpression(u)) return undefined;
  if (u.getProperties().some((p) => !(Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) || Node.isMethodDeclaration(p)) || p.getNameNode().getText().replace(/^["']|["']$/g, "") === slot.key || Node.isComputedPropertyName(p.getNameNode()))) return undefined;
  const last = u.getProperties().at(-1);
  if (last) return { edits: [insertAt(last, last.getEnd(), `, ${key}: ${name}`)], names: [name] };
  return { edits: [textEdit(u, u.getStart() + 1, u.getEnd() - 1, ` ${key}: ${name} `)], names: [name] };
}

/**
 * A base that no caller gives: a trailing parameter defaulting to it (`runpodBase = BASE`), used in
 * the URL, which the marked call fills. A base declared in the body cannot be a parameter's
 * default: the parameter then has none, and the URL reads `runpodBase ?? base`.
 */
/**
 * `\`https://…/v1${path}\`` (the base at the head of the URL template): the template given a base is
 * `(runpodBase !== undefined ? \`${runpodBase}${path}\` : \`https://…/v1${path}\`)`, the written template kept
 * whole in it so that the base flips there in place.
 */
function headUse(head: Node, base: string): Edit {
  const template = head.getParent()!;
  const text = template.getText();
  const given = "`${" + HELPER_BASE_PARAM + "}" + text.slice(1 + base.length);
  return replaceNode(template, `(${HELPER_BASE_PARAM} !== undefined ? ${given} : ${text})`);
}

/**
 * The other reads in the helper of the base the anchor reads (`this.baseURL`, a name: read twice
 * without effect) whose own text is tested (`this.baseURL.endsWith("/")`): a kept call given a base
 * of its own must be joined by that base's test, not the shared one's (".../v1" + "pods" otherwise).
 */
function ownTextTests(fn: Node, anchor: Node): Node[] {
  const e = unwrapExpression(anchor);
  if (!pureRead(e)) return [];
  const symbol = e.getSymbol();
  return fn.getDescendantsOfKind(e.getKind()).filter((n) => n !== e && n.getText() === e.getText() && n.getSymbol() === symbol && testedEnd(n));
}

/** `name`, `this.base`, `this.config.base`: the same value wherever the helper reads it. */
function pureRead(n: Node): boolean {
  if (Node.isIdentifier(n) || n.getKind() === SyntaxKind.ThisKeyword) return true;
  return Node.isPropertyAccessExpression(n) && pureRead(n.getExpression());
}

function newParameter(fn: Node, anchor: Node, name: string, call: Call, value = ""): Redirect | undefined {
  const args = call.getArguments();
  if (args.some((x) => Node.isSpreadElement(x))) return undefined;
  const r = parameterFor(fn, anchor, name, args.length, value);
  const closeParen = call.getLastChildByKind(SyntaxKind.CloseParenToken);
  if (!r || !closeParen) return undefined;
  const at = args.length ? args.at(-1)!.getEnd() : closeParen.getStart();
  return { edits: [insertAt(call, at, args.length ? `, ${r.tail}` : r.tail)], names: [name], shared: r.shared };
}

/**
 * What a call giving `given` arguments adds after them to keep v1 through the helper (`tail`), and the
 * helper's shared edits: for a caller that is not written as a call (SWR calls its fetcher with the
 * key alone, swr-kept-fetcher.ts). Undefined where the helper's base cannot be given so.
 */
export function helperBaseTail(fn: Node, anchor: Node, anchorValue: string, given: number): { tail: string; names: string[]; shared?: Redirect["shared"] } | undefined {
  const target = nameFor(anchorValue);
  if (!target || target.slash) return undefined;
  const slot = slotOf(fn, anchor, 0);
  if (slot === "reads-parameters") return undefined;
  if (!slot) {
    const r = parameterFor(fn, anchor, target.name, given, anchorValue);
    return r && { tail: r.tail, names: [target.name], shared: r.shared };
  }
  if (slot.index < given) return undefined;
  const key = slot.key === undefined ? undefined : /^[A-Za-z_$][\w$]*$/.test(slot.key) ? slot.key : JSON.stringify(slot.key);
  const fill = Array.from({ length: slot.index - given }, () => "undefined");
  return { tail: [...fill, key === undefined ? target.name : `{ ${key}: ${target.name} }`].join(", "), names: [target.name] };
}

/** The helper's new trailing base parameter (shared edits), and what a call giving `given` arguments adds. */
function parameterFor(fn: Node, anchor: Node, name: string, given: number, value = ""): { tail: string; shared: NonNullable<Redirect["shared"]> } | undefined {
  const params = ((fn as any).getParameters?.() ?? []) as Node[];
  if (params.some((p) => (p as any).isRestParameter?.())) return undefined;
  if (given > params.length) return undefined;
  const close = fn.getFirstChildByKind(SyntaxKind.CloseParenToken);
  if (!close) return undefined;
  // A base written in the anchor itself (`env.X ?? "…/v1"`) flips in place: it is not copied into a default.
  const head = Node.isTemplateHead(anchor);
  const local = head || bodyNames(fn, anchor) || writesLiteral(anchor);
  const typed = isTypeScriptFile(fn.getSourceFile().getFilePath());
  const param = local ? (typed ? `${HELPER_BASE_PARAM}?: string` : HELPER_BASE_PARAM) : `${HELPER_BASE_PARAM} = ${anchor.getText()}`;
  const inTemplate = Node.isTemplateSpan(anchor.getParent()!) && (anchor.getParent() as any).getExpression() === anchor;
  const use = !local ? HELPER_BASE_PARAM : inTemplate ? `${HELPER_BASE_PARAM} ?? ${anchor.getText()}` : `(${HELPER_BASE_PARAM} ?? ${anchor.getText()})`;
  const last = params.at(-1);
  // A default copied from the anchor takes what else is planned inside it (a caller-set base's `runpodV2Base(…)`).
  const copies = local ? undefined : { start: anchor.getStart(), end: anchor.getEnd() };
  const declared = last ? insertAt(last, last.getEnd(), `, ${param}`) : insertAt(close, close.getStart(), param);
  // The base's own text tested beside the join (`this.baseURL.endsWith("/") && path.startsWith("/")`): it tests the base joined.
  const tests = head ? [] : ownTextTests(fn, anchor).map((t) => replaceNode(t, use));
  const shared: Edit[] = [copies ? { ...declared, copies } : declared, head ? headUse(anchor, value) : replaceNode(anchor, use), ...tests];
  const fill = Array.from({ length: params.length - given }, () => "undefined");
  return { tail: [...fill, name].join(", "), shared: { key: `${fn.getSourceFile().getFilePath()}:${fn.getStart()}`, edits: shared } };
}

/** The flag a helper gets for its marked calls when its base reads what callers give (helper-redirect.ts). */
export const HELPER_V1_FLAG = "runpodV1";

/**
 * `rpFetch(env, path, init = {}, runpodV1?: boolean)`: the helper's URL takes
 * `runpodV1 ? runpodV1Base(apiBase(env)) : apiBase(env)`, the marked call passes `true`. The base
 * is still computed from this caller's own arguments; only its version goes back to v1.
 */
function v1Flag(fn: Node, anchor: Node, call: Call): Redirect | undefined {
  const params = ((fn as any).getParameters?.() ?? []) as Node[];
  if (params.some((p) => (p as any).isRestParameter?.())) return undefined;
  const args = call.getArguments();
  if (args.length > params.length || args.some((x) => Node.isSpreadElement(x))) return undefined;
  const close = fn.getFirstChildByKind(SyntaxKind.CloseParenToken);
  const closeParen = call.getLastChildByKind(SyntaxKind.CloseParenToken);
  if (!close || !closeParen) return undefined;
  const typed = isTypeScriptFile(fn.getSourceFile().getFilePath());
  const param = typed ? `${HELPER_V1_FLAG}?: boolean` : HELPER_V1_FLAG;
  const text = anchor.getText();
  const chosen = `${HELPER_V1_FLAG} ? ${V1_DERIVE_NAME}(${text}) : ${text}`;
  const inTemplate = Node.isTemplateSpan(anchor.getParent()!) && (anchor.getParent() as any).getExpression() === anchor;
  const last = params.at(-1);
  const shared: Edit[] = [last ? insertAt(last, last.getEnd(), `, ${param}`) : insertAt(close, close.getStart(), param), replaceNode(anchor, inTemplate ? chosen : `(${chosen})`)];
  const tail = [...Array.from({ length: params.length - args.length }, () => "undefined"), "true"].join(", ");
  const at = args.length ? args.at(-1)!.getEnd() : closeParen.getStart();
  const key = `${fn.getSourceFile().getFilePath()}:${fn.getStart()}`;
  return { edits: [insertAt(call, at, args.length ? `, ${tail}` : tail)], names: [], shared: { key, edits: shared, names: [V1_BASE_NAME, V1_DERIVE_NAME] } };
}
