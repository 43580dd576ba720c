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

/** Every write to the variable is `body` or an empty literal (`null`, `undefined`). */
function onlyBodyWrites(name: Node, body: Node): boolean {
  const decl = resolveIdentifier(name);
  if (decl?.kind !== "var" || !Node.isVariableDeclaration(decl.decl) || decl.path.length) return false;
  return writtenValues(decl.decl).every((w) => w === body || Node.isNullLiteral(unwrapExpression(w)) || unwrapExpression(w).getText() === "undefined");
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
 * The key of the helper's own result object that holds the parsed body: the body goes into a
 * variable (declared or assigned) that every returned object literal carries under one key.
 */
export function bodyKeyOf(a: Analysis, http: HttpCall, fn: Node): string | undefined {
  const holders = bodyHolders(a, http, fn, false);
  if (holders.size !== 1) return undefined;
  const holder = [...holders][0]!;
  const returns = fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn && r.getExpression());
  let key: string | undefined;
  for (const r of returns) {
    const obj = unwrapExpression(r.getExpression()!);
    if (!Node.isObjectLiteralExpression(obj)) return undefined;
    const found = obj.getProperties().find((p) => (Node.isShorthandPropertyAssignment(p) && p.getName() === holder) || (Node.isPropertyAssignment(p) && unwrapExpression(p.getInitializer()!).getText() === holder));
    // A return without the body (an error path) gives null or nothing under the key: still the same key.
    const name = found ? (found as any).getName() as string : undefined;
    if (name && key && name !== key) return undefined;
    key ??= name;
  }
  return key;
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
    let up = site.node.getParent();
    while (up && (Node.isParenthesizedExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up))) up = up.getParent();
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
