// got's and ky's hooks: functions an instance runs on every request it makes, given in its options
// (`ky.create({ prefixUrl, hooks: { beforeError: [fn] } })`, `got.extend(…)`, a later
// `base.extend({ hooks })`, or one call's own options). Two of them see a failed answer:
//   - beforeError (got and ky): the HTTPError, its body at `error.response.body` (got; parsed or
//     not as `responseType` says) or `await error.response.json()` (ky);
//   - afterResponse: ky's third parameter is the fetch Response, got's first its own response
//     (`response.body`, `response.statusCode`); both run before the error is thrown.
// The hooks of every link of the instance's chain apply (extend merges them). A hook the engine
// cannot read (a package's, one built at run time, a spread) is reported, so it can be marked.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { isFunctionLike } from "./scope.ts";
import { classOfMember, memberValues } from "./symbols.ts";
import { bind, external, objectLiteral, prop, valueOf } from "./values.ts";
import { functionNamed } from "./record-callees.ts";
import { references } from "./references.ts";
import { factoryResult } from "./called-functions.ts";
import { unwrapExpression } from "./urls.ts";
import { declarationScope, referencesOf, skipParens } from "./nodes.ts";

export type HookTakes = "error" | "fetch-response" | "got-response";

export interface ClientHook {
  /** The hook's parameter (a name or a pattern) that takes the error or the response. */
  param: Node;
  takes: HookTakes;
  /** Requests that are not v1 calls may run it too (a generic instance others extend, a function other code uses). */
  foreign: boolean;
}

const HOOKS: Record<"got" | "ky", Record<string, { index: number; takes: HookTakes }>> = {
  got: { beforeError: { index: 0, takes: "error" }, afterResponse: { index: 0, takes: "got-response" } },
  ky: { beforeError: { index: 0, takes: "error" }, afterResponse: { index: 2, takes: "fetch-response" } },
};
const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);

/** The hooks that see a failure of `http`, and the hook entries that cannot be read (each one node to mark). */
export function clientHooks(a: Analysis, http: HttpCall): { hooks: ClientHook[]; unfollowed: Node[] } {
  const hooks: ClientHook[] = [];
  const unfollowed: Node[] = [];
  if ((http.lib !== "got" && http.lib !== "ky") || http.wrapper) return { hooks, unfollowed };
  const lib = http.lib;
  const callee = unwrapExpression(http.call.getExpression());
  const receiver = Node.isPropertyAccessExpression(callee) && VERBS.has(callee.getName()) ? callee.getExpression() : callee;
  const links: Link[] = [];
  chain(a, receiver, links, 0);
  // A link's hooks serve only v1 calls when it, or one it extends, carries the v1 base.
  let based = -1;
  links.forEach((l, i) => l.configs.some((c) => external(a, objectLiteral(a, c), ["prefixUrl"], "slash")) && (based = i));
  const configs = [...(http.options ? [{ config: http.options, foreign: false }] : [])];
  links.forEach((l, i) => l.configs.forEach((config) => configs.push({ config, foreign: i > based && shared(l.name) })));
  for (const { config, foreign } of configs) hooksIn(a, lib, config, foreign, hooks, unfollowed, 0);
  return { hooks, unfollowed };
}

/** One instance of the chain: the options it was made with, and the name holding it. */
interface Link {
  configs: Node[];
  name?: Node;
}

/** The chain of an instance, most derived first: `base.extend(b)` after `got.extend(a)`. */
function chain(a: Analysis, expr: Node, out: Link[], depth: number): void {
  const n = unwrapExpression(expr);
  if (depth > 6) return;
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind === "var" && b.init && !b.path.length) made(a, b.init, (b.decl as any).getNameNode?.(), out, depth);
    return;
  }
  if (Node.isPropertyAccessExpression(n)) {
    const cls = classOfMember(n);
    for (const v of cls ? memberValues(cls, n.getName()) : []) made(a, v, undefined, out, depth);
    return;
  }
  made(a, n, undefined, out, depth);
}

function made(a: Analysis, value: Node, name: Node | undefined, out: Link[], depth: number): void {
  const v = unwrapExpression(value);
  if (Node.isCallExpression(v)) {
    const callee = unwrapExpression(v.getExpression());
    if (!Node.isPropertyAccessExpression(callee) || !["create", "extend"].includes(callee.getName())) return;
    out.push({ configs: v.getArguments(), name });
    chain(a, callee.getExpression(), out, depth + 1);
  } else if (Node.isIdentifier(v) || Node.isPropertyAccessExpression(v)) chain(a, v, out, depth + 1);
}

/** A name other code uses too (not only the one link this chain goes through). */
function shared(name: Node | undefined): boolean {
  return !!name && usedMoreThanOnce(name);
}

const usesCache = new WeakMap<Node, boolean>();
function usedMoreThanOnce(name: Node): boolean {
  let used = usesCache.get(name);
  if (used === undefined) usesCache.set(name, (used = references(name).length > 1));
  return used;
}

function hooksIn(a: Analysis, lib: "got" | "ky", config: Node, foreign: boolean, hooks: ClientHook[], unfollowed: Node[], depth: number): void {
  const obj = objectLiteral(a, config);
  if (!obj || !Node.isObjectLiteralExpression(obj) || depth > 3) return;
  // `{ ...defaults, prefixUrl }`: the spread object's hooks too.
  for (const s of obj.getProperties()) if (Node.isSpreadAssignment(s)) hooksIn(a, lib, s.getExpression(), foreign, hooks, unfollowed, depth + 1);
  const given = prop(obj, "hooks");
  if (!given) return;
  const table = objectLiteral(a, given);
  if (!table || !Node.isObjectLiteralExpression(table)) return void unfollowed.push(given);
  for (const [key, { index, takes }] of Object.entries(HOOKS[lib])) {
    const list = prop(table, key);
    if (!list) continue;
    const items = arrayLiteral(a, list);
    if (!items) {
      unfollowed.push(list);
      continue;
    }
    for (const item of items.getElements()) {
      const fn = Node.isSpreadElement(item) ? undefined : hookFunction(a, item);
      if (!fn) {
        unfollowed.push(item);
        continue;
      }
      const param = (fn as any).getParameters?.()[index] as Node | undefined;
      if (param && Node.isParameterDeclaration(param)) hooks.push({ param: param.getNameNode(), takes, foreign: foreign || (!isFunctionLike(unwrapExpression(item)) && usedElsewhere(fn)) });
    }
  }
}

function arrayLiteral(a: Analysis, node: Node): Node & { getElements(): Node[] } | undefined {
  const n = unwrapExpression(node);
  if (Node.isArrayLiteralExpression(n)) return n;
  const v = Node.isIdentifier(n) || Node.isPropertyAccessExpression(n) ? valueOf(a, n) : undefined;
  const u = v && unwrapExpression(v);
  return u && Node.isArrayLiteralExpression(u) ? u : undefined;
}

/** The function a hook entry is: written there, named (in any module of the run), or returned by a factory of the run. */
function hookFunction(a: Analysis, item: Node): Node | undefined {
  const n = unwrapExpression(item);
  if (isFunctionLike(n)) return n;
  if (Node.isIdentifier(n) || Node.isPropertyAccessExpression(n)) return functionNamed(a, n);
  if (Node.isCallExpression(n)) return factoryResult(a, n);
  return undefined;
}

/** A named hook used anywhere but one hooks list: other instances (maybe other APIs') run it too. */
function usedElsewhere(fn: Node): boolean {
  const holder = fn.getParent();
  const name = (fn as any).getNameNode?.() ?? (holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined);
  return !!name && name.getKind() === SyntaxKind.Identifier && usedMoreThanOnce(name);
}

/** `error.data = body` in a beforeError hook: the fields of the thrown error that hold the body (callers' catches read `e.data.message`). */
export function storedOnError(param: Node, bodies: Node[]): string[] {
  if (!Node.isIdentifier(param)) return [];
  const fn = param.getParent()?.getParent();
  const out = new Set<string>();
  const values = heldIn(bodies);
  for (const bin of fn?.getDescendantsOfKind(SyntaxKind.BinaryExpression) ?? []) {
    if (bin.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
    const left = unwrapExpression(bin.getLeft());
    if (!Node.isPropertyAccessExpression(left)) continue;
    const target = unwrapExpression(left.getExpression());
    if (!Node.isIdentifier(target) || target.getText() !== param.getText() || target.getSymbol() !== param.getSymbol()) continue;
    // The body, or `JSON.parse(body)` (got's text body).
    const right = unwrapExpression(bin.getRight());
    const parsed = Node.isCallExpression(right) && right.getExpression().getText() === "JSON.parse" ? right.getArguments()[0] : undefined;
    if ([bin.getRight(), right, parsed].some((n) => n && (values.has(n) || values.has(unwrapExpression(n))))) out.add(left.getName());
  }
  return [...out];
}

/** The body nodes and the uses of the variables they are kept in (`const raw = error.response?.body`). */
function heldIn(bodies: Node[]): Set<Node> {
  const out = new Set<Node>();
  const visit = (n: Node, depth: number) => {
    if (out.has(n) || depth > 3) return;
    out.add(n);
    const p = skipParens(n).getParent();
    if (p && Node.isVariableDeclaration(p) && p.getInitializer() === skipParens(n) && Node.isIdentifier(p.getNameNode())) {
      for (const r of referencesOf(declarationScope(p.getNameNode()), p.getNameNode())) visit(r, depth + 1);
    }
  };
  bodies.forEach((b) => visit(b, 0));
  return out;
}
