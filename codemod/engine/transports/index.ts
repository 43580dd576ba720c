// Transports: what a callee is (a library, an instance of one, fetch and its aliases, a
// project's wrapper around one, or a request helper) and an HTTP call's URL, method, body and
// options, read through the library's own module.
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import { elementDefault, isFunctionLike } from "../scope.ts";
import { importedBinding, memberMethod, classOfMember, memberValues } from "../symbols.ts";
import { isBaseOnly, literalText, unwrapExpression } from "../urls.ts";
import type { Analysis } from "../state.ts";
import { bind, external, objectLiteral, prop } from "../values.ts";
import { helperSignature, helperCall, wrapperSignature } from "../helpers.ts";
import { factoryResult } from "../called-functions.ts";
import { fullUrlElsewhere } from "../full-url-param.ts";
import type { HttpCall, Lib, Root, Transport } from "./transport.ts";
import { fetchTransport } from "./fetch.ts";
import { typedAsFetch } from "./fetch-typed.ts";
import { kitEventParam } from "./framework-fetch.ts";
import { undiciTransport } from "./undici.ts";
import { axiosTransport } from "./axios.ts";
import { gotTransport, kyTransport } from "./got-ky.ts";
import { openapiFetchTransport } from "./openapi-fetch.ts";
import { CONFIG as SUPERAGENT_CONFIG, superagentCall, superagentTransport } from "./superagent.ts";
import { wretchCall, wretchTransport } from "./wretch.ts";
import { CONVENTION_VERBS, answerReads, conventionCall, madeWithBase, optionBase, urlFirstCall, verbMethod } from "./convention.ts";
import { injectedName, injectedTransport } from "./injected-transport.ts";
import { absoluteOnV1, rtkEndpoint } from "./rtk-query.ts";
import { inheritedVerb } from "./inherited-verbs.ts";
import { routeConfigCall } from "./route-config.ts";
import { factoryInstance } from "./factory-instance.ts";
import { handedHelper } from "./handed-function.ts";
import { declarationRoot, onTrail } from "./declaration-roots.ts";
import { bodyOf, conditionalOption, methodOf } from "./call-parts.ts";
import { throughDescriptor } from "../descriptors.ts";
import { optionsOf } from "../evaluate/value.ts";
import { receiverHolds } from "../receiver-base.ts";
import { objectMethod } from "../object-methods.ts";
import { interceptedAnswer } from "../response-interceptors.ts";
import { globalFetcherFollowed, requested, swrCacheKey, swrFetch, unwrapInFetcher } from "./swr.ts";
import { readWrapperRequest } from "../wrapper-request.ts";

export { bodyOf, methodOf };

export type { HttpCall, Lib, Root } from "./transport.ts";

const TRANSPORTS: Transport[] = [fetchTransport, undiciTransport, axiosTransport, gotTransport, kyTransport, openapiFetchTransport, superagentTransport, wretchTransport];
const BY_LIB = new Map<string, Transport>(TRANSPORTS.map((t) => [t.lib, t]));
const GLOBALS = ["globalThis", "window", "global", "self"];
const BODY_KEY: Record<Lib, HttpCall["bodyKey"]> = { fetch: "body", "undici-request": "body", axios: "data", got: "json", ky: "json", "openapi-fetch": "body", superagent: "arg", wretch: "arg", convention: "json" };

function moduleRoot(module: string, name: string): Root | undefined {
  for (const t of TRANSPORTS) {
    const r = t.fromModule(module, name);
    if (r) return r;
  }
  return undefined;
}

/** The root of a function value: a helper or a wrapper. */
function functionRoot(a: Analysis, fn: Node, name: string): Root | undefined {
  const sig = helperSignature(a, fn);
  if (sig) return { lib: "helper", sig, name };
  const w = wrapperSignature(a, fn);
  return w ? { lib: w.lib, wrapper: w } : undefined;
}

/** An instance made by a library call (`axios.create(cfg)`, `createClient(cfg)`), with the base its config carries. */
function instanceRoot(a: Analysis, parent: Root | undefined, method: string | undefined, config: Node | undefined): Root | undefined {
  if (!parent || parent.lib === "helper" || parent.lib === "undici-ns") return undefined;
  if (method === undefined && parent.instance) return undefined;
  const keys = BY_LIB.get(parent.lib)?.instanceBaseKeys?.(method);
  if (!keys) return undefined;
  const own = prop(objectLiteral(a, config), "responseType");
  const responseType = own ? literalText(unwrapExpression(own)) : "responseType" in parent ? parent.responseType : undefined;
  return { lib: parent.lib, instance: external(a, objectLiteral(a, config), keys, "slash") ?? parent.instance, responseType };
}

/** The root of a value expression (an alias's initializer, a member's assigned value). */
function valueRoot(a: Analysis, value: Node, name: string, trail: Node[], depth: number): Root | undefined {
  const init = unwrapExpression(value);
  if (isFunctionLike(init)) return functionRoot(a, init, name);
  // `globalThis.fetch || require("node-fetch")`, `opts.fetch ?? fetch`: either side.
  if (Node.isBinaryExpression(init) && ["||", "??"].includes(init.getOperatorToken().getText())) {
    return valueRoot(a, init.getRight(), name, trail, depth + 1) ?? valueRoot(a, init.getLeft(), name, trail, depth + 1);
  }
  if (Node.isConditionalExpression(init)) return valueRoot(a, init.getWhenTrue(), name, trail, depth + 1) ?? valueRoot(a, init.getWhenFalse(), name, trail, depth + 1);
  if (Node.isCallExpression(init)) {
    const callee = unwrapExpression(init.getExpression());
    // `globalThis.fetch.bind(globalThis)`: the bound function is the one it binds.
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "bind") return valueRoot(a, callee.getExpression(), name, trail, depth + 1);
    const config = init.getArguments()[0];
    if (Node.isIdentifier(callee) && callee.getText() === "require") {
      const m = config && literalText(config);
      return m ? moduleRoot(m, "default") : undefined;
    }
    if (Node.isIdentifier(callee)) {
      const made = instanceRoot(a, rootOf(a, callee, [], depth + 1), undefined, config);
      if (made) return made;
    }
    if (Node.isPropertyAccessExpression(callee)) {
      const made = instanceRoot(a, rootOf(a, callee.getExpression(), trail, depth + 1), callee.getName(), config);
      if (made) return made;
      // A superagent agent configured in a chain (`superagent.agent().set(…)`) is still the agent.
      if (SUPERAGENT_CONFIG.has(callee.getName())) {
        const agent = valueRoot(a, callee.getExpression(), name, trail, depth + 1);
        if (agent?.lib === "superagent") return agent;
      }
    }
    // A factory: `const request = createRequest(key)` where createRequest returns a helper.
    const fn = factoryResult(a, init);
    if (fn) return functionRoot(a, fn, name);
    // A factory returning an instance: `rp()` where rp returns `axios.create({ baseURL })`.
    const instance = factoryInstance(a, init, (v) => valueRoot(a, v, name, [], depth + 1));
    if (instance) return instance;
  }
  if (Node.isIdentifier(init) || Node.isPropertyAccessExpression(init)) return rootOf(a, init, trail, depth + 1);
  return undefined;
}

/**
 * A member given by the class's callers (`constructor(private readonly instance: AxiosInstance)`,
 * `new HttpService(axios.create({ baseURL }))`): by value, the instance every caller makes, when
 * one library call makes it.
 */
function madeRoot(a: Analysis, n: Node, trail: Node[], depth: number): Root | undefined {
  const made = optionsOf(a.evaluator.evaluate(n));
  const roots = made.map((o) => (o.kind === "made" && Node.isCallExpression(o.call) ? valueRoot(a, o.call, n.getText(), trail, depth) : undefined));
  const first = roots[0];
  if (!first || !roots.every((r) => r && r.lib === first.lib && r.lib !== "helper")) return undefined;
  // Instances of one library with different bases (RunPod's and another API's): the v1 one; each
  // call's own receiver decides whether it is a site (receiver-base.ts).
  return roots.find((r) => r && "instance" in r && r.instance && isBaseOnly(r.instance.value));
}

/** What a callee's root value is: a known HTTP library, an instance of one, a wrapper, or a helper. */
export function rootOf(a: Analysis, node: Node, trail: Node[] = [], depth = 0): Root | undefined {
  const found = rootByValue(a, node, trail, depth);
  if (found || depth > 6) return found;
  // A value declared as fetch whose value is not listed (a caller's injected fetch) is fetch-shaped.
  return typedAsFetch(unwrapExpression(node)) ? { lib: "fetch" } : undefined;
}

function rootByValue(a: Analysis, node: Node, trail: Node[], depth: number): Root | undefined {
  const n = unwrapExpression(node);
  if (depth > 6) return undefined;
  trail.push(n);
  // A receiver made where it is used (`rp().post(…)`): what the call gives, as an initializer would.
  if (Node.isCallExpression(n)) return valueRoot(a, n, n.getText(), trail, depth + 1);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (!b) return n.getText() === "fetch" ? { lib: "fetch" } : undefined;
    if (b.kind === "import") return moduleRoot(b.module, b.name);
    if (b.kind === "function") return functionRoot(a, b.decl, n.getText());
    if (b.kind === "var" && b.init && b.path.length === 0) return declarationRoot(a, b.init, n.getText(), depth, trail, () => valueRoot(a, b.init!, n.getText(), trail, depth));
    if (b.kind === "param" && b.path.length === 0) {
      const init = (b.decl as any).getInitializer?.() as Node | undefined;
      if (init) return valueRoot(a, init, n.getText(), trail, depth);
      // By value: every caller the run sees hands in fetch (the global, or a framework's `event.fetch`).
      if (callersGiveFetch(a, b.fn, b.index, trail, depth)) return { lib: "fetch" };
    }
    // A request helper handed in (`run(send)`, `watch(c, { request })`): the one every caller gives.
    if (b.kind === "param" && b.path.length <= 1 && !(b.decl as any).getInitializer?.() && !elementDefault(n, b.decl) && depth < 4) {
      const handed = handedHelper(a, b.fn, b.index, b.path, (v) => (onTrail(a, trail, v) ? undefined : rootOf(a, v, [...trail], depth + 1)));
      if (handed) return handed;
    }
    // SvelteKit's `({ fetch }) => …` handlers: the event's fetch.
    if (b.kind === "param" && b.path.length === 1 && b.path[0] === "fetch" && !elementDefault(n, b.decl) && kitEventParam(b.fn, b.index)) return { lib: "fetch" };
    // A destructured element's default, of a parameter or a variable (`{ fetchImpl = globalThis.fetch } = {}`).
    if ((b.kind === "param" || b.kind === "var") && b.path.length === 1) {
      const init = elementDefault(n, b.decl);
      if (init) return valueRoot(a, init, n.getText(), trail, depth);
    }
    return undefined;
  }
  if (!Node.isPropertyAccessExpression(n)) return undefined;
  const obj = unwrapExpression(n.getExpression());
  const name = n.getName();
  if (Node.isIdentifier(obj) && GLOBALS.includes(obj.getText()) && name === "fetch" && !bind(a, obj)) return { lib: "fetch" };
  if (Node.isIdentifier(obj)) {
    const b = bind(a, obj);
    if (name === "fetch" && b?.kind === "param" && b.path.length === 0 && kitEventParam(b.fn, b.index)) return { lib: "fetch" };
    if (b?.kind === "import" && b.name === "*") {
      const lib = moduleRoot(b.module, "*");
      if (lib?.lib === "undici-ns") return name === "fetch" ? { lib: "fetch" } : name === "request" ? { lib: "undici-request" } : undefined;
      // `axios.default(…)` is the library itself; `axios.patch(…)` is a verb of it (read below, with its data).
      if (lib) return name === "default" ? lib : undefined;
      // `http.request(…)` of a module of the project, ESM or CommonJS: the export of that name.
      const target = a.resolve?.(obj.getSourceFile().getFilePath(), b.module);
      const e = target && importedBinding(target, name, a.resolve);
      if (e?.kind === "function") return functionRoot(a, e.decl, n.getText());
      return e?.kind === "var" && e.init && e.path.length === 0 ? valueRoot(a, e.init, n.getText(), trail, depth) : undefined;
    }
  }
  // A class member: `this.fetchImpl`, `this.api` (an axios instance), `this.request` (a helper).
  const method = memberMethod(n);
  if (method) return functionRoot(a, method, n.getText());
  // A method of a plain object (`Client.rest`, `this.rest` from a sibling): by value, while nothing writes the object.
  const held = objectMethod(a, n);
  if (held) return functionRoot(a, held, n.getText());
  const cls = classOfMember(n);
  if (cls) return declarationRoot(a, cls, n.getText(), depth, trail, () => memberRoot(a, cls, n, name, trail, depth));
  const parent = rootOf(a, obj, trail, depth + 1);
  if (parent?.lib === "undici-ns") return name === "fetch" ? { lib: "fetch" } : name === "request" ? { lib: "undici-request" } : undefined;
  if (parent?.lib === "axios" && name === "default") return parent;
  return undefined;
}

/** A class member's root (`n` reads member `name`): the first its assigned values give, else what every caller makes it. */
function memberRoot(a: Analysis, cls: Node, n: Node, name: string, trail: Node[], depth: number): Root | undefined {
  for (const v of memberValues(cls, name)) {
    const r = valueRoot(a, v, n.getText(), trail, depth);
    if (r) return r;
  }
  return madeRoot(a, n, trail, depth);
}

/** Every call of `fn` the run sees (at least one, all of its uses) gives fetch at parameter `index`. */
function callersGiveFetch(a: Analysis, fn: Node, index: number, trail: Node[], depth: number): boolean {
  if (depth > 4) return false;
  const callers = a.evaluator.callers(fn);
  if (!callers?.length) return false;
  return callers.every((c) => {
    const arg = (c as CallExpression).getArguments?.()[index];
    return !!arg && !onTrail(a, trail, unwrapExpression(arg)) && rootOf(a, arg, [...trail], depth + 1)?.lib === "fetch";
  });
}

/**
 * `useSWR(key, fetcher)`: SWR calls `fetcher(key)`, so the hook is a call of the fetcher (a request
 * helper or a wrapper of the project) with the key alone as its argument; the answer is its `data`.
 */
function fetcherCall(a: Analysis, call: CallExpression, key: Node, fetcher: Node, global?: boolean): HttpCall | undefined {
  const trail: Node[] = [];
  const f = unwrapExpression(fetcher);
  const root = isFunctionLike(f) ? functionRoot(a, f, "fetcher") : rootOf(a, f, trail);
  // (The global fetcher's use in `<SWRConfig>` is followed only where every hook running it is a site.)
  if (!global || globalFetcherFollowed(a)) trail.push(f);
  else trail.length = 0;
  const hook = { lib: "swr" as const, key, fetcher, global };
  let out: HttpCall;
  if (root?.lib === "helper") {
    if (root.sig.pathIndex !== 0 || root.sig.pathKey || root.sig.configForm || root.sig.observable) return undefined;
    out = { ...helperCall(a, call, root.sig, trail, [requested(key)]), hook };
  } else if (root && "wrapper" in root && root.wrapper && root.wrapper.urlIndex === 0) {
    out = { call, lib: root.lib, urlNode: requested(key), external: root.instance, method: { kind: "default", value: "GET" }, bodyKey: BODY_KEY[root.lib], trail, wrapper: root.wrapper, hook };
  } else return undefined;
  // The list is unwrapped where the fetcher resolves, so the cache (and every `mutate` updater working on it) keeps the array.
  if (!global && (out.helper?.returnsBody || out.wrapper?.returnsBody)) out.unwrapList = (wrapper) => [unwrapInFetcher(fetcher, wrapper)];
  return out;
}

/** Reads an HTTP call's URL, method, body and options. */
export function httpCall(a: Analysis, call: CallExpression): HttpCall | undefined {
  const callee = unwrapExpression(call.getExpression());
  const args = call.getArguments();
  const trail: Node[] = [];
  // SWR's cache calls send nothing; its hooks call their fetcher with the key.
  if (swrCacheKey(a, call)) return undefined;
  const swr = swrFetch(a, call);
  if (swr) return fetcherCall(a, call, swr.key, swr.fetcher, swr.global);
  let root = rootOf(a, callee, trail);
  // A wretch chain's verb link (`api.url(p).post(body)`): the chain is read back to `wretch(…)`.
  if (!root && Node.isPropertyAccessExpression(callee)) {
    const w = wretchCall(a, call, (n) => rootOf(a, n));
    if (w) return w;
  }
  let verb: string | undefined;
  let verbNode: Node | undefined;
  /** A known library's own request method (its module reads it, or it is no v1 call). */
  let libraryVerb = false;
  if (!root && Node.isPropertyAccessExpression(callee)) {
    // A request method of a library or an instance: `axios.get`, `api.post`, `client.GET`.
    const receiver = unwrapExpression(callee.getExpression());
    // A client handed in (`api.get(…)` of `api: KyInstance`): by value, the instance its callers (or its package's factory) make.
    const handedIn = CONVENTION_VERBS.has(callee.getName()) && Node.isIdentifier(receiver) && bind(a, receiver)?.kind === "param";
    const parent = rootOf(a, receiver, trail) ?? (handedIn ? madeRoot(a, receiver, trail, 0) : undefined);
    const t = parent && "lib" in parent ? BY_LIB.get(parent.lib) : undefined;
    libraryVerb = !!t?.verb?.(callee.getName());
    const v = t?.verb?.(callee.getName());
    const needsInstance = t?.lib === "openapi-fetch";
    if (v && parent && (!needsInstance || ("instance" in parent && parent.instance))) {
      root = parent;
      verb = v.verb;
      if (verb) verbNode = callee.getNameNode();
    }
  }
  if (!root && Node.isPropertyAccessExpression(callee) && (CONVENTION_VERBS.has(callee.getName()) || verbMethod(callee.getName()))) {
    // A verb method of an object made by any factory from options carrying a v1 base.
    const receiver = unwrapExpression(callee.getExpression());
    const external = madeWithBase(a, receiver);
    if (external) {
      trail.push(receiver, callee);
      return conventionCall(a, call, callee.getName(), external, trail);
    }
    // A verb inherited from a class outside the project, on an object whose own base-like field holds a v1 base.
    const inherited = inheritedVerb(a, receiver, callee.getName());
    if (inherited) {
      trail.push(receiver, callee);
      const out = conventionCall(a, call, callee.getName(), inherited.external, trail);
      // Apollo's data source answers the parsed body and takes the body as `{ body }`, serialised as JSON.
      if (out && inherited.parsedBody) {
        out.style = "body";
        out.jsonSerialiser = "apollo";
        if (!out.body) out.bodyKey = "body";
        // `new URL(path, this.baseURL)`: an absolute path keeps a marked call whole on the declared v1 base.
        const urlNode = out.urlNode;
        if (urlNode) out.ownRedirect = () => absoluteOnV1(urlNode);
      }
      return out;
    }
  }
  if (!root) {
    const endpoint = rtkEndpoint(a, call);
    if (endpoint) return endpoint;
    // A generated client's request function given a config with a route template and a v1 base.
    const generated = routeConfigCall(a, call, trail);
    if (generated) return generated;
  }
  if (!root && !Node.isPropertyAccessExpression(callee) && (Node.isIdentifier(callee) || Node.isCallExpression(callee))) {
    // An instance made from options carrying a v1 base, called directly (`runpod("/pods", { method })`, `client()(…)`).
    const external = madeWithBase(a, callee);
    if (external) {
      trail.push(callee);
      return conventionCall(a, call, undefined, external, trail);
    }
  }
  // A package function given its base in the call's own options (`$fetch("/pods", { baseURL })`).
  const own = !root && !libraryVerb ? optionBase(a, call) : undefined;
  if (own) return conventionCall(a, call, Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined, own, trail);
  if (!root && urlFirstCall(a, call)) return conventionCall(a, call, Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined, undefined, trail);
  // A transport handed in by code out of sight (`ctx.fetchJson(url, { method, body })` of a framework's context).
  const injected = !root ? injectedTransport(a, call, answerReads(call)) : undefined;
  if (injected) {
    const out = conventionCall(a, call, injectedName(callee), undefined, trail, true);
    if (out && injected === "reads") out.injectedDoubt = `${callee.getText()} is handed in and given no request options here: whether it sends this request or only looks the URL up is not known`;
    return out;
  }
  if (!root || root.lib === "undici-ns") return undefined;
  if (root.lib === "helper") {
    // A method of a class serving several instances: a site only where this receiver may hold a v1 base.
    if (root.sig.receiverKey && Node.isPropertyAccessExpression(callee) && !receiverHolds(a, unwrapExpression(callee.getExpression()), root.sig.receiverKey)) return undefined;
    // Another host's full URL handed to a helper that sends it as it is: no v1 call, and no use of the helper's base.
    if (root.sig.fullUrl && !root.sig.pathKey && fullUrlElsewhere(args[root.sig.pathIndex])) return void [...trail, callee].forEach((n) => a.accounted.add(n));
    const out = helperCall(a, call, root.sig, trail);
    if (root.handedIn) out.handedIn = root.handedIn;
    return out;
  }
  if (root.lib === "superagent" && !root.wrapper) return superagentCall(call, verb, trail);
  const { lib, instance, wrapper } = root;
  const parts = wrapper
    ? { urlNode: args[wrapper.urlIndex], options: wrapper.optionsIndex !== undefined ? args[wrapper.optionsIndex] : undefined, bodyKey: BODY_KEY[lib], external: instance }
    : BY_LIB.get(lib)!.parts(a, args, verb, instance, Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined);
  // A retry re-sending a request made elsewhere: not a site, and not a use of the base the codemod must follow.
  if ("resend" in parts && parts.resend) return void [...trail, callee].forEach((n) => a.accounted.add(n));
  const out: HttpCall = { call, lib, urlNode: parts.urlNode, external: parts.external, method: { kind: "default", value: "GET" }, bodyKey: parts.bodyKey, trail, wrapper };
  // Response interceptors change what every call of the instance resolves to (a wrapper's answer is read off its own call).
  if (lib === "axios") out.interceptor = interceptedAnswer(a, wrapper ? wrapper.transport : call);
  if (wrapper && out.interceptor?.form === "body") out.interceptor = undefined;
  const opts = objectLiteral(a, parts.options);
  out.options = opts ?? parts.options;
  // got answers a Response whose `body` is the parsed JSON when the call or its instance asks `responseType: "json"`.
  const ownType = lib === "got" ? prop(opts, "responseType") : undefined;
  const responseType = ownType ? literalText(unwrapExpression(ownType)) : lib === "got" ? root.responseType : undefined;
  if (responseType === "json" && !wrapper) out.answerKey = "body";
  if (verb) out.method = { kind: "verb", value: verb.toUpperCase() as HttpMethod, node: verbNode };
  else if (parts.options && !opts) out.method = { kind: "unknown" };
  // (`d.method` of a descriptor a project function built: the method written there.)
  else out.method = methodOf(throughDescriptor(a, prop(opts, "method"))) ?? out.method;
  // A wrapper sending its own method and body (`postJson(url, body)`): they come from its arguments.
  if (wrapper) readWrapperRequest(out, args);
  // `api.post(url, JSON.stringify(body))`: the body is the serialised value (and goes as a string).
  if ("bodyArg" in parts && parts.bodyArg) out.body = bodyOf(parts.bodyArg);
  else if (opts && out.bodyKey !== "arg") {
    // got and ky also take a body as it is (`body: JSON.stringify(x)`), sent with no JSON type.
    if ((lib === "got" || lib === "ky") && !prop(opts, "json") && prop(opts, "body")) out.bodyKey = "body";
    const b = prop(opts, out.bodyKey);
    if (b) out.body = bodyOf(b, (opts as any).getProperty(out.bodyKey) as Node);
    // `JSON.stringify(d.body)` of a descriptor: the body written where the descriptor is built.
    if (out.body) out.body = { ...out.body, node: throughDescriptor(a, out.body.node)! };
    // A body given on a condition (`...(body ? { body: JSON.stringify(body) } : {})`) is the body when given.
    const given = b ? undefined : conditionalOption(opts, out.bodyKey);
    if (given) out.body = bodyOf((given as any).getInitializer(), given);
  }
  return out;
}
