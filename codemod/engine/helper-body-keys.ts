// Which keys of a request helper's options argument become the request body, read from the body
// expression the helper gives its transport: `body: json !== undefined ? JSON.stringify(json) :
// rest.body` after `const { json, ...rest } = init` takes `json` (serialised by the helper) and
// `body` (passed as it is). A call passing its body under one of those keys is read there, so
// its v1 body is converted (or marked), never left behind while the URL moves to v2. Likewise the
// keys the helper puts in its URL after the path (`${q(path, opts.query)}`,
// `"?" + new URLSearchParams(opts.query)`): a call's query parameters are read there.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind, objectLiteral, prop } from "./values.ts";
import type { HttpCall } from "./transports/transport.ts";
import { enclosingFunction, writesOf } from "./scope.ts";
import { urlQueryWrites } from "./url-object.ts";
import { isQueryHole } from "./query-holes.ts";
import { queryFlow } from "./query-flow.ts";
import { unwrapExpression, type UrlContext } from "./urls.ts";

export interface BodyKey {
  key: string;
  /** The helper serialises what the call passes under this key (callers pass plain objects). */
  serialised: boolean;
}

/** The option keys the body expression reads from parameter `index` of `fn`. */
export function bodyOptionKeys(a: Analysis, fn: Node, index: number, body: Node): BodyKey[] {
  const keys = new Map<string, boolean>();
  const nodes = [body, ...body.getDescendants()];
  for (const n of nodes) {
    const key = optionKeyAt(a, fn, index, n);
    if (!key) continue;
    const serialised = n.getAncestors().some((x) => Node.isCallExpression(x) && x.getExpression().getText() === "JSON.stringify" && x.getPos() >= body.getPos() && x.getEnd() <= body.getEnd());
    keys.set(key, (keys.get(key) ?? false) || serialised);
  }
  return [...keys].map(([key, serialised]) => ({ key, serialised }));
}

/** The option keys read from parameter `index` of `fn` anywhere in `nodes` (the URL's holes after its path). */
export function queryOptionKeys(a: Analysis, fn: Node, index: number, nodes: Node[]): string[] {
  return [...new Set(queryExpressions(a, fn, nodes).flatMap((n) => bodyOptionKeys(a, fn, index, n).map((k) => k.key)))];
}

/**
 * The parameter of `fn` (other than `excluded`) that its query holes serialise whole
 * (`?${new URLSearchParams(query)}` in `request(method, path, query)`), when there is one.
 */
export function queryParamIndex(a: Analysis, fn: Node, nodes: Node[], excluded: (number | undefined)[]): number | undefined {
  const found = new Set<number>();
  for (const n of queryExpressions(a, fn, nodes)) {
    for (const id of [n, ...n.getDescendantsOfKind(SyntaxKind.Identifier)]) {
      const b = Node.isIdentifier(id) ? bind(a, id) : undefined;
      if (b?.kind === "param" && b.fn === fn && b.path.length === 0 && !excluded.includes(b.index)) found.add(b.index);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * Where the helper's own query (one no caller gives) stops being followed to its names, if it does.
 * A hole inside a URL builder the helper calls (`this.buildURL(path, opts.query)`) is read with the
 * builder's parameters standing for the helper's arguments, so following can stop at `opts.query`.
 */
export function unfollowedQuery(a: Analysis, holes: { node: Node; ctx?: UrlContext }[]): Node | undefined {
  for (const h of holes) {
    if (!isQueryHole(a, h.node, h.ctx)) continue;
    const flow = queryFlow(a, h.node, h.ctx);
    if ("stop" in flow) return flow.stop;
  }
  return undefined;
}

/**
 * The option key of parameter `index` whose object is the helper's query, whole: where its names stop
 * being followed is that key itself (`opts.query` of `this.buildURL(path, opts.query)`, which sets each
 * of the object's keys on the URL). Each call's object there is its query, read at the call.
 */
export function wholeQueryOptionKey(a: Analysis, fn: Node, index: number, stop: Node): string | undefined {
  return optionKeyAt(a, fn, index, unwrapExpression(stop));
}

/**
 * The parameters of `fn` an unfollowed query name is read from (`k` of `for (const [k, v] of
 * Object.entries(opts.query ?? {}))` is read from `opts`), through the helper's own names. Empty
 * when it reads none (the helper's own constants, or a name read who knows where).
 */
export function queryParamsReaching(a: Analysis, fn: Node, stop: Node): number[] {
  const found = new Set<number>();
  const seen = new Set<Node>();
  const visit = (n: Node, depth: number) => {
    if (seen.has(n) || depth > 5) return;
    seen.add(n);
    for (const id of [n, ...n.getDescendantsOfKind(SyntaxKind.Identifier)]) {
      const b = Node.isIdentifier(id) ? bind(a, id) : undefined;
      if (b?.kind === "param" && b.fn === fn) found.add(b.index);
      if (b?.kind !== "var" || enclosingFunction(b.decl) !== fn) continue;
      if (b.init) visit(b.init, depth + 1);
      // `for (const [k, v] of Object.entries(opts.query ?? {}))`: the names come from what it iterates.
      const loop = b.decl.getFirstAncestorByKind(SyntaxKind.ForOfStatement) ?? b.decl.getFirstAncestorByKind(SyntaxKind.ForInStatement);
      if (loop && loop.getInitializer().getPos() <= b.decl.getPos() && b.decl.getEnd() <= loop.getInitializer().getEnd()) visit(loop.getExpression(), depth + 1);
    }
  };
  visit(stop, 0);
  return [...found];
}

/**
 * What a query hole is made of inside the helper: the hole, and by value the initializers and
 * later writes of the helper's own names it reads (`qs` of `qs ? \`?${qs}\` : ""` is
 * `new URLSearchParams(opts.query).toString()`), a URL object's `searchParams.set(…)` and `search = …`.
 */
function queryExpressions(a: Analysis, fn: Node, holes: Node[]): Node[] {
  const out: Node[] = [];
  const visit = (n: Node, depth: number) => {
    if (out.includes(n) || depth > 5) return;
    out.push(n);
    for (const id of [n, ...n.getDescendantsOfKind(SyntaxKind.Identifier)]) {
      const b = Node.isIdentifier(id) ? bind(a, id) : undefined;
      if (b?.kind !== "var" || !b.init || enclosingFunction(b.decl) !== fn) continue;
      const url = urlQueryWrites(b.decl);
      const w = writesOf(b.decl);
      for (const x of [b.init, ...(url ? [...url.sets, ...url.searches] : []), ...w.assigned, ...w.appended]) visit(x, depth + 1);
    }
  };
  for (const h of holes) visit(h, 0);
  return out;
}

/** `init.json`, a destructured `{ json }` of the parameter, or `rest.body` of `const { …, ...rest } = init`. */
function optionKeyAt(a: Analysis, fn: Node, index: number, n: Node): string | undefined {
  const isParam = (id: Node) => {
    const b = Node.isIdentifier(id) ? bind(a, id) : undefined;
    if (b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 0) return true;
    // `const rest = init` / `const { ...rest } = init ?? {}`: the options object again.
    if (b?.kind === "var" && b.init && (b.path.length === 0 || (b.path.length === 1 && b.path[0] === "..."))) {
      const init = b.init.getKind() === SyntaxKind.BinaryExpression ? (b.init as any).getLeft() : b.init;
      const ib = Node.isIdentifier(init) ? bind(a, init) : undefined;
      return ib?.kind === "param" && ib.fn === fn && ib.index === index && ib.path.length === 0;
    }
    return false;
  };
  if (Node.isPropertyAccessExpression(n) && isParam(n.getExpression())) return n.getName();
  if (!Node.isIdentifier(n) || (n.getParent() && Node.isPropertyAccessExpression(n.getParent()!) && (n.getParent() as any).getNameNode?.() === n)) return undefined;
  const b = bind(a, n);
  if (b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 1) return b.path[0];
  if (b?.kind === "var" && b.init && b.path.length === 1 && b.path[0] !== "...") {
    const init = b.init.getKind() === SyntaxKind.BinaryExpression ? (b.init as any).getLeft() : b.init;
    const ib = Node.isIdentifier(init) ? bind(a, init) : undefined;
    if (ib?.kind === "param" && ib.fn === fn && ib.index === index && ib.path.length === 0) return b.path[0];
  }
  return undefined;
}

/**
 * A body the helper builds around one of its parameters without passing it on as it is
 * (`{ ...data, source: "app" }`, `{ payload: data }`): the caller's v1 body ends up inside
 * something the codemod cannot convert, so such calls are marked. The body expression, shortened.
 */
export function bodyBuiltFromParam(a: Analysis, fn: Node, body: Node): Node | undefined {
  const fromParam = (n: Node) => {
    const b = Node.isIdentifier(n) ? bind(a, n) : undefined;
    return b?.kind === "param" && b.fn === fn;
  };
  return fromParam(body) || body.getDescendants().some(fromParam) ? body : undefined;
}

/** Where a library takes a request's query in its options. */
const QUERY_OPTION: Record<string, string[]> = { axios: ["params"], convention: ["params", "searchParams", "query"], got: ["searchParams"], ky: ["searchParams"] };

/**
 * The helper's parameter its transport takes whole as the request's query (`this.http.get(path, {
 * params })`, `{ searchParams: query }`): each call's argument there is its query.
 */
export function transportQueryParam(a: Analysis, fn: Node, http: HttpCall): number | undefined {
  const keys = QUERY_OPTION[http.lib];
  const opts = keys && http.options ? objectLiteral(a, http.options) : undefined;
  if (!opts || !Node.isObjectLiteralExpression(opts)) return undefined;
  for (const key of keys!) {
    const value = prop(opts, key);
    const b = value && Node.isIdentifier(value) ? bind(a, value) : undefined;
    if (b?.kind === "param" && b.fn === fn && b.path.length === 0) return b.index;
  }
  return undefined;
}

/**
 * Options a helper hands on to an inner helper's options argument, whole (`methodRequest("post",
 * path, opts)`) or spread into its literal (`request({ method, path, ...opts })`) with no body key
 * written after them: the inner helper's body keys are theirs, so a call's body goes there too.
 */
export function handedOnBodyKeys(a: Analysis, fn: Node, http: HttpCall): { index: number; keys: BodyKey[] } | undefined {
  const inner = http.lib === "helper" ? http.helper : undefined;
  const keys = inner && (inner.bodyKeys ?? (inner.bodyKey ? [{ key: inner.bodyKey, serialised: inner.serialisesBody }] : undefined));
  if (!keys?.length) return undefined;
  const index = handedOnIndex(a, fn, http, keys.map((k) => k.key));
  return index === undefined ? undefined : { index, keys };
}

/**
 * Likewise the inner helper's query keys (`request` puts `options.query` into its URL): a call's
 * query handed on in the options reaches the URL there, so it is read at the call.
 */
export function handedOnQueryKeys(a: Analysis, fn: Node, http: HttpCall): { index: number; keys: string[] } | undefined {
  const keys = http.lib === "helper" ? http.helper!.queryKeys : undefined;
  if (!keys?.length) return undefined;
  const index = handedOnIndex(a, fn, http, keys);
  return index === undefined ? undefined : { index, keys };
}

/** The parameter of `fn` handed on as the inner helper's options, whatever keys are written after it. */
export function handedOnOptionsIndex(a: Analysis, fn: Node, http: HttpCall): number | undefined {
  return handedOnIndex(a, fn, http, []);
}

/** The parameter of `fn` handed on as the inner helper's options, when none of `keys` is written after it. */
function handedOnIndex(a: Analysis, fn: Node, http: HttpCall, keys: string[]): number | undefined {
  const inner = http.lib === "helper" ? http.helper : undefined;
  if (!inner || inner.optionsIndex === undefined) return undefined;
  const arg = http.call.getArguments()[inner.optionsIndex];
  if (!arg) return undefined;
  const paramAt = (n: Node) => {
    const u = unwrapExpression(n);
    const b = Node.isIdentifier(u) ? bind(a, u) : undefined;
    return b?.kind === "param" && b.fn === fn && b.path.length === 0 ? b.index : undefined;
  };
  const whole = paramAt(arg);
  if (whole !== undefined) return whole;
  const u = unwrapExpression(arg);
  if (!Node.isObjectLiteralExpression(u)) return undefined;
  const props = u.getProperties();
  const at = props.findIndex((p) => Node.isSpreadAssignment(p) && paramAt(p.getExpression()) !== undefined);
  if (at < 0) return undefined;
  // `{ ...opts, body: x }`: the helper's own body replaces the caller's.
  const replaced = props.slice(at + 1).some((p) => Node.isSpreadAssignment(p) || ((Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && keys.includes(p.getName())));
  return replaced ? undefined : paramAt((props[at] as any).getExpression());
}
