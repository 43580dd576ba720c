// The method of a call on a verb (`this._client.get(path, { query, ...options })`) whose helper lets a
// caller's options replace its method. The verb names the method (issue 13): options that only
// *might* carry a `method` because their declared type allows it, handed in by code outside the
// project (an SDK's public callers), are the caller's business. A method the value flow can see (a
// key written in a literal, a write `opts.method = …`, a project caller passing one, a default
// value holding one) still decides or makes the method unknown; so do options it cannot follow.
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import type { HelperSignature } from "../types.ts";
import type { Analysis } from "./state.ts";
import { bind, objectLiteral } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { functionName, references } from "./references.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { optionsMayCarry } from "./helper-method.ts";
import { shortExpression } from "./expression-name.ts";

const VERBS = new Set(["get", "post", "put", "patch", "delete"]);
const MAX_DEPTH = 6;

/** The call is made on a verb that names the helper's own method (`client.post` sending POST). */
export function verbNamesMethod(call: CallExpression, method: string | undefined): boolean {
  const callee = unwrapExpression(call.getExpression());
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : Node.isIdentifier(callee) ? callee.getText() : undefined;
  return !!name && VERBS.has(name) && name.toUpperCase() === method?.toUpperCase();
}

/**
 * Where the options `expr` visibly carry (or may carry, unfollowed) a `key`: the node that sets it,
 * or undefined when nothing in the project gives one (a parameter only outside callers fill).
 */
export function methodInSight(a: Analysis, expr: Node, key: string, depth = 0): Node | undefined {
  const u = unwrapExpression(expr);
  if (depth > MAX_DEPTH) return u;
  if (!optionsMayCarry(u, key)) return undefined;
  const literal = objectLiteral(a, u);
  if (Node.isIdentifier(u) && keyWritten(u, key)) return u;
  if (literal) return literalCarrying(a, literal, key, depth);
  if (!Node.isIdentifier(u)) return u;
  const b = bind(a, u);
  if (b?.kind !== "param" || b.path.length) return u;
  // `options: RequestOptions = { method: "post" }`: a default the project writes.
  const init = (b.decl as any).getInitializer?.() as Node | undefined;
  const fromDefault = init && methodInSight(a, init, key, depth + 1);
  if (fromDefault) return fromDefault;
  const calls = projectCalls(b.fn);
  if (!calls) return u;
  for (const call of calls) {
    const args = call.getArguments();
    if (args.slice(0, b.index + 1).some((x) => Node.isSpreadElement(x))) return call;
    const arg = args[b.index];
    const seen = arg && methodInSight(a, arg, key, depth + 1);
    if (seen) return seen;
  }
  return undefined;
}

/** The literal's own `key`, a computed key that may be it, or a spread that carries one. */
function literalCarrying(a: Analysis, literal: Node, key: string, depth: number): Node | undefined {
  if (!Node.isObjectLiteralExpression(literal)) return literal;
  for (const p of literal.getProperties()) {
    if (Node.isSpreadAssignment(p)) {
      const seen = methodInSight(a, p.getExpression(), key, depth + 1);
      if (seen) return seen;
      continue;
    }
    const name = (p as any).getNameNode?.() as Node | undefined;
    if (name && Node.isComputedPropertyName(name)) return p;
    if ((Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && p.getName() === key) return p;
  }
  return undefined;
}

/** `opts.method = …`, `opts["method"] = …` or `Object.assign(opts, …)` in the variable's scope. */
function keyWritten(id: Node, key: string): boolean {
  const b = id.getSymbol()?.getDeclarations()[0];
  const nameNode = b && (b as any).getNameNode?.();
  if (!nameNode || !Node.isIdentifier(nameNode)) return false;
  const scope = nameNode.getFirstAncestor((x) => Node.isBlock(x) || Node.isSourceFile(x) || Node.isFunctionLikeDeclaration(x)) ?? nameNode.getSourceFile();
  return referencesOf(scope, nameNode).some((r) => {
    const up = skipParens(r).getParent();
    if (!up) return false;
    if (Node.isCallExpression(up) && up.getArguments()[0] === skipParens(r) && /^Object\.assign$/.test(up.getExpression().getText())) return true;
    const written = (Node.isPropertyAccessExpression(up) && up.getName() === key) || (Node.isElementAccessExpression(up) && up.getExpression() === skipParens(r));
    const assign = written ? up.getParent() : undefined;
    return !!assign && Node.isBinaryExpression(assign) && assign.getLeft() === up && assign.getOperatorToken().getKind() >= SyntaxKind.FirstAssignment && assign.getOperatorToken().getKind() <= SyntaxKind.LastAssignment;
  });
}

/** The project's calls of a named function or method; undefined when it is used as a value (handed on, stored) or has no name. */
function projectCalls(fn: Node): CallExpression[] | undefined {
  const name = functionName(fn);
  if (!name) return undefined;
  const out: CallExpression[] = [];
  for (const r of references(name)) {
    const ref = skipParens(r);
    const call = ref.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === ref) out.push(call);
    else return undefined;
  }
  return out;
}

/** Options on a verb that names the helper's method: the node that visibly sets a method, else undefined (the verb decides). */
export function verbOptionsMethod(a: Analysis, call: CallExpression, sig: HelperSignature, options: Node, key: string): Node | undefined {
  if (!verbNamesMethod(call, sig.defaultMethod ?? "GET")) return options;
  return methodInSight(a, options, key);
}

/** Why a caller's options decide the method: they may carry one, and the helper lets it replace its own. */
export function carriedWhy(options: Node, at: Node | undefined, own: string | undefined, seen?: Node): string {
  const verb = own ? own.toUpperCase() : "the helper's method";
  const where = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()} \`${shortExpression(n, 40)}\``;
  const place = at ? ` (${where(at)})` : "";
  // Where the project gives it one (a caller's literal, a write), when that is not the options themselves.
  const from = seen && seen !== unwrapExpression(options) ? ` (${where(seen)})` : "";
  return `the options handed on (${shortExpression(options, 40)}) may carry a method${from}, and the helper lets it replace ${verb}${place}`;
}
