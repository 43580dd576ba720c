// A marked SWR hook over a request helper (`useSWR("/pods", fetcher)`): SWR calls the fetcher with the
// key alone, so no base argument can be added at the call. The hook is given a fetcher bound to the
// v1 base instead (`(url: string) => fetcher(url, RUNPOD_V1_BASE)`, the helper gaining its base
// parameter as for any kept call), and its key stays as written: cache calls naming it (`mutate`,
// `useSWRMutation`, filters) still match. Sound only while the cache entry under that key holds v1
// records alone: no other hook that moves to v2 may share the key, and what the run writes into the
// entry (a `mutate` with data or an updater adding records, the hook's bound `mutate`, a mutation
// hook populating the cache) must come from calls that stay v1. Otherwise the base stays v1, and
// the mark says which of these blocks it.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis, Site } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { unwrapExpression } from "./urls.ts";
import { bind } from "./values.ts";
import { isFunctionLike } from "./scope.ts";
import { replaceNode } from "./text-edit.ts";
import { isTypeScriptFile } from "./nodes.ts";
import { helperBaseTail } from "./helper-redirect.ts";
import { cacheCalls, keyForms } from "./swr-cache-keys.ts";
import { hookResultUses } from "./hook-data.ts";
import type { Redirect } from "./v1-redirect.ts";

const here = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;

/** The hook's fetcher argument replaced by one bound to the v1 base; or why it cannot be. */
export function swrFetcherRedirect(a: Analysis, http: HttpCall): Redirect | { why: string } {
  const hook = http.hook!;
  const said = `${hook.fetcher.getText().slice(0, 30)}`;
  if (hook.global) return { why: `the hook runs the fetcher <SWRConfig> gives, which cannot be bound to a v1 base for this hook alone` };
  const f = unwrapExpression(hook.fetcher);
  if (!Node.isIdentifier(f) && !Node.isPropertyAccessExpression(f)) return { why: `useSWR(…) calls its fetcher ${said}, written in place, with the key alone, so a base of its own cannot be given` };
  const fn = http.helper?.fn as Node | undefined;
  const anchor = fn && a.helperAnchors.get(fn);
  const tail = anchor && helperBaseTail(fn!, anchor.node, anchor.value, 1);
  if (!tail) return { why: `useSWR(…) calls its fetcher ${said} with the key alone, and its base is not one the fetcher can be given in a parameter` };
  const ts = isTypeScriptFile(hook.fetcher.getSourceFile().getFilePath());
  return { edits: [replaceNode(hook.fetcher, `(url${ts ? ": string" : ""}) => ${f.getText()}(url, ${tail.tail})`)], names: tail.names, shared: tail.shared };
}

/**
 * Why the kept hook's cache entry may come to hold records other than its own v1 ones (undefined
 * when it cannot), read once every site of the run is known.
 */
export function swrKeptEntryWhy(a: Analysis, site: Site): string | undefined {
  const hook = site.http?.hook;
  if (!hook || site.http!.lib !== "helper") return undefined;
  const forms = keyForms(a, hook.key);
  // Another hook under the same key that moves to v2: one entry, two shapes.
  for (const other of a.sites) {
    const h = other.http?.hook;
    if (other === site || !h || (other.finding && !other.complete)) continue;
    if (keyForms(a, h.key).some((o) => forms.some((m) => mayEqual(o.form, m.form)))) return `its cache key is also the key of the hook at ${here(other.call)}, which moves to v2: one cache entry would hold v1 and v2 records`;
  }
  // What the run's cache calls write into the entry: `mutate(key, data | updater, { optimisticData })`, a filter's writes.
  for (const c of cacheCalls(a)) {
    const filter = isFunctionLike(unwrapExpression(c.key));
    if (!filter && !keyForms(a, c.key).some((o) => forms.some((m) => mayEqual(o.form, m.form)))) continue;
    const name = (unwrapExpression(c.call.getExpression()) as Node).getText();
    if (/populateCache/.test(c.call.getArguments().slice(1).map((w) => w.getText()).join(" "))) return `${name}(…) at ${here(c.call)} puts its answer into the hook's cached data`;
    const foreign = writtenBy(c.write, c.write && c.call.getArguments()[2]).map((w) => foreignValue(a, w)).find(Boolean);
    if (foreign) return `the cache write at ${here(c.call)} puts ${foreign} into its cached data, which is not the answer of a call that stays v1`;
  }
  // Data the hook starts from: its own `fallbackData`, an `<SWRConfig>`'s `fallback` (keyed at run time).
  const options = (site.call as Node & { getArguments(): Node[] }).getArguments?.()[2];
  const o = options && unwrapExpression(options);
  const seed = o && Node.isObjectLiteralExpression(o) ? o.getProperty("fallbackData") : undefined;
  const seeded = seed && Node.isPropertyAssignment(seed) ? foreignValue(a, seed.getInitializer()!) : seed ? seed.getText() : undefined;
  if (seeded) return `its fallbackData (${here(seed!)}) starts it from ${seeded}, which is not the answer of a call that stays v1`;
  const fallback = swrConfigFallback(a);
  if (fallback) return `<SWRConfig> gives fallback data (${here(fallback)}) that may be under its key, which the codemod does not check against its v1 records`;
  // The hook's own bound `mutate`, wherever its result goes.
  const uses = hookResultUses(site.call, (node, member) => {
    if (member !== "mutate") return undefined;
    const call = node.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== node) return { node, why: `the hook's bound mutate is handed on (${here(node)})` };
    const [data, options] = call.getArguments();
    const foreign = writtenBy(data, options).map((w) => foreignValue(a, w)).find(Boolean);
    return foreign ? { node, why: `its bound mutate at ${here(call)} puts ${foreign} into its cached data, which is not the answer of a call that stays v1` } : undefined;
  });
  return uses.leaves?.why;
}

/** Two key forms (`\0` for a part known at run time) that may be the same key when the hook runs. */
function mayEqual(x: string, y: string): boolean {
  if (x === y) return true;
  const pattern = (f: string) => new RegExp(`^${f.split("\0").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^]*")}$`);
  return pattern(x).test(y.replace(/\0/g, "")) || pattern(y).test(x.replace(/\0/g, ""));
}

/** Array methods whose answer keeps the receiver's records (the callback only tests them). */
const KEEPS = new Set(["filter", "sort", "slice", "reverse", "toSorted", "toReversed", "find", "findLast", "at"]);

/**
 * What is written into the entry that is not the answer of a call staying v1 (a const holding such a
 * call's awaited result), the entry's own value (an updater's parameter), or a record the code
 * writes out in place; undefined when everything written is one of those.
 */
export function foreignValue(a: Analysis, written: Node, own: Set<string> = new Set(), depth = 0): string | undefined {
  const n = unwrapExpression(written);
  const text = n.getText().slice(0, 30);
  if (depth > 8) return text;
  const sub = (x: Node, names = own) => foreignValue(a, x, names, depth + 1);
  if (isFunctionLike(n)) {
    // An updater: what it returns is written; its parameters hold the entry's own value.
    const names = new Set(own);
    for (const p of (n as Node & { getParameters(): Node[] }).getParameters()) for (const id of [p, ...p.getDescendants()].filter(Node.isIdentifier)) names.add(id.getText());
    const body = (n as Node & { getBody(): Node | undefined }).getBody();
    if (!body) return undefined;
    const returned = Node.isBlock(body) ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor(isFunctionLike) === n).map((r) => r.getExpression()).filter((e): e is NonNullable<typeof e> => !!e) : [body];
    return returned.map((r) => sub(r, names)).find(Boolean);
  }
  if (Node.isIdentifier(n)) return own.has(n.getText()) || n.getText() === "undefined" || keptAnswer(a, n) ? undefined : text;
  if (Node.isLiteralExpression(n) || Node.isNoSubstitutionTemplateLiteral(n) || Node.isTemplateExpression(n) || ["null", "true", "false"].includes(n.getText())) return undefined;
  if (Node.isAwaitExpression(n) || Node.isSpreadElement(n)) return sub(n.getExpression());
  if (Node.isArrayLiteralExpression(n)) return n.getElements().map((e) => sub(e)).find(Boolean);
  // A record written out in place is the code's own (in the shape the hook's v1 data has); what it spreads is checked.
  if (Node.isObjectLiteralExpression(n)) return n.getProperties().filter(Node.isSpreadAssignment).map((p) => sub(p.getExpression())).find(Boolean);
  if (Node.isConditionalExpression(n)) return sub(n.getWhenTrue()) ?? sub(n.getWhenFalse());
  if (Node.isBinaryExpression(n) && ["??", "||", "&&"].includes(n.getOperatorToken().getText())) return sub(n.getLeft()) ?? sub(n.getRight());
  if (Node.isPropertyAccessExpression(n)) return sub(n.getExpression());
  if (Node.isCallExpression(n)) {
    // `mutate(key, send(…))`: the promise of a call staying v1.
    if (a.sites.some((s) => s.call === n && s.finding && !s.complete)) return undefined;
    const callee = unwrapExpression(n.getExpression());
    if (!Node.isPropertyAccessExpression(callee)) return text;
    const method = callee.getName();
    const args = n.getArguments();
    if (KEEPS.has(method)) return sub(callee.getExpression());
    if (method === "concat") return sub(callee.getExpression()) ?? args.map((x) => sub(x)).find(Boolean);
    // `list.map((p) => (p.id === id ? { ...p, name } : p))`: the callback's answers are written, its parameter is the entry's record.
    if ((method === "map" || method === "flatMap") && args[0] && isFunctionLike(unwrapExpression(args[0]))) return sub(callee.getExpression()) ?? sub(args[0]);
    return text;
  }
  return text;
}

/** What a cache call writes: its data or updater, and the `optimisticData` of its options. */
function writtenBy(data: Node | undefined, options: Node | undefined): Node[] {
  const opts = options && unwrapExpression(options);
  const optimistic = opts && Node.isObjectLiteralExpression(opts) ? opts.getProperty("optimisticData") : undefined;
  const value = optimistic && Node.isPropertyAssignment(optimistic) ? optimistic.getInitializer() : optimistic;
  return [...(data ? [data] : []), ...(value ? [value] : [])];
}

/** Whether a name holds the answer of a call the run keeps on v1 (`const pod = await send(…)` with that call marked). */
function keptAnswer(a: Analysis, id: Node): boolean {
  const b = bind(a, id);
  if (b?.kind === "param" && b.index === 0 && b.path.length === 0) return mutationAnswerKept(a, b.fn);
  if (b?.kind !== "var" || !b.isConst || !b.init || b.path.length) return false;
  let init = unwrapExpression(b.init);
  if (Node.isAwaitExpression(init)) init = unwrapExpression(init.getExpression());
  return a.sites.some((s) => s.finding && !s.complete && (s.call === init || (Node.isCallExpression(init) && s.call.getFirstAncestor((n) => n === init) !== undefined)));
}

/**
 * `onSuccess: (saved) => …` beside a `mutationFn` (TanStack Query, SWR's mutation options): its first
 * parameter is the mutation's answer, kept v1 when every call in `mutationFn` is a site kept on v1.
 */
function mutationAnswerKept(a: Analysis, fn: Node): boolean {
  const prop = fn.getParent();
  const obj = prop?.getParent();
  if (!prop || !Node.isPropertyAssignment(prop) || !["onSuccess", "onSettled"].includes(prop.getName()) || !obj || !Node.isObjectLiteralExpression(obj)) return false;
  const m = obj.getProperty("mutationFn");
  const body = m && Node.isPropertyAssignment(m) ? m.getInitializer() : undefined;
  if (!body) return false;
  const inside = a.sites.filter((s) => s.call.getFirstAncestor((n) => n === body));
  return inside.length > 0 && inside.every((s) => s.finding && !s.complete);
}

/** An `<SWRConfig value={{ fallback }}>` of the run (or a value not written in place, which may hold one). */
function swrConfigFallback(a: Analysis): Node | undefined {
  for (const file of a.files.values()) {
    if (!file.sf.getFullText().includes("SWRConfig")) continue;
    for (const attr of file.sf.getDescendantsOfKind(SyntaxKind.JsxAttribute)) {
      const element = attr.getParent()?.getParent();
      const tag = element && (Node.isJsxOpeningElement(element) || Node.isJsxSelfClosingElement(element)) ? element.getTagNameNode().getText() : undefined;
      if (tag !== "SWRConfig" || attr.getNameNode().getText() !== "value") continue;
      const init = attr.getInitializer();
      const value = init && Node.isJsxExpression(init) ? init.getExpression() : undefined;
      const obj = value && unwrapExpression(value);
      if (!obj || !Node.isObjectLiteralExpression(obj) || obj.getProperty("fallback") || obj.getProperties().some((p) => Node.isSpreadAssignment(p))) return attr;
    }
  }
  return undefined;
}
