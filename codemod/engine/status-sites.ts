// Where the HTTP status of a call's answer is read: `res.status` (fetch, axios, ky, superagent),
// `statusCode` (undici, got), a destructured `{ status }`, through variables, `.then` callbacks,
// functions returning the answer to callers of the project, a helper returning the Response, and
// a project function the Response is handed to. v2 answers some operations with another success
// status than v1 (creates: 201 for 200), so a check of it must follow the table (status-checks.ts).
import { Node } from "../ts-morph.ts";
import type { VariableDeclaration } from "ts-morph";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { enclosingFunction, resolveIdentifier } from "./scope.ts";
import { writtenValues } from "./reassigned-records.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import { argumentCallee } from "./record-callees.ts";
import { shownAsText } from "./display-sinks.ts";
import { classifyRead } from "./response-branch.ts";

export type StatusSite =
  /** An expression whose value is the status. `shared`: in code other calls run too (a helper, a function the Response is handed to). */
  | { kind: "read"; node: Node; shared?: string }
  /** The answer, or its status, goes where its reads are not followed: `why` says where. */
  | { kind: "unfollowed"; node: Node; why: string };

const STATUS_KEYS = new Set(["status", "statusCode"]);
const MAX_DEPTH = 3;

const where = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;

export function statusSites(a: Analysis, http: HttpCall): StatusSite[] {
  const sites: StatusSite[] = [];
  if (http.lib === "openapi-fetch") return sites;
  // An axios answer through a response interceptor carries no status (`(r) => r.data`: a body's `status` is a field).
  if (http.lib === "axios" && http.interceptor) return sites;
  if (http.lib === "convention" && http.style !== "data" && http.style !== "json") return sites;
  // A helper or wrapper checks the status inside, for every call it serves (a retry on `!== 200`, a throw).
  const shared = http.lib === "helper" ? http.helper : http.wrapper;
  const transport = shared?.transport as Node | undefined;
  const fn = shared?.fn as Node | undefined;
  if (transport && fn) followAnswer(a, transport, sites, 1, `${functionLabel(fn)} (${where(fn)})`);
  // Its callers read the status off the answer it returns (the transport's own, or a plain call's).
  const returnsResponse = http.lib === "helper" ? !!http.helper?.returnsResponse : !http.wrapper || !!http.wrapper.returnsResponse;
  if (returnsResponse) followAnswer(a, http.call, sites, 0, undefined);
  return sites;
}

function functionLabel(fn: Node): string {
  const name = (fn as any).getName?.() as string | undefined;
  if (name) return name;
  const p = fn.getParent();
  return p && Node.isVariableDeclaration(p) ? p.getName() : "the helper";
}

/** The answer at `node` (the call, a caller of a function returning it), awaited or not. */
function followAnswer(a: Analysis, node: Node, sites: StatusSite[], depth: number, shared: string | undefined): void {
  const outer = skipParens(node);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isAwaitExpression(p)) return answerUse(a, skipParens(p), sites, depth, shared);
  if (Node.isPropertyAccessExpression(p) && p.getName() === "then") {
    const cb = (p.getParent() as any)?.getArguments?.()[0] as Node | undefined;
    if (cb && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb))) {
      const pn = cb.getParameters()[0]?.getNameNode();
      if (pn && Node.isIdentifier(pn)) for (const r of referencesOf(cb, pn)) answerUse(a, r, sites, depth, shared);
      else if (pn && Node.isObjectBindingPattern(pn)) bindingReads(pn, cb, sites, shared);
    }
    return;
  }
  answerUse(a, outer, sites, depth, shared);
}

/** A use of the answer's own value (the awaited Response, a variable holding it). */
function answerUse(a: Analysis, value: Node, sites: StatusSite[], depth: number, shared: string | undefined): void {
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p || Node.isExpressionStatement(p) || Node.isVoidExpression(p) || Node.isIfStatement(p) || Node.isPrefixUnaryExpression(p)) return;
  // `res = await fetch(…)` (a retry): the name is written, not read.
  if (Node.isBinaryExpression(p) && p.getOperatorToken().getText() === "=" && p.getLeft() === outer) return;
  // `let res: Response; try { res = await fetch(…) } catch { … }`: a local written with this answer alone holds it.
  const held = Node.isBinaryExpression(p) && p.getOperatorToken().getText() === "=" && p.getRight() === outer ? soleHolder(p.getLeft(), p.getRight()) : undefined;
  if (held) {
    for (const r of referencesOf(enclosingFunction(held), held.getNameNode())) answerUse(a, r, sites, depth, shared);
    return;
  }
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    if (STATUS_KEYS.has(p.getName())) sites.push({ kind: "read", node: p, ...(shared ? { shared } : {}) });
    else if (p.getName() === "then" && Node.isCallExpression(p.getParent())) followAnswer(a, outer, sites, depth, shared);
    return;
  }
  if (Node.isBinaryExpression(p) && ["===", "!==", "==", "!=", "&&", "||", "??"].includes(p.getOperatorToken().getText())) return;
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
    const name = p.getNameNode();
    const scope = enclosingFunction(p);
    if (Node.isIdentifier(name)) for (const r of referencesOf(scope, name)) answerUse(a, r, sites, depth, shared);
    else if (Node.isObjectBindingPattern(name)) bindingReads(name, scope, sites, shared);
    return;
  }
  const to = returnedTo(outer);
  // Returned from a helper's own function: its callers are sites, each reading its own answer.
  if (to && shared) return;
  if (to === "escapes" || (Array.isArray(to) && depth >= MAX_DEPTH)) return void sites.push({ kind: "unfollowed", node: outer, why: `the answer is returned to callers the codemod cannot list (${where(outer)})` });
  if (to) {
    for (const c of to) followAnswer(a, c, sites, depth + 1, shared);
    return;
  }
  // Handed on where a check already failed (`if (!res.ok) throw new ApiError(res)`): an error status goes there.
  if (classifyRead(outer, outer) === "error") return;
  if (Node.isCallExpression(p) && p.getArguments().includes(outer as never)) {
    if (shownAsText(outer)) return;
    const callee = argumentCallee(a, outer);
    const name = callee && (callee.param as any).getNameNode?.();
    if (callee && name && Node.isIdentifier(name) && depth < MAX_DEPTH) {
      const label = shared ?? `${p.getExpression().getText()} (${where(callee.fn)})`;
      for (const r of referencesOf(callee.fn, name)) answerUse(a, r, sites, depth + 1, label);
      return;
    }
    return void sites.push({ kind: "unfollowed", node: p, why: `the answer is handed to ${p.getExpression().getText()} (${where(p)})` });
  }
  sites.push({ kind: "unfollowed", node: outer, why: `the answer is kept (${where(outer)})` });
}

/** The local variable `target` names, when `written` is its only value (no initializer, no other write). */
function soleHolder(target: Node, written: Node): VariableDeclaration | undefined {
  if (!Node.isIdentifier(target)) return undefined;
  const b = resolveIdentifier(target);
  if (b?.kind !== "var" || b.path.length || !Node.isVariableDeclaration(b.decl) || !Node.isIdentifier(b.decl.getNameNode())) return undefined;
  const writes = writtenValues(b.decl);
  return writes.length === 1 && writes[0] === written ? b.decl : undefined;
}

/** `const { status, data } = await api.post(…)`, `({ statusCode }) => …`: each reference of the status binding. */
function bindingReads(pattern: Node & { getElements(): Node[] }, scope: Node, sites: StatusSite[], shared: string | undefined): void {
  for (const el of pattern.getElements()) {
    if (!Node.isBindingElement(el)) continue;
    const key = el.getPropertyNameNode()?.getText() ?? el.getName();
    if (!STATUS_KEYS.has(key)) continue;
    const name = el.getNameNode();
    if (!Node.isIdentifier(name)) continue;
    for (const r of referencesOf(scope, name)) sites.push({ kind: "read", node: r, ...(shared ? { shared } : {}) });
  }
}
