// What a request helper or wrapper gives its callers back from its transport call (helpers.ts reads
// their signatures): the parsed body itself, the transport's answer as it is (read as that
// library's), or an object of its own carrying the body under one key.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { enclosingFunction, resolveIdentifier } from "./scope.ts";
import { writtenValues } from "./reassigned-records.ts";
import { unwrapExpression } from "./urls.ts";
import { skipParens } from "./nodes.ts";
import { bodySites, type BodySite } from "./body-sites.ts";
import { schemaParamIndex, schemaParseOf } from "./schema-parse.ts";
import { functionNamed } from "./record-callees.ts";
import { classifyRead } from "./response-branch.ts";

/** Whose answer a transport call gives back: fetch's Response or axios's response (read by `.data`); others are not read through a helper. */
export function answerLibOf(http: HttpCall): "fetch" | "axios" | "superagent" | undefined {
  // (An axios answer through a response interceptor is not axios's: the body, or the interceptor's own form.)
  if (http.lib === "axios" && http.interceptor) return undefined;
  if (http.lib === "fetch" || http.lib === "axios" || http.lib === "superagent") return http.lib;
  // (A body under a member of its own, `result`, is not axios's: not read through a helper.)
  if (http.lib === "convention") return http.style === "data" && !http.answerKey ? "axios" : http.style === "json" ? "fetch" : undefined;
  if (http.lib === "helper" && http.helper?.returnsResponse) return http.helper.answerLib ?? "fetch";
  return undefined;
}

/** The function returns the parsed body its transport call answers (`return data`, `return res.data`). */
export function returnsBody(a: Analysis, http: HttpCall, fn: Node): boolean {
  for (const site of inside(fn, bodySites(a, http))) {
    // `const { data } = await api.get(path); return data;`: the bound name is the body.
    if (site.kind === "binding") {
      const local = (site.node as any).getNameNode() as Node;
      if (Node.isIdentifier(local) && returnsName(fn, local.getText())) return true;
      continue;
    }
    if (site.kind === "handed") continue;
    let up = site.node.getParent();
    while (up && (Node.isParenthesizedExpression(up) || Node.isAsExpression(up) || Node.isAwaitExpression(up) || Node.isNonNullExpression(up) || Node.isSatisfiesExpression(up) || (Node.isConditionalExpression(up) && up.getCondition() !== site.node) || (Node.isBinaryExpression(up) && ["??", "||"].includes(up.getOperatorToken().getText())))) up = up.getParent();
    if (up && Node.isReturnStatement(up)) return true;
    if (up && Node.isArrowFunction(up) && up === fn) return true;
    if (up && Node.isVariableDeclaration(up) && Node.isIdentifier(up.getNameNode()) && returnsName(fn, up.getName())) return true;
    // `let body = null; try { body = raw ? JSON.parse(raw) : null } catch {} … return body`: the
    // returned variable holds the body, when its every other write is an empty literal.
    if (up && Node.isBinaryExpression(up) && up.getOperatorToken().getText() === "=" && Node.isIdentifier(up.getLeft()) && returnsName(fn, up.getLeft().getText()) && onlyBodyWrites(up.getLeft(), up.getRight())) return true;
  }
  return false;
}

/** Every write to the variable is `body`, an empty literal (`null`, `undefined`) or the text the body's parse failed on. */
function onlyBodyWrites(name: Node, body: Node): boolean {
  const decl = resolveIdentifier(name);
  if (decl?.kind !== "var" || !Node.isVariableDeclaration(decl.decl) || decl.path.length) return false;
  return writtenValues(decl.decl).every((w) => w === body || Node.isNullLiteral(unwrapExpression(w)) || unwrapExpression(w).getText() === "undefined" || parseFallback(w, body));
}

/**
 * `try { body = JSON.parse(text) } catch { body = text }`: the raw text kept where the answer is
 * not JSON. No record read tells it from no record (a string has none of a record's fields, v1's or
 * v2's), so the variable still holds the body for every read that can tell.
 */
function parseFallback(write: Node, body: Node): boolean {
  const text = rawTextOf(unwrapExpression(write));
  if (!text) return false;
  const tryStatement = write.getFirstAncestorByKind(SyntaxKind.CatchClause)?.getParent();
  if (!tryStatement || !Node.isTryStatement(tryStatement) || !body.getFirstAncestor((x) => x === tryStatement.getTryBlock())) return false;
  return [body, ...body.getDescendants()].some((c) => {
    if (!Node.isCallExpression(c) || c.getExpression().getText() !== "JSON.parse") return false;
    const arg = c.getArguments()[0];
    return !!arg && unwrapExpression(arg).getText() === text.getText();
  });
}

/** Keys a read of the answer may look for (record fields, error fields): a fallback holding the text under one is not inert. */
const READ_KEYS = new Set(["id", "name", "status", "message", "error", "errors", "detail", "title", "data"]);

/** The raw text written as the fallback: `text`, or wrapped under a key no read looks for (`{ raw: text }`). */
function rawTextOf(write: Node): Node | undefined {
  if (Node.isIdentifier(write)) return write;
  if (!Node.isObjectLiteralExpression(write)) return undefined;
  const props = write.getProperties();
  const values = props.map((p) => (Node.isShorthandPropertyAssignment(p) ? p.getNameNode() : Node.isPropertyAssignment(p) && !READ_KEYS.has(p.getName()) ? unwrapExpression(p.getInitializer()!) : undefined));
  const first = values[0];
  if (props.length !== 1 || !first || !Node.isIdentifier(first) || READ_KEYS.has(first.getText())) return undefined;
  return first;
}

/** The body reads inside the function itself (bodySites also follows an answer the function returns to its callers). */
function inside(fn: Node, sites: BodySite[]): BodySite[] {
  return sites.filter((s) => !!s.node.getFirstAncestor((x) => x === fn));
}

function returnsName(fn: Node, name: string): boolean {
  return fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).some((r) => {
    const e = r.getExpression();
    return e && unwrapExpression(e).getText() === name;
  });
}

/**
 * Where the helper's own result carries the parsed body, when every return that carries it puts it
 * at one place: a key of a returned object literal (`{ ok, detail, corps }`, `{ data, error: null }`),
 * an element of a returned array (`[null, body]`), or the place a constructor function of the project
 * puts its argument at (`ok(body)` of `ok = (value) => ({ ok: true, value })`, with the literal
 * `ok: true` that tells the success side). Returns without the body (an error path) say nothing of it.
 */
export type ResultPlace = { key: string; success?: { key: string; value: boolean } } | { index: number };

export function resultPlaceOf(a: Analysis, http: HttpCall, fn: Node): ResultPlace | undefined {
  const holders = bodyHolders(a, http, fn, false);
  for (const site of inside(fn, bodySites(a, http))) if (site.kind === "value") holders.add(unwrapExpression(site.node).getText());
  if (!holders.size) return undefined;
  const holds = (e: Node) => {
    const b = bodyOrNothing(e);
    return holders.has(b.getText()) || (Node.isAwaitExpression(b) && holders.has(unwrapExpression(b.getExpression()).getText()));
  };
  const places: ResultPlace[] = [];
  /** Returns that carry the body elsewhere: fine only on the failure side (`err(httpError(status, body))`). */
  const elsewhere: Node[] = [];
  const visit = (e: Node) => {
    const u = unwrapExpression(Node.isAwaitExpression(e) ? e.getExpression() : e);
    if (Node.isConditionalExpression(u)) return void [u.getWhenTrue(), u.getWhenFalse()].forEach(visit);
    // The error side of a status check (`res.ok ? ok(body) : err(httpError(res.status, body))`) carries the error body.
    if (classifyRead(u) === "error") return;
    const place = placeIn(a, u, holds);
    if (place) places.push(place);
    else if (holds(u) || u.getDescendants().some((d) => holds(d) && !isMemberName(d))) elsewhere.push(u);
  };
  for (const e of returnedOf(fn)) visit(e);
  if (!places.length) return undefined;
  const first = JSON.stringify(places[0]);
  if (!places.every((p) => JSON.stringify(p) === first)) return undefined;
  // The body somewhere else in what is returned (`wrap(body)` of a library, `{ [k]: body }`): its place is not known,
  // unless that return says it is the failure (`ok: false` where the body's side says `ok: true`).
  const success = "key" in places[0]! ? places[0].success : undefined;
  const failure = (u: Node) => {
    const flag = flagOf(a, u);
    return !!success && !!flag && flag.key === success.key && flag.value !== success.value;
  };
  return elsewhere.every(failure) ? places[0] : undefined;
}

/**
 * The body a returned member holds: the read itself, and `cond ? await res.json() : null`
 * (`{ status: r.status, body: r.ok ? await r.json() : null }`) as the body or nothing, like a variable
 * written with the body or an empty literal.
 */
function bodyOrNothing(e: Node): Node {
  const u = unwrapExpression(e);
  if (!Node.isConditionalExpression(u)) return u;
  const empty = (x: Node) => /^(null|undefined)$/.test(unwrapExpression(x).getText());
  if (empty(u.getWhenFalse()) && !empty(u.getWhenTrue())) return bodyOrNothing(u.getWhenTrue());
  if (empty(u.getWhenTrue()) && !empty(u.getWhenFalse())) return bodyOrNothing(u.getWhenFalse());
  return u;
}

/** A name of a member (`{ corps: null }`, `x.corps`), not a value read by that name. */
function isMemberName(n: Node): boolean {
  const p = n.getParent();
  return !!p && (Node.isPropertyAssignment(p) || Node.isPropertyAccessExpression(p)) && p.getNameNode() === n;
}

/** The success flag a returned expression carries: its own (`{ ok: false, error }`) or its project constructor's (`err(e)`). */
function flagOf(a: Analysis, u: Node): { key: string; value: boolean } | undefined {
  if (Node.isObjectLiteralExpression(u)) return successOf(u).success;
  const ctor = Node.isCallExpression(u) ? functionNamed(a, u.getExpression()) : undefined;
  const returned = ctor ? returnedOf(ctor) : [];
  const flags = returned.map((e) => { const x = unwrapExpression(e); return Node.isObjectLiteralExpression(x) ? successOf(x).success : undefined; });
  return flags.length && flags.every((f) => f && JSON.stringify(f) === JSON.stringify(flags[0])) ? flags[0] : undefined;
}

/** The expressions a function returns (its own returns, or an arrow's expression body). */
function returnedOf(fn: Node): Node[] {
  if (Node.isArrowFunction(fn) && !Node.isBlock(fn.getBody())) return [fn.getBody()];
  return fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn).flatMap((r) => { const e = r.getExpression(); return e ? [e as Node] : []; });
}

/** The place the body is at in one returned expression (an object literal, an array literal, a project constructor's call). */
function placeIn(a: Analysis, u: Node, holds: (e: Node) => boolean): ResultPlace | undefined {
  if (Node.isObjectLiteralExpression(u)) {
    const found = u.getProperties().filter((p) => (Node.isShorthandPropertyAssignment(p) && holds(p.getNameNode())) || (Node.isPropertyAssignment(p) && !Node.isComputedPropertyName(p.getNameNode()) && holds(p.getInitializer()!)));
    return found.length === 1 ? { key: (found[0] as any).getName() as string, ...successOf(u) } : undefined;
  }
  if (Node.isArrayLiteralExpression(u)) {
    const els = u.getElements();
    const at = els.findIndex((e) => holds(e));
    return at >= 0 && els.filter((e) => holds(e)).length === 1 && !els.some((e) => Node.isSpreadElement(e)) ? { index: at } : undefined;
  }
  if (!Node.isCallExpression(u)) return undefined;
  const args = u.getArguments();
  const at = args.findIndex((e) => holds(e));
  const ctor = at >= 0 ? functionNamed(a, u.getExpression()) : undefined;
  const param = ctor ? ((ctor as any).getParameters() as Node[])[at] : undefined;
  if (!ctor || !param || !Node.isParameterDeclaration(param) || !Node.isIdentifier(param.getNameNode())) return undefined;
  // What the constructor returns puts its parameter at one place of its own (`({ ok: true, value })`).
  const name = param.getName();
  const inner = returnedOf(ctor).map((e) => placeIn(a, unwrapExpression(e), (x) => unwrapExpression(x).getText() === name));
  const first = inner[0] && JSON.stringify(inner[0]);
  return first && inner.every((p) => p && JSON.stringify(p) === first) ? inner[0] : undefined;
}

/** The one boolean literal member of a result object (`ok: true`, `success: true`): it tells the side the body is on. */
function successOf(obj: Node & { getProperties(): Node[] }): { success?: { key: string; value: boolean } } {
  const flags = obj.getProperties().filter((p) => Node.isPropertyAssignment(p) && /^(true|false)$/.test(unwrapExpression(p.getInitializer()!).getText()));
  if (flags.length !== 1) return {};
  const p = flags[0] as any;
  return { success: { key: p.getName(), value: unwrapExpression(p.getInitializer()).getText() === "true" } };
}

/**
 * What holds the parsed body inside `fn`: the variables it is declared into or assigned to, and
 * with `asArgument` the read itself where it is a one-argument call's argument
 * (`return ok(await res.json())`).
 */
function bodyHolders(a: Analysis, http: HttpCall, fn: Node, asArgument: boolean): Set<string> {
  const holders = new Set<string>();
  for (const site of inside(fn, bodySites(a, http))) {
    if (site.kind !== "value") continue;
    let child: Node = site.node;
    let up = site.node.getParent();
    // `text ? JSON.parse(text) : null`: the body, or nothing.
    const orNothing = (c: Node, n: Node) => Node.isConditionalExpression(n) && n.getCondition() !== c && [n.getWhenTrue(), n.getWhenFalse()].some((x) => x !== c && /^(null|undefined)$/.test(unwrapExpression(x).getText()));
    while (up && (Node.isParenthesizedExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up) || orNothing(child, up))) {
      child = up;
      up = up.getParent();
    }
    if (up && Node.isVariableDeclaration(up) && Node.isIdentifier(up.getNameNode())) holders.add(up.getName());
    else if (up && Node.isBinaryExpression(up) && up.getOperatorToken().getKind() === SyntaxKind.EqualsToken && Node.isIdentifier(up.getLeft())) holders.add(up.getLeft().getText());
    else if (asArgument && up && Node.isCallExpression(up) && up.getArguments().length === 1) holders.add(site.node.getText());
  }
  return holders;
}

/** Why a helper's result is not followed, where it wraps the body in a call of its own (a Result). */
export function wrapped(http: HttpCall): string {
  const w = http.helper?.resultWrapper;
  // zod's `safeParse` answers `{ success, data }` (its `parse` answers the body itself: helper.schema).
  if (w && /\.safeParse(Async)?$/.test(w)) return `: it hands back ${w}(…)'s { success, data } result, whose data the codemod does not follow`;
  return w ? `: it hands the body back wrapped in ${w}(…) (a Result), whose value and error the codemod does not follow into .value, .map or .match` : "";
}

/**
 * The schema a function validates the parsed body with before returning it (`return schema.parse(await
 * res.json())`): what callers get is the body itself (zod's `parse` throws on failure), validated by
 * that schema, a parameter of the function (each call gives its own) or a schema of its own.
 */
export function schemaParsedBody(a: Analysis, http: HttpCall, fn: Node): { param?: number; schema: Node } | undefined {
  const holders = bodyHolders(a, http, fn, true);
  for (const r of fn.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (enclosingFunction(r) !== fn || !r.getExpression()) continue;
    let e: Node = r.getExpression()!;
    while (Node.isAwaitExpression(e) || Node.isParenthesizedExpression(e) || Node.isAsExpression(e)) e = e.getExpression();
    if (!Node.isCallExpression(e) || e.getArguments().length !== 1 || !holders.has(unwrapExpression(e.getArguments()[0]!).getText())) continue;
    const parse = schemaParseOf(e.getArguments()[0]!);
    if (!parse?.returnsValue) continue;
    return { param: schemaParamIndex(parse.schema, fn), schema: parse.schema };
  }
  return undefined;
}

/**
 * The callee of a call the function returns the parsed body through (`return res.ok ? ok(body as T)
 * : err(…)`, a Result's constructor): what callers get is that call's value, which the codemod does
 * not follow into (`.value`, `.map(…)`, `.match(…)`), so the mark names it.
 */
export function bodyWrapperOf(a: Analysis, http: HttpCall, fn: Node): string | undefined {
  const holders = bodyHolders(a, http, fn, true);
  for (const r of fn.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (enclosingFunction(r) !== fn || !r.getExpression()) continue;
    for (const c of [r.getExpression()!, ...r.getExpression()!.getDescendantsOfKind(SyntaxKind.CallExpression)]) {
      if (!Node.isCallExpression(c) || c.getArguments().length !== 1) continue;
      if (holders.has(unwrapExpression(c.getArguments()[0]!).getText())) return c.getExpression().getText();
    }
  }
  return undefined;
}

/** `return fetch(…)`, `return await fetch(…)`, or `const res = await fetch(…)` (or `res = await fetch(…)` in a try) `…; return res`. */
export function returnsValueOf(fn: Node, call: Node): boolean {
  let up = skipParens(call).getParent();
  while (up && (Node.isParenthesizedExpression(up) || Node.isAwaitExpression(up) || Node.isAsExpression(up))) up = skipParens(up).getParent();
  if (up && (Node.isReturnStatement(up) || (Node.isArrowFunction(up) && up === fn))) return true;
  let name: string;
  if (up && Node.isVariableDeclaration(up) && Node.isIdentifier(up.getNameNode())) name = up.getName();
  else if (up && Node.isBinaryExpression(up) && up.getOperatorToken().getKind() === SyntaxKind.EqualsToken && Node.isIdentifier(up.getLeft())) name = up.getLeft().getText();
  else return false;
  const returns = fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn && r.getExpression());
  return returns.some((r) => unwrapExpression(r.getExpression()!).getText() === name);
}
