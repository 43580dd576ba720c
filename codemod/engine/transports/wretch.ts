// wretch: `wretch(base)` makes an immutable request builder, each link a new one: `.url(p)` appends
// to its URL (`.url(u, true)` replaces it), `.query(q)` (QueryStringAddon) adds a query, `.json(x)`
// sets a JSON body and its Content-Type, `.body(x)` a body sent as it is, config links (`.auth`,
// `.headers`, `.options`, …) change nothing between v1 and v2, `.catcher(code, cb)` handles a
// status for every later request. A verb link sends it: `.get(url?)`, `.delete(url?)`,
// `.post(body?, url?)`, `.put(…)`, `.patch(…)` (an object body goes as `.json(body)` does). The
// response chain after the verb reads the answer: catchers (`.notFound(cb)`, `.error(409, cb)`),
// then `.json()` (the parsed body; `.json(cb)` hands it to cb), `.text()`, `.res()` (the fetch
// Response). A failure rejects with a WretchError: `.status`, `.json` (the body, parsed when the
// answer is JSON), `.text`. The site's call is the verb link; its chain is read both ways.
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import { literalText, resolveParts, unwrapExpression } from "../urls.ts";
import type { Analysis } from "../state.ts";
import { bind, urlContext, type External } from "../values.ts";
import { classOfMember, memberValues } from "../symbols.ts";
import { skipParens } from "../nodes.ts";
import { references } from "../references.ts";
import type { HttpCall, Root, Transport, WretchChain } from "./transport.ts";
import { absoluteOnV1 } from "./rtk-query.ts";
import { insertAt } from "../text-edit.ts";

export const WRETCH_VERBS: Record<string, HttpMethod> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE", head: "HEAD" as HttpMethod, opts: "OPTIONS" as HttpMethod };
const WITH_BODY = new Set(["post", "put", "patch"]);
/** Request links that change nothing between v1 and v2. */
const CONFIG = new Set(["auth", "headers", "accept", "options", "signal", "errorType", "polyfills", "fetchPolyfill", "content", "setTimeout", "onAbort", "basicAuth"]);
/** Response-chain catchers: each takes a callback given the WretchError. */
const CATCHERS = new Set(["badRequest", "unauthorized", "forbidden", "notFound", "timeout", "internalError", "tooManyRequests", "error", "fetchError"]);
/** Response-chain links that read the answer. */
const READERS = new Set(["json", "text", "res", "blob", "arrayBuffer", "formData"]);
/** The modules `wretch` is imported from (`wretch/all` bundles the addons). */
const MODULES = new Set(["wretch", "wretch/all"]);

export const wretchTransport: Transport = {
  lib: "wretch",
  fromModule: (module, name) => (MODULES.has(module) && (name === "default" || name === "*" || name === "wretch") ? { lib: "wretch" } : undefined),
  // Not used: `wretchCall` reads the whole chain.
  parts: () => ({ bodyKey: "arg" }),
};

interface Link {
  name: string;
  call: CallExpression;
}

/**
 * The links from the `wretch(…)` call to `end` (excluded), through variables and class fields
 * holding a part of the chain (`const api = wretch(BASE).auth(…)`), and that root call. `trail`
 * gets the names the chain was followed through.
 */
function requestLinks(a: Analysis, end: Node, trail: Node[], rootOf: (n: Node) => Root | undefined): { root: CallExpression; links: Link[] } | undefined {
  const links: Link[] = [];
  let cur = unwrapExpression(end);
  for (let depth = 0; depth < 40; depth++) {
    if (Node.isCallExpression(cur)) {
      const callee = unwrapExpression(cur.getExpression());
      if (rootOf(callee)?.lib === "wretch") return { root: cur, links };
      if (!Node.isPropertyAccessExpression(callee)) return undefined;
      links.unshift({ name: callee.getName(), call: cur });
      cur = unwrapExpression(callee.getExpression());
      continue;
    }
    trail.push(cur);
    if (Node.isIdentifier(cur)) {
      const b = bind(a, cur);
      if (b?.kind !== "var" || !b.init || b.path.length) return undefined;
      cur = unwrapExpression(b.init);
      continue;
    }
    // `this.api`: a field given one value.
    const cls = Node.isPropertyAccessExpression(cur) ? classOfMember(cur) : undefined;
    const values = cls && Node.isPropertyAccessExpression(cur) ? memberValues(cls, cur.getName()) : [];
    if (values.length !== 1) return undefined;
    cur = unwrapExpression(values[0]!);
  }
  return undefined;
}

/** The response chain after the verb link: its catchers, the link reading the answer, and links not read. */
function responseLinks(verb: CallExpression): Link[] {
  const out: Link[] = [];
  let cur: Node = verb;
  for (;;) {
    const p = skipParens(cur).getParent();
    const c = p?.getParent();
    if (!p || !Node.isPropertyAccessExpression(p) || !c || !Node.isCallExpression(c) || c.getExpression() !== p) break;
    if (["then", "catch", "finally"].includes(p.getName())) break;
    out.push({ name: p.getName(), call: c });
    cur = c;
    if (READERS.has(p.getName())) break;
  }
  return out;
}

/**
 * Whether an addon given to `.addon(…)` is one of wretch's own (imported from `wretch/addons…`,
 * or `wretch/all`): their links are read here (`.query`, `.formData`, `.formUrl`) or send
 * nothing of their own (abort, perfs, progress, basic auth). Another addon may change anything.
 */
function ownAddon(a: Analysis, arg: Node | undefined): boolean {
  const n = arg && unwrapExpression(arg);
  const b = n && Node.isIdentifier(n) ? bind(a, n) : undefined;
  return b?.kind === "import" && (/^wretch\/addons(\/|$)/.test(b.module) || b.module === "wretch/all");
}

/** The base a `wretch(base)` call is given, as an External the path links are appended to. */
function rootBase(a: Analysis, root: CallExpression): External | undefined {
  const arg = root.getArguments()[0];
  if (!arg) return undefined;
  const parts = resolveParts(arg, urlContext(a));
  return parts.length === 1 && parts[0]!.kind === "base" ? { value: parts[0]!.value, node: arg, join: "concat" } : undefined;
}

/**
 * From a `wretch(base)` call up the links that keep it a request builder (`.auth(…)`, `.url(…)`,
 * …) to the expression holding it: a variable's initializer, or a verb link's member (`….get`),
 * which a planned site accounts for. Undefined when the call is not wretch's.
 */
export function wretchBuilder(a: Analysis, root: CallExpression): Node | undefined {
  if (!isWretch(a, root.getExpression())) return undefined;
  let cur: Node = root;
  for (;;) {
    const p = skipParens(cur).getParent();
    const c = p?.getParent();
    if (!p || !Node.isPropertyAccessExpression(p) || p.getExpression() !== skipParens(cur) || !c || !Node.isCallExpression(c) || c.getExpression() !== p) return cur;
    if (p.getName() in WRETCH_VERBS) return p;
    cur = c;
  }
}

/** `wretch` imported from its module. */
function isWretch(a: Analysis, callee: Node): boolean {
  const n = unwrapExpression(callee);
  const b = Node.isIdentifier(n) ? bind(a, n) : undefined;
  return b?.kind === "import" && MODULES.has(b.module) && (b.name === "default" || b.name === "*" || b.name === "wretch");
}

/** The URL pieces of a chain: the root's argument (unless it is a base), each `.url(…)`, the verb's own. */
function urlPieces(a: Analysis, chain: { root: CallExpression; links: Link[] }, verb: CallExpression): Node[] {
  const pieces: Node[] = [];
  const first = chain.root.getArguments()[0];
  if (first && !rootBase(a, chain.root)) pieces.push(first);
  for (const l of chain.links) {
    const [x, y] = l.call.getArguments();
    if (l.name !== "url" || !x) continue;
    if (y && unwrapExpression(y).getText() === "true") pieces.length = 0;
    pieces.push(x);
  }
  const name = (verb.getExpression() as any).getName?.() as string;
  const verbUrl = WITH_BODY.has(name) ? verb.getArguments()[1] : verb.getArguments()[0];
  if (verbUrl) pieces.push(verbUrl);
  return pieces;
}

/**
 * Why a use of a wretch builder is not a call the codemod follows, where its chain says so: the URL
 * built over several links, or a `.url(…)` given a value known only at run time.
 */
export function wretchUnfollowed(a: Analysis, use: Node, depth = 0): string | undefined {
  let cur: Node = use;
  for (let i = 0; i < 20; i++) {
    const p = skipParens(cur).getParent();
    const c = p?.getParent();
    // A builder kept in a variable (`const endpoints = api.url("/endpoints")`): its own chains say why.
    if (p && Node.isVariableDeclaration(p) && p.getInitializer() === skipParens(cur) && Node.isIdentifier(p.getNameNode()) && depth < 3) {
      for (const ref of references(p.getNameNode())) {
        const why = wretchUnfollowed(a, ref, depth + 1);
        if (why) return why;
      }
      return undefined;
    }
    if (!p || !Node.isPropertyAccessExpression(p) || !c || !Node.isCallExpression(c) || c.getExpression() !== p) return undefined;
    cur = c;
    if (!(p.getName() in WRETCH_VERBS)) continue;
    const chain = requestLinks(a, p.getExpression(), [], (n) => (isWretch(a, n) ? { lib: "wretch" } : undefined));
    if (!chain) return undefined;
    const pieces = urlPieces(a, chain, c);
    if (pieces.length > 1) return `a wretch chain whose URL is built over ${pieces.length} links (${pieces.map((x) => x.getText()).join(", ")}), which the codemod does not join`;
    const parts = pieces[0] ? resolveParts(pieces[0], urlContext(a)) : [];
    if (parts[0] && parts[0].kind === "hole") return `a wretch chain whose .url(…) is given ${pieces[0]!.getText()}, known only at run time`;
    return undefined;
  }
  return undefined;
}

/** A verb link (`.get()`, `.post(body)`) on a wretch chain: the request it sends. */
export function wretchCall(a: Analysis, call: CallExpression, rootOf: (n: Node) => Root | undefined): HttpCall | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !(callee.getName() in WRETCH_VERBS)) return undefined;
  const verb = callee.getName();
  const trail: Node[] = [];
  const chain = requestLinks(a, callee.getExpression(), trail, rootOf);
  if (!chain) return undefined;
  const args = call.getArguments();
  const w: WretchChain = { root: chain.root, verb: call, queries: [], bodies: [], types: [], catchers: [], unread: [], problems: [], errorTyped: false };
  // The URL: the root's argument, then each `.url(…)` appended (or replacing), then the verb's own.
  const pieces = urlPieces(a, chain, call);
  const replaced = chain.links.some((l) => l.name === "url" && l.call.getArguments()[1] && unwrapExpression(l.call.getArguments()[1]!).getText() === "true");
  const base = replaced ? undefined : rootBase(a, chain.root);
  for (const l of chain.links) {
    const [x, y] = l.call.getArguments();
    if (l.name === "url") {
      if (y && unwrapExpression(y).getText() !== "true") w.problems.push({ reason: `.url(…, ${y.getText()}) may replace the URL or append to it, which the codemod cannot tell`, brief: ".url(…) may replace the URL at run time" });
    } else if (l.name === "query") w.queries.push(l.call);
    else if (l.name === "json" || l.name === "body") {
      if (x) w.bodies.push(l.call);
    } else if (l.name === "formData" || l.name === "formUrl") w.bodies.push(l.call);
    else if (l.name === "catcher") {
      if (y) w.catchers.push(y);
    } else if (l.name === "addon") {
      if (!ownAddon(a, x)) w.problems.push({ reason: `the request goes through the addon ${x?.getText() ?? "(none)"}, which the codemod cannot read: it may change the URL, body or answer`, brief: `addon ${x?.getText() ?? ""} cannot be read` });
    } else if (l.name === "customError" || (l.name === "errorType" && x && literalText(unwrapExpression(x)) === "json")) w.errorTyped = true;
    else if (CONFIG.has(l.name)) {
      if (l.name === "content" || (l.name === "headers" && /content-type/i.test(x?.getText() ?? ""))) w.types.push(l.call);
    } else w.unread.push({ name: l.name, node: l.call });
  }
  if (w.queries.length > 1) w.problems.push({ reason: `the query is given in ${w.queries.length} .query() links, which wretch appends one after the other; the codemod checks one`, brief: `the query is split over ${w.queries.length} .query() links` });
  const bodyArg = WITH_BODY.has(verb) ? args[0] : undefined;
  // A URL over several links is not joined: no site, and the builder's base stays v1 (follow-uses.ts says why).
  if (pieces.length > 1) return undefined;
  const urlNode = pieces[0];
  if (!urlNode) return undefined;
  const answer = responseLinks(call);
  for (const l of answer) {
    if (CATCHERS.has(l.name)) {
      const cb = l.call.getArguments().at(-1);
      if (cb) w.catchers.push(cb);
    } else if (READERS.has(l.name)) w.reader = l;
    else w.unread.push({ name: l.name, node: l.call });
  }
  if (w.reader && !["json", "text", "res"].includes(w.reader.name)) w.unread.push({ name: w.reader.name, node: w.reader.call });
  if (w.reader && w.reader.name !== "json" && w.reader.call.getArguments().length) w.unread.push({ name: w.reader.name, node: w.reader.call });
  trail.push(callee);
  const out: HttpCall = { call, lib: "wretch", urlNode, external: pieces.length && base ? base : undefined, method: { kind: "verb", value: WRETCH_VERBS[verb]!, node: callee.getNameNode() }, bodyKey: "arg", trail, wretch: w };
  // A marked call keeps v1 whole: its `.url(path)` becomes `.url(\`${RUNPOD_V1_BASE}/path\`, true)`, which replaces the instance's URL.
  const urlLink = chain.links.find((l) => l.name === "url" && l.call.getArguments()[0] === urlNode && l.call.getArguments().length === 1);
  if (urlLink && out.external) out.ownRedirect = () => {
    const r = absoluteOnV1(urlNode);
    return r && { ...r, edits: [...r.edits, insertAt(urlNode, urlNode.getEnd(), ", true")] };
  };
  if (bodyArg && !(/^(undefined|null)$/.test(unwrapExpression(bodyArg).getText()))) out.body = { node: bodyArg, stringify: false };
  else if (w.bodies.length === 1 && w.bodies[0]!.getArguments()[0]) out.body = { node: w.bodies[0]!.getArguments()[0]!, stringify: false };
  return out;
}

/** What stands between a wretch body and a v2 JSON body: undefined when it goes as JSON. */
export function wretchBodyProblem(http: HttpCall): { reason: string; brief: string } | undefined {
  const w = http.wretch!;
  const given = w.bodies.length + (WITH_BODY.has(verbName(w)) && w.verb.getArguments()[0] ? 1 : 0);
  if (given > 1) return { reason: `the body is given ${given} times in the chain (.json/.body links and the verb's argument); the last one wins, which the codemod cannot tell`, brief: `the body is given ${given} times in the chain` };
  const link = w.bodies[0];
  const name = link && (link.getExpression() as any).getName?.();
  if (name === "formData" || name === "formUrl") return { reason: `the body is sent as a form (.${name}(…)), and v2 takes only JSON bodies`, brief: `.${name}(…) sends a form, not JSON` };
  for (const t of w.types) {
    const arg = t.getArguments()[0];
    const value = literalText(unwrapExpression(arg ?? t)) ?? (arg && Node.isObjectLiteralExpression(unwrapExpression(arg)) ? contentTypeOf(unwrapExpression(arg)) : undefined) ?? "";
    if (!/^application\/(.*\+)?json\b/i.test(value)) return { reason: `the request sets its Content-Type to ${value || "a value set at run time"}, and v2 takes only JSON bodies`, brief: `Content-Type ${value || "set at run time"} is not JSON` };
  }
  const body = http.body && unwrapExpression(http.body.node);
  // `.body(x)` and a string given to the verb go as they are, with no JSON Content-Type of wretch's.
  if (name === "body" && !w.types.length) return { reason: "the body is given with .body(…), which wretch sends as it is (no JSON Content-Type), and v2 takes only JSON bodies", brief: ".body(…) does not send JSON" };
  if (body && !w.types.length && isString(body)) return { reason: "wretch sends a string body as it is (no JSON Content-Type), and v2 takes only JSON bodies", brief: "the string body does not go as JSON" };
  return undefined;
}

function verbName(w: WretchChain): string {
  return (w.verb.getExpression() as any).getName?.() ?? "";
}

function contentTypeOf(obj: Node): string | undefined {
  for (const p of (obj as any).getProperties?.() ?? []) {
    if (Node.isPropertyAssignment(p) && /^["']?content-type["']?$/i.test(p.getNameNode().getText())) return literalText(unwrapExpression(p.getInitializerOrThrow()));
  }
  return undefined;
}

function isString(n: Node): boolean {
  if (Node.isStringLiteral(n) || Node.isTemplateExpression(n) || Node.isNoSubstitutionTemplateLiteral(n)) return true;
  if (Node.isCallExpression(n) && n.getExpression().getText() === "JSON.stringify") return true;
  try {
    const t = n.getType();
    return t.isString() || t.isStringLiteral();
  } catch {
    return false;
  }
}

/** The query object (or string) of a wretch chain: the only `.query(…)`, else undefined (several are marked). */
export function wretchQuery(http: HttpCall): Node | undefined {
  const q = http.wretch?.queries;
  return q?.length === 1 ? q[0]!.getArguments()[0] : undefined;
}

/** Where a lifecycle action's fixed body goes: the verb's body argument (`.post()` → `.post(body)`); undefined when the verb takes none there. */
export function wretchFixedBodyEdit(http: HttpCall, value: string): { start: number; end: number; text: string } | undefined {
  const verb = http.wretch!.verb;
  if (http.wretch!.bodies.length || verb.getArguments().length) return undefined;
  const close = verb.getEnd() - 1;
  return { start: close, end: close, text: value };
}
