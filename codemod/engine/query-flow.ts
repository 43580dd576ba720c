// Which parameter names a query string built at run time can carry, followed by value: through
// names, conditionals, `||` / `??` / `&&`, concatenation and templates (whose literal text is read
// as `?name=value&…`), the project's functions that return a query (`toQuery(params)` returning
// `"?" + new URLSearchParams(params)`), `String(params)` / `params.toString()` to a `new
// URLSearchParams(…)` (its object's keys and the literal names `.set` / `.append` give it), and a
// `URL` object's `searchParams.set(…)` / `search = …`. Where a name cannot be read, the answer is
// the expression where following stopped, so a mark can name it.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { unwrapExpression, type UrlContext } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { bind, objectLiteral, urlContext } from "./values.ts";
import { enclosingFunction, identifiersNamed, writesOf } from "./scope.ts";
import { urlQueryWrites } from "./url-object.ts";
import { loopedKeysOf } from "./looped-keys.ts";

/** Where a name is written: a string literal or an object property (renamed whole), or a span of a literal's text. */
export type Written = Node | { at: Node; start: number; end: number };

/** Each name, with where it is written. */
export type QueryNames = Map<string, Written[]>;

export type QueryFlow = { names: QueryNames } | { stop: Node };

/**
 * The names a query hole can carry when they are all written in the code, else where following
 * stopped. Inside a URL builder (`ctx`), a parameter is what the call gives it: its argument, else
 * its default (`params = {}`), else nothing.
 */
export function queryFlow(a: Analysis, hole: Node, ctx?: UrlContext): QueryFlow {
  const names: QueryNames = new Map();
  const stop = collect(a, hole, names, 0, ctx);
  return stop ? { stop } : { names };
}

export function runtimeQueryNames(a: Analysis, hole: Node, ctx?: UrlContext): QueryNames | undefined {
  const flow = queryFlow(a, hole, ctx);
  return "names" in flow ? flow.names : undefined;
}

function named(names: QueryNames, name: string, at: Written): void {
  names.set(name, [...(names.get(name) ?? []), at]);
}

/** Follows `node`; returns the node where a name could not be read, or undefined when all were. */
function collect(a: Analysis, node: Node, names: QueryNames, depth: number, ctx: UrlContext | undefined): Node | undefined {
  const n = unwrapExpression(node);
  if (depth > 8) return n;
  const given = ctx?.argumentFor?.(n);
  if (given) return collect(a, given, names, depth + 1, ctx);
  if (ctx?.absent?.(n)) return undefined;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) || Node.isTemplateExpression(n) || isConcatenation(n)) return sequence(a, n, names, depth, ctx);
  if (Node.isConditionalExpression(n)) return collect(a, n.getWhenTrue(), names, depth + 1, ctx) ?? collect(a, n.getWhenFalse(), names, depth + 1, ctx);
  if (Node.isBinaryExpression(n)) {
    const op = n.getOperatorToken().getKind();
    if (op === SyntaxKind.BarBarToken || op === SyntaxKind.QuestionQuestionToken) return collect(a, n.getLeft(), names, depth + 1, ctx) ?? collect(a, n.getRight(), names, depth + 1, ctx);
    // `qs && \`?${qs}\``: the left is falsy (an empty string) or the right is the value.
    if (op === SyntaxKind.AmpersandAmpersandToken) return collect(a, n.getRight(), names, depth + 1, ctx);
    return n;
  }
  if (n.getKind() === SyntaxKind.UndefinedKeyword || n.getKind() === SyntaxKind.NullKeyword || (Node.isIdentifier(n) && n.getText() === "undefined")) return undefined;
  if (Node.isCallExpression(n)) {
    const callee = n.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "toString" && !n.getArguments().length) return collect(a, callee.getExpression(), names, depth + 1, ctx);
    if (Node.isIdentifier(callee) && callee.getText() === "String" && n.getArguments().length === 1) return collect(a, n.getArguments()[0]!, names, depth + 1, ctx);
    const keyed = keysJoined(n);
    if (keyed) return objectKeys(a, keyed, names, ctx);
    // A project function returning the query: each of its returns, its parameters bound to this call's arguments.
    const inlined = (ctx?.inline ?? urlContext(a).inline)?.(n);
    if (!inlined?.returns.length) return n;
    for (const r of inlined.returns) {
      const stop = collect(a, r, names, depth + 1, inlined.ctx);
      if (stop) return stop;
    }
    return undefined;
  }
  if (Node.isNewExpression(n)) return searchParamsNames(a, n, undefined, names, ctx);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind !== "var" || !b.init || b.path.length) return n;
    const url = urlQueryWrites(b.decl);
    if (url) return urlObjectNames(a, url, names, depth, ctx);
    const init = unwrapExpression(b.init);
    if (Node.isNewExpression(init)) return searchParamsNames(a, init, b.decl, names, ctx);
    // A `let` given other values later: each of them too.
    const w = writesOf(b.decl);
    if (w.other) return n;
    for (const v of [init, ...w.assigned, ...w.appended]) {
      const stop = collect(a, v, names, depth + 1, ctx);
      if (stop) return stop;
    }
    return undefined;
  }
  return n;
}

function isConcatenation(n: Node): boolean {
  return Node.isBinaryExpression(n) && n.getOperatorToken().getKind() === SyntaxKind.PlusToken;
}

type Item = { kind: "text"; text: string; node: Node; start: number | undefined } | { kind: "expr"; node: Node };

/** A template or `+` chain as literal text pieces and expressions, in order. */
function flatten(node: Node, out: Item[]): void {
  const n = unwrapExpression(node);
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) out.push(textItem(n, n.getLiteralValue(), n.getStart() + 1));
  else if (Node.isTemplateExpression(n)) {
    const head = n.getHead();
    out.push(textItem(head, head.getLiteralText(), head.getStart() + 1));
    for (const span of n.getTemplateSpans()) {
      out.push({ kind: "expr", node: span.getExpression() });
      const lit = span.getLiteral();
      out.push(textItem(lit, lit.getLiteralText(), lit.getStart() + 1));
    }
  } else if (isConcatenation(n)) {
    flatten((n as any).getLeft(), out);
    flatten((n as any).getRight(), out);
  } else out.push({ kind: "expr", node: n });
}

/** A literal piece; its text maps to source offsets only when written without escapes. */
function textItem(node: Node, text: string, start: number): Item {
  const source = node.getSourceFile().getFullText().slice(start, start + text.length);
  return { kind: "text", text, node, start: source === text ? start : undefined };
}

/**
 * Reads `?a=1&b=${v}` piece by piece: names in literal text are recorded where written, an
 * expression where a name starts is followed for the names it carries (`?${qs}`), one in a value
 * is a value. A name partly computed (`?${k}=1`, `filter_${x}=1`) stops the reading there.
 */
function sequence(a: Analysis, node: Node, names: QueryNames, depth: number, ctx: UrlContext | undefined): Node | undefined {
  const items: Item[] = [];
  flatten(node, items);
  let state: "name" | "value" | "fragment" = "name";
  let name = "";
  let nameStart: number | undefined;
  let nameNode: Node | undefined;
  const commit = (): Node | undefined => {
    if (name) {
      if (nameStart === undefined) return nameNode;
      named(names, name, { at: nameNode!, start: nameStart, end: nameStart + name.length });
    }
    name = "";
    return undefined;
  };
  for (const item of items) {
    if (item.kind === "expr") {
      if (state !== "name") continue;
      // A name running into an expression (`?filter_${x}=1`) is partly computed.
      if (name) return item.node;
      const stop = collect(a, item.node, names, depth + 1, ctx);
      if (stop) return stop;
      state = "value";
      continue;
    }
    for (let i = 0; i < item.text.length; i++) {
      const ch = item.text[i]!;
      if (state === "fragment") break;
      if (ch === "#") {
        const stop = commit();
        if (stop) return stop;
        state = "fragment";
      } else if (ch === "?" || ch === "&") {
        const stop = commit();
        if (stop) return stop;
        state = "name";
      } else if (state === "name" && ch === "=") {
        const stop = commit();
        if (stop) return stop;
        state = "value";
      } else if (state === "name") {
        if (!name) {
          nameNode = item.node;
          nameStart = item.start === undefined ? undefined : item.start + i;
        }
        name += ch;
      }
    }
  }
  return commit();
}

/** `url.searchParams.set("a", …)` and `url.search = …` of a URL object. */
function urlObjectNames(a: Analysis, url: NonNullable<ReturnType<typeof urlQueryWrites>>, names: QueryNames, depth: number, ctx: UrlContext | undefined): Node | undefined {
  if (url.other) return url.other;
  for (const call of url.sets) {
    const stop = keyOfSet(a, call, names, ctx);
    if (stop) return stop;
  }
  for (const s of url.searches) {
    const stop = collect(a, s, names, depth + 1, ctx);
    if (stop) return stop;
  }
  return undefined;
}

/**
 * `Object.keys(o).map(…).join("&")` / `Object.entries(o).map(…).join("&")` (a hand-written query
 * serialiser): the names are `o`'s keys (what the map makes of each pair is its own).
 */
function keysJoined(call: Node): Node | undefined {
  const join = Node.isCallExpression(call) ? call.getExpression() : undefined;
  if (!join || !Node.isPropertyAccessExpression(join) || join.getName() !== "join") return undefined;
  let inner = unwrapExpression(join.getExpression());
  // `.filter(…)` before or after the map leaves keys out, never adds one.
  for (;;) {
    const access = Node.isCallExpression(inner) ? inner.getExpression() : undefined;
    if (!access || !Node.isPropertyAccessExpression(access) || !["map", "filter"].includes(access.getName())) break;
    inner = unwrapExpression(access.getExpression());
  }
  const keys = Node.isCallExpression(inner) ? inner.getExpression().getText().replace(/\s/g, "") : "";
  return keys === "Object.keys" || keys === "Object.entries" ? (inner as any).getArguments()[0] : undefined;
}

/**
 * A name a loop takes from an object's keys (`url.searchParams.set(key, …)` in `for (const [key, value]
 * of Object.entries(query))`): that object's keys, or where they stop being read; false when the name
 * is no such loop's.
 */
function loopedKeys(a: Analysis, key: Node, names: QueryNames, ctx: UrlContext | undefined): Node | undefined | false {
  const object = loopedKeysOf(a, key);
  if (!object) return false;
  // A builder's parameter the call gives nothing: no names.
  if (ctx?.absent?.(unwrapExpression(object))) return undefined;
  return objectKeys(a, unwrapExpression(object), names, ctx);
}

/** The keys of an object literal (through a builder's argument); where one cannot be read, that node. */
function objectKeys(a: Analysis, written: Node, names: QueryNames, ctx: UrlContext | undefined): Node | undefined {
  const arg = ctx?.argumentFor?.(written) ?? written;
  const obj = objectLiteral(a, arg);
  if (!obj || !Node.isObjectLiteralExpression(obj)) return arg;
  for (const p of obj.getProperties()) {
    if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) return p;
    const key = p.getNameNode();
    if (Node.isComputedPropertyName(key)) return key;
    named(names, Node.isStringLiteral(key) ? key.getLiteralValue() : key.getText(), p);
  }
  return undefined;
}

/** `new URLSearchParams({ a, b })` (and, held in `decl`, its `.append("c", …)` / `.set("d", …)` calls). */
function searchParamsNames(a: Analysis, created: Node, decl: Node | undefined, names: QueryNames, ctx: UrlContext | undefined): Node | undefined {
  if (!Node.isNewExpression(created) || created.getExpression().getText() !== "URLSearchParams") return created;
  const [written] = created.getArguments();
  // A builder's parameter the call gives nothing: `new URLSearchParams(undefined)` is empty.
  const arg = written && ctx?.absent?.(written) ? undefined : written && (ctx?.argumentFor?.(written) ?? written);
  if (arg) {
    const obj = objectLiteral(a, arg);
    if (!obj || !Node.isObjectLiteralExpression(obj)) return Node.isStringLiteral(unwrapExpression(arg)) || Node.isTemplateExpression(unwrapExpression(arg)) ? sequence(a, arg, names, 0, ctx) : arg;
    const stop = objectKeys(a, obj, names, undefined);
    if (stop) return stop;
  }
  if (!decl) return undefined;
  const name = (decl as any).getNameNode?.() as Node | undefined;
  if (!name || !Node.isIdentifier(name)) return decl;
  for (const use of identifiersNamed(enclosingFunction(decl), name.getText())) {
    if (use === name || bind(a, use)?.decl !== decl) continue;
    const access = use.getParent();
    // Handed to another function, it may get names there.
    if (access && Node.isCallExpression(access) && access.getArguments().includes(use) && access.getExpression().getText() !== "String") return access;
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== use) continue;
    const call = access.getParent();
    if (!["append", "set"].includes(access.getName()) || !call || !Node.isCallExpression(call)) continue;
    const stop = keyOfSet(a, call, names, ctx);
    if (stop) return stop;
  }
  return undefined;
}

/** The name a `params.set(key, …)` / `.append(key, …)` writes, added to `names`; the node where knowledge stops, if it does. */
function keyOfSet(a: Analysis, call: Node, names: QueryNames, ctx: UrlContext | undefined): Node | undefined {
  const first = (call as any).getArguments()[0] as Node | undefined;
  const key = first && unwrapExpression(first);
  // Keys written by a loop over a known list: each of them, or where the list stops being known.
  const looped = key ? loopedKeys(a, key, names, ctx) : false;
  if (looped !== false) return looped || undefined;
  if (!key || !(Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key))) return first ?? call;
  named(names, key.getLiteralValue(), key);
  return undefined;
}
