// SWR, a known convention of data fetching: `useSWR(key, fetcher)` (also `useSWRImmutable`, and
// `preload(key, fetcher)`) calls `fetcher(key)` and keeps what it resolves to in a cache under the
// key; the hook's `data` is that value. So the hook is read as a call of its fetcher (a request
// helper or a wrapper of the project) with the key as its URL: the site is the hook's line, method
// and body come from the fetcher, the answer is the hook's `data` (body-sites.ts).
// The cache's own calls (`mutate(key, …)` from "swr" or `useSWRConfig()`, `useSWRMutation(key, …)`,
// `cache.get(key)`) send nothing: their key names a hook's cache entry and must stay equal to it
// (swr-cache-keys.ts), so they are never call sites.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { bind } from "../values.ts";
import { unwrapExpression } from "../urls.ts";
import { isFunctionLike } from "../scope.ts";
import { replaceNode } from "../text-edit.ts";
import { isTypeScriptFile } from "../nodes.ts";
import type { Edit } from "../../types.ts";

const MODULES = new Set(["swr", "swr/immutable", "swr/infinite", "swr/mutation", "swr/_internal"]);

/** What an identifier of SWR's modules is: `useSWR`, `mutate`, `useSWRConfig`, … (`default` of "swr" is useSWR). */
function swrName(a: Analysis, node: Node): string | undefined {
  const n = unwrapExpression(node);
  if (!Node.isIdentifier(n)) return undefined;
  const b = bind(a, n);
  if (b?.kind !== "import" || !MODULES.has(b.module)) return undefined;
  if (b.name !== "default") return b.name;
  return b.module === "swr" ? "useSWR" : b.module === "swr/immutable" ? "useSWRImmutable" : b.module === "swr/infinite" ? "useSWRInfinite" : b.module === "swr/mutation" ? "useSWRMutation" : undefined;
}

/** A hook (or `preload`) that calls its fetcher with its key: the key and the fetcher given. */
export function swrFetch(a: Analysis, call: CallExpression): { key: Node; fetcher: Node; global?: boolean } | undefined {
  const name = swrName(a, call.getExpression());
  if (name !== "useSWR" && name !== "useSWRImmutable" && name !== "preload") return undefined;
  const [key, given] = call.getArguments();
  if (!key || Node.isSpreadElement(key) || (given && Node.isSpreadElement(given))) return undefined;
  // An array key is handed to the fetcher as it is: not a URL.
  if (Node.isArrayLiteralExpression(unwrapExpression(key))) return undefined;
  // With no fetcher given (none, or options in its place), the one of `<SWRConfig value={{ fetcher }}>` runs.
  if (!given || Node.isObjectLiteralExpression(unwrapExpression(given))) {
    const fetcher = name === "preload" ? undefined : globalFetcher(a);
    return fetcher && !isFunctionLike(unwrapExpression(key)) ? { key, fetcher, global: true } : undefined;
  }
  return { key, fetcher: given };
}

const globals = new WeakMap<Analysis, Node | null>();

/** The one fetcher the run's `<SWRConfig value={{ fetcher }}>` elements give (none, or several different ones: undefined). */
function globalFetcher(a: Analysis): Node | undefined {
  if (globals.has(a)) return globals.get(a) ?? undefined;
  const found = new Map<string, Node>();
  for (const file of a.files.values()) {
    for (const attr of file.sf.getDescendantsOfKind(SyntaxKind.JsxAttribute)) {
      if (attr.getNameNode().getText() !== "value") continue;
      const element = attr.getParent()?.getParent();
      const tag = element && (Node.isJsxOpeningElement(element) || Node.isJsxSelfClosingElement(element)) ? element.getTagNameNode() : undefined;
      if (!tag || swrName(a, tag) !== "SWRConfig") continue;
      const init = attr.getInitializer();
      const value = init && Node.isJsxExpression(init) ? init.getExpression() : undefined;
      const obj = value && unwrapExpression(value);
      const fetcher = obj && Node.isObjectLiteralExpression(obj) ? obj.getProperty("fetcher") : undefined;
      const node = fetcher && Node.isPropertyAssignment(fetcher) ? fetcher.getInitializer() : fetcher && Node.isShorthandPropertyAssignment(fetcher) ? fetcher.getNameNode() : undefined;
      // A configuration built elsewhere, or spread: its fetcher is not known.
      if (!node) return void globals.set(a, null);
      found.set(node.getText(), node);
    }
  }
  const one = found.size === 1 ? [...found.values()][0]! : undefined;
  globals.set(a, one ?? null);
  return one;
}

/** `useSWRConfig()` (or a name holding it): the object whose `mutate` and `cache` are the global cache's. */
function isConfig(a: Analysis, node: Node): boolean {
  const n = unwrapExpression(node);
  if (Node.isCallExpression(n)) return swrName(a, n.getExpression()) === "useSWRConfig";
  if (!Node.isIdentifier(n)) return false;
  const b = bind(a, n);
  return b?.kind === "var" && !!b.init && b.path.length === 0 && isConfig(a, b.init);
}

/** A name bound to a member of `useSWRConfig()` (`const { mutate, cache } = useSWRConfig()`): that member. */
function configMember(a: Analysis, node: Node): string | undefined {
  const n = unwrapExpression(node);
  if (Node.isPropertyAccessExpression(n)) return isConfig(a, n.getExpression()) ? n.getName() : undefined;
  if (!Node.isIdentifier(n)) return undefined;
  const b = bind(a, n);
  return b?.kind === "var" && b.init && b.path.length === 1 && isConfig(a, b.init) ? b.path[0] : undefined;
}

/**
 * The key of a call of SWR's cache (no request of its own): `mutate(key, …)` of "swr" or of
 * `useSWRConfig()`, `useSWRMutation(key, fn)` (revalidates the hook of that key), `cache.get(key)`.
 */
export function swrCacheKey(a: Analysis, call: CallExpression): { key: Node; write?: Node } | undefined {
  const callee = unwrapExpression(call.getExpression());
  const [key, second] = call.getArguments();
  if (!key || Node.isSpreadElement(key)) return undefined;
  // What `mutate(key, data | updater)` and `cache.set(key, state)` write into the hook's cached value.
  const write = second && !Node.isSpreadElement(second) ? second : undefined;
  const name = swrName(a, callee);
  if (name === "useSWRMutation" || name === "unstable_serialize") return { key };
  if (name === "mutate" || configMember(a, callee) === "mutate") return { key, write };
  if (Node.isPropertyAccessExpression(callee) && ["get", "set", "delete"].includes(callee.getName()) && configMember(a, callee.getExpression()) === "cache") return { key, write: callee.getName() === "set" ? write : undefined };
  return undefined;
}

/** Every hook of the run that runs the global fetcher is read as its call (none with an array or function key): only then is the fetcher's use in `<SWRConfig>` followed. */
const followed = new WeakMap<Analysis, boolean>();

export function globalFetcherFollowed(a: Analysis): boolean {
  let known = followed.get(a);
  if (known === undefined) followed.set(a, (known = everyGlobalHookRead(a)));
  return known;
}

function everyGlobalHookRead(a: Analysis): boolean {
  for (const file of a.files.values()) {
    for (const call of file.sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const name = swrName(a, call.getExpression());
      if (name !== "useSWR" && name !== "useSWRImmutable" && name !== "useSWRInfinite") continue;
      const given = call.getArguments()[1];
      if (given && !Node.isObjectLiteralExpression(unwrapExpression(given))) continue;
      if (name === "useSWRInfinite" || !swrFetch(a, call)) return false;
    }
  }
  return true;
}

/**
 * Why a path inside a hook's key is not followed to a request, if it is one: the keys of
 * `useSWRInfinite` (its `data` is a list of pages, one fetcher answer each, which the record and
 * list passes do not follow) and array keys (`[url, token]`, handed to the fetcher whole).
 */
export function unfollowedSwrKey(a: Analysis, node: Node): string | undefined {
  for (let up: Node | undefined = node; up; up = up.getParent()) {
    const call = up.getParent();
    if (!call || !Node.isCallExpression(call) || call.getArguments()[0] !== up) continue;
    const name = swrName(a, call.getExpression());
    if (name === "useSWRInfinite") return "useSWRInfinite's data is a list of pages (one fetcher answer each), which the codemod does not follow to its reads";
    if ((name === "useSWR" || name === "useSWRImmutable" || name === "preload") && Node.isArrayLiteralExpression(unwrapExpression(up))) return `${name}'s key is an array, handed to the fetcher whole: which element is the URL is not followed`;
  }
  return undefined;
}

/** The URL a key requests: a null key (`id ? \`/pods/${id}\` : null`, `id && …`) fetches nothing, so the other branch. */
export function requested(key: Node): Node {
  const k = unwrapExpression(key);
  const none = (n: Node) => ["null", "undefined", "false"].includes(unwrapExpression(n).getText());
  if (Node.isConditionalExpression(k)) {
    if (none(k.getWhenFalse())) return k.getWhenTrue();
    if (none(k.getWhenTrue())) return k.getWhenFalse();
  }
  if (Node.isBinaryExpression(k) && k.getOperatorToken().getText() === "&&") return k.getRight();
  return key;
}

/** `fetcher` → `(url: string) => fetcher(url).then((body: any) => body.pods)`, written where the hook is given it. */
export function unwrapInFetcher(fetcher: Node, wrapper: string): Edit {
  const ts = isTypeScriptFile(fetcher.getSourceFile().getFilePath());
  const f = unwrapExpression(fetcher);
  const callee = Node.isIdentifier(f) || Node.isPropertyAccessExpression(f) ? f.getText() : `(${fetcher.getText()})`;
  return replaceNode(fetcher, `(url${ts ? ": string" : ""}) => ${callee}(url).then((body${ts ? ": any" : ""}) => body.${wrapper})`);
}
