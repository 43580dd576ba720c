// TanStack Query, a known convention of data fetching: the function given as `queryFn` (or
// `mutationFn`) is called by the library, which keeps what it resolves to and gives it back as the
// hook's `data` (`const { data } = useQuery(opts)`, `query.data`), through `select` when the
// options have one, to a mutation's `onSuccess(data)` / `mutate(vars, { onSuccess })` /
// `mutateAsync(vars)`, and from `queryClient.fetchQuery(opts)`. The options are followed from where
// they are written to the hook that takes them: through `queryOptions(…)`, variables, functions
// returning them (`podQueries.list(filters)`), a spread into the hook's own options, and custom
// hooks returning the hook's result. So a record returned by `queryFn` is read where `data` is.
// Where the value goes anywhere else (options handed to another function, the result handed on
// whole, `useInfiniteQuery`'s pages, the query cache read or written by a key that may be this
// query's) the answer names the place and why, and the caller marks the site.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { BodySite } from "./body-sites.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import { hookResultUses, type Left, type OtherMember } from "./hook-data.ts";
import { declarationsNamed, functionNamed } from "./record-callees.ts";

// React's (and Preact's) bindings: `data` is the value itself. Vue's is a ref (`data.value`), Svelte's
// a store, Angular's a signal (`data()`), read through more than the codemod follows here.
const MODULE = /^(@tanstack\/(react|preact)-query|@tanstack\/query-core|react-query)$/;
const QUERY_HOOKS = new Set(["useQuery", "useSuspenseQuery", "createQuery", "injectQuery"]);
const MUTATION_HOOKS = new Set(["useMutation", "createMutation", "injectMutation"]);
const PAGED_HOOKS = new Set(["useInfiniteQuery", "useSuspenseInfiniteQuery", "createInfiniteQuery", "injectInfiniteQuery", "infiniteQueryOptions", "useQueries", "useSuspenseQueries", "createQueries"]);
/** Identity helpers: their value is the options they are given. */
const OPTIONS = new Set(["queryOptions", "mutationOptions"]);
/** A query client's calls that answer the query's data (awaited). */
const CLIENT_DATA = new Set(["fetchQuery", "ensureQueryData"]);
/** A query client's calls that only fill the cache (read by the hooks sharing the key). */
const CLIENT_FILL = new Set(["prefetchQuery"]);
/** A query client's calls that read or write a cached entry's data by key (exact match). */
const CACHE_BY_KEY = new Set(["getQueryData", "setQueryData", "getQueryState"]);
/** The same by filters (prefix match: any key under them). */
const CACHE_BY_FILTER = new Set(["getQueriesData", "setQueriesData"]);
/** A query result's members that are not its data (or answer nothing of it). */
const STATUS_MEMBERS = new Set(["error", "isError", "isPending", "isLoading", "isFetching", "isSuccess", "isIdle", "status", "fetchStatus", "failureCount", "failureReason", "isStale", "isRefetching", "isPaused", "isPlaceholderData", "dataUpdatedAt", "errorUpdatedAt", "variables", "reset", "submittedAt", "isLoadingError", "isRefetchError", "isFetched", "isFetchedAfterMount", "isInitialLoading", "context"]);

export type QueryResult = { reads: BodySite[] } | { leaves: Node; why: string };

/** The name a TanStack Query module exports that an expression calls (`useQuery`, `queryOptions`), or a query client method's (`qc.fetchQuery`). */
function queryName(a: Analysis, callee: Node): string | undefined {
  const n = unwrapExpression(callee);
  if (Node.isPropertyAccessExpression(n)) {
    const name = n.getName();
    return CLIENT_DATA.has(name) || CLIENT_FILL.has(name) || CACHE_BY_KEY.has(name) || CACHE_BY_FILTER.has(name) ? `client.${name}` : undefined;
  }
  if (!Node.isIdentifier(n)) return undefined;
  const b = bind(a, n);
  return b?.kind === "import" && MODULE.test(b.module) ? b.name : undefined;
}

function importsQuery(file: Node): boolean {
  return file.getSourceFile().getImportDeclarations().some((d) => MODULE.test(d.getModuleSpecifierValue()));
}

/** `{ key: value }` or `{ key }` of an object literal: the value node. */
function propertyValue(obj: Node, key: string): Node | undefined {
  if (!Node.isObjectLiteralExpression(obj)) return undefined;
  const p = obj.getProperty(key);
  if (p && Node.isPropertyAssignment(p)) return p.getInitializer();
  if (p && Node.isShorthandPropertyAssignment(p)) return p.getNameNode();
  if (p && Node.isMethodDeclaration(p)) return p;
  return undefined;
}

const isInline = (n: Node | undefined): n is Node => !!n && (Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isMethodDeclaration(n));

/** What the options objects along the way hold: the keys and the `select`s, and where the value went out of sight. */
interface Walk {
  a: Analysis;
  objects: Node[];
  reads: BodySite[];
  /** The hooks (and query client calls answering the data) the options reach, with the objects along the way. */
  hooks: { call: Node; objects: Node[]; client?: boolean }[];
  leaves?: Left;
}

const here = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;

function leave(w: Walk, node: Node, why: string): void {
  w.leaves ??= { node, why: `${why} (${here(node)})` };
}

/**
 * Where the value of `fn` (a function of the project) goes when it is an options object's
 * `queryFn`, `mutationFn` or `select`: the reads of the value there, or where it leaves sight;
 * undefined when `fn` is no such function (the caller's own rule applies).
 */
export function queryFunctionResult(a: Analysis, fn: Node): QueryResult | undefined {
  const holder = fn.getParent();
  let name: string | undefined;
  let obj: Node | undefined;
  if (Node.isMethodDeclaration(fn)) [name, obj] = [fn.getName(), fn.getParent()];
  else if (holder && Node.isPropertyAssignment(holder) && holder.getInitializer() === fn) [name, obj] = [holder.getName(), holder.getParent()];
  if (!name || !["queryFn", "mutationFn", "select"].includes(name) || !obj || !Node.isObjectLiteralExpression(obj) || !importsQuery(obj)) return undefined;
  const w: Walk = { a, objects: [obj], reads: [], hooks: [] };
  optionsGo(w, obj, 0);
  if (w.leaves) return { leaves: w.leaves.node, why: w.leaves.why };
  for (const h of w.hooks) {
    const selects = h.objects.map((o) => propertyValue(o, "select")).filter((s): s is Node => !!s);
    // The later object's keys win (`{ ...opts, select }`); the value enters the select that runs.
    const select = selects[selects.length - 1];
    if (name === "queryFn" && select) {
      if (!isInline(select)) return { leaves: select, why: `select: is given a function the codemod does not read (${here(select)})` };
      const param = (select as any).getParameters()[0] as Node | undefined;
      if (param) w.reads.push({ kind: "binding", node: param, param });
      continue;
    }
    // A select of an earlier object overridden by a later one never runs.
    if (name === "select" && select !== fn) continue;
    for (const o of h.objects) {
      const seed = propertyValue(o, "initialData") ?? propertyValue(o, "placeholderData");
      if (seed && !emptySeed(seed)) return { leaves: seed, why: `the query's data may also be the ${seed.getParent()?.getText().split(":")[0]?.trim()} the app writes (${here(seed)})` };
    }
    const conflict = name !== "mutationFn" ? cacheConflict(a, h) : undefined;
    if (conflict) return { leaves: conflict, why: `the query cache is read or written by a key that may be this query's, where the record is not followed (${here(conflict)}: ${conflict.getText().replace(/\s+/g, " ").slice(0, 60)})` };
    // `await queryClient.fetchQuery(opts)`: the data (this queryFn's, or the cache's under the same key).
    if (h.client) w.reads.push({ kind: "promise", node: h.call });
    else {
      const uses = hookResultUses(h.call, otherMember(name === "mutationFn" ? "mutation" : "query"));
      w.reads.push(...uses.reads);
      w.leaves ??= uses.leaves;
    }
    if (name === "mutationFn") {
      for (const o of h.objects) {
        const got = callbackData(propertyValue(o, "onSuccess"), propertyValue(o, "onSettled"));
        if (Array.isArray(got)) w.reads.push(...got);
        else w.leaves ??= got;
      }
    }
    const left = w.leaves as Walk["leaves"];
    if (left) return { leaves: left.node, why: left.why };
  }
  return { reads: w.reads };
}

/** `initialData: []`, `placeholderData: keepPreviousData`: nothing of the app's own shape. */
function emptySeed(seed: Node): boolean {
  const u = unwrapExpression(seed);
  return (Node.isArrayLiteralExpression(u) && !u.getElements().length) || u.getText() === "undefined" || Node.isNullLiteral(u) || /^keepPreviousData$/.test(u.getText()) || (Node.isArrowFunction(u) && /^\(?\s*(\w+)\s*\)?\s*=>\s*\1$/.test(u.getText()));
}

/** The options value at `value`: where it goes until a hook (or client call) takes it. */
function optionsGo(w: Walk, value: Node, depth: number): void {
  if (w.leaves) return;
  if (depth > 4) return leave(w, value, "the options are passed on further than the codemod follows");
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isCallExpression(p) && p.getArguments()[0] === outer) {
    const name = queryName(w.a, p.getExpression());
    if (name && OPTIONS.has(name)) return optionsGo(w, p, depth + 1);
    if (name && (QUERY_HOOKS.has(name) || MUTATION_HOOKS.has(name))) return void w.hooks.push({ call: p, objects: [...w.objects] });
    if (name && PAGED_HOOKS.has(name)) return leave(w, p, `${name}'s data is not the answer itself (pages or one result per query), which the codemod does not follow`);
    if (name === "client.fetchQuery" || name === "client.ensureQueryData") return void w.hooks.push({ call: p, objects: [...w.objects], client: true });
    if (name === "client.prefetchQuery") return;
  }
  const to = returnedTo(outer);
  if (to === "escapes") return leave(w, outer, "the query options are returned to code the codemod does not follow");
  if (to) {
    for (const c of to) optionsGo(w, c, depth + 1);
    return;
  }
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer && Node.isIdentifier(p.getNameNode())) {
    for (const r of referencesOf(enclosingFunction(p), p.getNameNode())) {
      const rp = r.getParent();
      // `opts.queryKey`: reading a key sends nothing on.
      if (rp && Node.isPropertyAccessExpression(rp) && rp.getExpression() === r && !["queryFn", "mutationFn", "select"].includes(rp.getName())) continue;
      optionsGo(w, r, depth + 1);
    }
    return;
  }
  // `useQuery({ ...podQueries.detail(id), select })`: the hook takes the object spread into.
  if (Node.isSpreadAssignment(p)) {
    const into = p.getParent();
    w.objects.push(into);
    return optionsGo(w, into, depth + 1);
  }
  return leave(w, outer, `the query options are handed to ${Node.isCallExpression(p) ? `${p.getExpression().getText().slice(0, 40)}(…)` : "code"} the codemod does not follow`);
}

/** A member of a query's or mutation's result other than `data`: `mutate` / `mutateAsync` / `refetch` calls; status members read nothing of the data. */
function otherMember(kind: "query" | "mutation"): OtherMember {
  return (node, name) => {
    if (STATUS_MEMBERS.has(name)) return undefined;
    if (name !== "mutate" && name !== "mutateAsync" && name !== "refetch") return { node, why: `the ${kind} result's ${name} is not followed (${here(node)})` };
    const call = node.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== node) return { node, why: `${name} is passed on, where its callbacks are not followed (${here(node)})` };
    if (name === "refetch") return { node: call, why: `refetch() answers the query result again, which the codemod does not follow (${here(call)})` };
    if (name === "mutateAsync") return [{ kind: "promise", node: call }];
    const opts = call.getArguments()[1];
    if (!opts) return [];
    const o = unwrapExpression(opts);
    if (!Node.isObjectLiteralExpression(o)) return { node: opts, why: `mutate is given callbacks the codemod does not read (${here(opts)})` };
    return callbackData(propertyValue(o, "onSuccess"), propertyValue(o, "onSettled"));
  };
}

/** `onSuccess(data, …)`, `onSettled(data, error, …)`: their first parameter holds the value. */
function callbackData(...callbacks: (Node | undefined)[]): BodySite[] | Left {
  const out: BodySite[] = [];
  for (const cb of callbacks) {
    if (!cb) continue;
    if (!isInline(cb)) return { node: cb, why: `a mutation callback the codemod does not read takes the answer (${here(cb)})` };
    const param = (cb as any).getParameters()[0] as Node | undefined;
    if (param) out.push({ kind: "binding", node: param, param });
  }
  return out;
}

/**
 * A call of the run that reads or writes the query cache's data by a key that may be this hook's
 * (or a query hook given no `queryFn`, reading what another filled): the first one, else undefined.
 * Keys are compared element by element where both are known (`podKeys.detail(id)` read through the
 * project's key factories: `["pods", "detail", ·]`); a key not known may be any.
 */
function cacheConflict(a: Analysis, hook: Walk["hooks"][number]): Node | undefined {
  const keyNode = hook.objects.map((o) => propertyValue(o, "queryKey")).find((k) => !!k);
  const mine = keyNode && keyElements(a, keyNode, 0);
  for (const c of cacheCalls(a)) {
    // The hook itself, or another hook running the same queryFn.
    if (c.call === hook.call || (c.fn && hook.objects.some((o) => propertyValue(o, "queryFn") === c.fn))) continue;
    if (!c.key || c.prefix || !mine) return c.call;
    const theirs = keyElements(a, c.key, 0);
    if (!theirs || mayEqual(mine, theirs)) return c.call;
  }
  return undefined;
}

/**
 * The run's other users of the cache entry of the query whose `queryFn` makes `call` (undefined
 * when it is no such call): queries running their own `queryFn` and writes of data (`setQueryData`,
 * `setQueriesData`) by a key that may be this query's, each with what it writes.
 */
export function sharersOfQuery(a: Analysis, call: Node): { call: Node; fn?: Node; data?: Node }[] | undefined {
  const fn = call.getFirstAncestor((n) => {
    const p = n.getParent();
    return isInline(n) && !!p && Node.isPropertyAssignment(p) && p.getName() === "queryFn" && p.getInitializer() === n;
  });
  const obj = fn?.getParent()?.getParent();
  if (!fn || !obj || !Node.isObjectLiteralExpression(obj) || !importsQuery(obj.getSourceFile())) return undefined;
  const keyNode = propertyValue(obj, "queryKey");
  const mine = keyNode && keyElements(a, keyNode, 0);
  const out: { call: Node; fn?: Node; data?: Node }[] = [];
  for (const c of cacheCalls(a)) {
    if (c.fn === fn || c.call.getFirstAncestor((n) => n === obj) || obj.getFirstAncestor((n) => n === c.call)) continue;
    const m = queryName(a, (c.call as Node & { getExpression(): Node }).getExpression());
    const writes = m === "client.setQueryData" || m === "client.setQueriesData";
    if (!c.fn && !writes) continue;
    const theirs = c.key && !c.prefix ? keyElements(a, c.key, 0) : undefined;
    if (mine && theirs && !mayEqual(mine, theirs)) continue;
    out.push({ call: c.call, fn: c.fn, data: writes ? (c.call as Node & { getArguments(): Node[] }).getArguments()[1] : undefined });
  }
  return out;
}

/** A key's elements: a literal's text, or null for a value not known here. */
type KeyElements = (string | null)[];

function mayEqual(x: KeyElements, y: KeyElements): boolean {
  return x.length === y.length && x.every((e, i) => e === null || y[i] === null || e === y[i]);
}

/** The elements of a key array (through spreads, the project's key factories and constants), undefined where its length is not known. */
function keyElements(a: Analysis, key: Node, depth: number): KeyElements | undefined {
  // (Factories build keys on each other: `detail(id)` on `details()` on `all`.)
  if (depth > 12) return undefined;
  const u = unwrapExpression(key);
  if (Node.isArrayLiteralExpression(u)) {
    const out: KeyElements = [];
    for (const e of u.getElements()) {
      if (Node.isSpreadElement(e)) {
        const inner = keyElements(a, e.getExpression(), depth + 1);
        if (!inner) return undefined;
        out.push(...inner);
      } else out.push(Node.isStringLiteral(e) || Node.isNoSubstitutionTemplateLiteral(e) ? e.getLiteralText() : null);
    }
    return out;
  }
  if (Node.isCallExpression(u)) {
    const fn = functionNamed(a, u.getExpression()) ?? named(u.getExpression());
    const body = fn && Node.isArrowFunction(fn) ? fn.getBody() : undefined;
    return body && !Node.isBlock(body) ? keyElements(a, body, depth + 1) : undefined;
  }
  const init = named(u);
  return init ? keyElements(a, init, depth + 1) : undefined;
}

/**
 * The value a name or a member of a const object names (`podKeys.detail`), read from the object
 * literal where the checker has no type for it (a key factory referring to itself is `any`).
 */
function named(e: Node): Node | undefined {
  const u = unwrapExpression(e);
  if (!Node.isIdentifier(u) && !Node.isPropertyAccessExpression(u)) return undefined;
  const decls = declarationsNamed(u);
  const d = decls.length === 1 ? decls[0]! : undefined;
  if (d && (Node.isVariableDeclaration(d) || Node.isPropertyAssignment(d))) return d.getInitializer();
  if (d || !Node.isPropertyAccessExpression(u)) return undefined;
  const holder = named(u.getExpression());
  return holder && propertyValue(unwrapExpression(holder), u.getName());
}

/** A call reading or writing cached data: its key (none: not known), whether it matches by prefix, the queryFn it runs itself. */
type CacheCall = { call: Node; key?: Node; prefix?: boolean; fn?: Node };

const cacheMemo = new WeakMap<Analysis, CacheCall[]>();

/** The run's calls reading or writing cached data by key, and its query hooks given no `queryFn`. */
function cacheCalls(a: Analysis): CacheCall[] {
  let found = cacheMemo.get(a);
  if (found) return found;
  found = [];
  for (const file of a.files.values()) {
    if (!importsQuery(file.sf) && !/\b(get|set)Quer(y|ies)Data\b/.test(file.sf.getFullText())) continue;
    for (const call of file.sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const name = queryName(a, call.getExpression());
      if (!name) continue;
      const first = call.getArguments()[0];
      const m = name.startsWith("client.") ? name.slice(7) : undefined;
      if (m && CACHE_BY_KEY.has(m)) found.push({ call, key: first });
      else if (m && CACHE_BY_FILTER.has(m)) found.push({ call, prefix: true });
      else if (QUERY_HOOKS.has(name) || (m && (CLIENT_DATA.has(m) || CLIENT_FILL.has(m)))) {
        const o = first && unwrapExpression(first);
        // A literal without queryFn (nor a spread that may bring one) reads what the cache holds; one
        // with its own queryFn shares the entry of any query under the same key.
        if (o && Node.isObjectLiteralExpression(o) && !o.getProperties().some((x) => Node.isSpreadAssignment(x))) found.push({ call, key: propertyValue(o, "queryKey"), fn: propertyValue(o, "queryFn") });
      }
    }
  }
  cacheMemo.set(a, found);
  return found;
}
