// A project's own request helpers (functions whose parameter is the path of a transport call on
// a v1 base, positional or in an options object, in any order), wrappers (functions that forward
// their URL argument to a transport), and factories that return either. Their call sites are
// where the v1 operations are, so that is where the rewrite happens. What each gives its callers
// back is helper-answer.ts's.
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import { computing, readCached } from "./memo-cuts.ts";
import type { HelperSignature } from "../types.ts";
import { enclosingFunction, isFunctionLike, runningFunction, type Binding } from "./scope.ts";
import { plainParameterUses, skipParens } from "./nodes.ts";
import { isDynamicPath, literalText, locate, resolveParts, unwrapExpression, type LocatedUrl, type Part } from "./urls.ts";
import type { Analysis, WrapperSignature } from "./state.ts";
import { bind, objectLiteral, prop, sourceLiteral, sourceLiterals, urlContext } from "./values.ts";
import { bodyOf, methodOf } from "./transports/call-parts.ts";
import type { HttpCall } from "./transports/transport.ts";
import { readCall as httpCall } from "./call-reader.ts";
import { wholeDescriptor } from "./descriptors.ts";
import { routeTableEntry } from "./route-table-entries.ts";
import { bodySites, type BodySite } from "./body-sites.ts";
import { bodyBuiltFromParam, bodyOptionKeys, handedOnBodyKeys, transportQueryParam } from "./helper-body-keys.ts";
import { handedOnQuery, queryKeysOf } from "./helper-query-keys.ts";
import { shortExpression } from "./expression-name.ts";
import { heldSources, receiverMember } from "./receiver-base.ts";
import { localBaseExpression } from "./local-base.ts";
import { methodParam, noOptionsValue, optionsMayCarry, primitiveTyped, spreadCarrying } from "./helper-method.ts";
import { optionsMethodReach } from "./options-method.ts";
import { restOfParam } from "./rest-of-param.ts";
import { withWrittenBody } from "./written-body.ts";
import { carriedWhy, verbOptionsMethod } from "./outside-options.ts";
import { baseArgument, baseParamIndex, handedBaseAnchor } from "./base-argument.ts";
import { answerLibOf, resultPlaceOf, bodyWrapperOf, returnsBody, returnsValueOf, schemaParsedBody } from "./helper-answer.ts";
import { wrapperRequest } from "./wrapper-request.ts";
import { takesFullUrl, writtenFullUrl } from "./full-url-param.ts";

const BODY_NAME = /body|data|payload|json/i;

function paramIndex(a: Analysis, fn: Node, node: Node | undefined): Binding | undefined {
  const u = node && unwrapExpression(node);
  if (!u) return undefined;
  if (Node.isIdentifier(u)) {
    const b = bind(a, u);
    return b?.kind === "param" && b.fn === fn ? b : undefined;
  }
  if (Node.isPropertyAccessExpression(u)) return paramIndex(a, fn, u.getExpression());
  return undefined;
}

/** The parameter an options object comes from: the parameter itself, or spread into a literal (`{ ...init, signal }`). */
/** The rest of a destructured options parameter, when it still holds everything a request takes from the caller (method, body). */
function wholeRestOf(a: Analysis, fn: Node, node: Node | undefined): Binding | undefined {
  const rest = restOfParam(a, fn, node);
  return rest && !rest.taken.some((k) => k === "method" || k === "body") ? rest.param : undefined;
}

function optionsParam(a: Analysis, fn: Node, node: Node | undefined): Binding | undefined {
  const rest = wholeRestOf(a, fn, node);
  const direct = rest ?? paramIndex(a, fn, node);
  if (direct) return direct;
  const u = node && unwrapExpression(node);
  if (!u || !Node.isObjectLiteralExpression(u)) return undefined;
  for (const p of u.getProperties()) {
    if (Node.isSpreadAssignment(p)) {
      // `{ ...init, headers }` where `const { apiKey, ...init } = options`: the caller's options, less what the pattern took.
      const restIn = wholeRestOf(a, fn, p.getExpression());
      if (restIn) return restIn;
      const b = paramIndex(a, fn, p.getExpression());
      if (b?.kind === "param" && b.path.length === 0) return b;
    }
  }
  return undefined;
}

/** `opts.path` or a destructured `{ path }` of a parameter: that parameter and the key. */
function optionsKey(a: Analysis, fn: Node, node: Node | undefined): { param: Binding & { kind: "param" }; key: string } | undefined {
  const u = node && unwrapExpression(node);
  if (!u) return undefined;
  if (Node.isIdentifier(u)) {
    const b = bind(a, u);
    if (b?.kind === "param" && b.fn === fn && b.path.length === 1) return { param: b, key: b.path[0]! };
    return undefined;
  }
  if (Node.isPropertyAccessExpression(u) && Node.isIdentifier(u.getExpression())) {
    const b = bind(a, u.getExpression());
    if (b?.kind === "param" && b.fn === fn && b.path.length === 0) return { param: b, key: u.getName() };
  }
  return undefined;
}

/** The transport calls made for a function: directly inside it, or in a thunk it hands to a call it returns. */
function ownCalls(fn: Node): CallExpression[] {
  return fn.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => runningFunction(c) === fn);
}

/** Where a marked call's own v1 base goes through its helper (v1-redirect.ts): the base leading the helper's URL. */
export function noteHelperAnchor(a: Analysis, fn: Node, parts: Part[], url: LocatedUrl, http: HttpCall): void {
  if (a.helperAnchors.has(fn)) return;
  // Over a helper given its base per call, by this helper's own base parameter (base-argument.ts).
  const handed = http.lib === "helper" ? handedBaseAnchor(a, fn, http) : undefined;
  if (handed) return void a.helperAnchors.set(fn, handed);
  // The base written at the head of the helper's own URL template (`\`https://…/v1${path}\``): the head.
  const head = parts[0]?.kind === "text" ? parts[0].node : undefined;
  if (!url.anchor && url.inlineBase && head && Node.isTemplateHead(head) && head.getLiteralText().startsWith(url.inlineBase) && head.getFirstAncestor((n) => n === fn)) {
    a.helperAnchors.set(fn, { node: head, value: url.inlineBase });
    return;
  }
  if (!url.anchor?.node || parts[0]?.kind !== "base" || parts[0].node !== url.anchor.node) return;
  // A base computed in another function (`${apiBase(env)}${path}`): its expression as the helper writes it, or none.
  const inHelper = parts[0].node.getSourceFile() === fn.getSourceFile() && !!parts[0].node.getFirstAncestor((n) => n === fn);
  const node = inHelper ? parts[0].node : http.urlNode ? localBaseExpression(a, http.urlNode, parts[0].node, http.call) : undefined;
  if (node) a.helperAnchors.set(fn, { node, value: url.anchor.value });
}

/**
 * A function is a request helper when one of its parameters is the path of an HTTP call on a
 * v1 base: `fetch(BASE + path, …)`, `this.fetchImpl(\`${this.baseURL}${path}\`)`, `axios.request({ url: path })`.
 */
export function helperSignature(a: Analysis, fn: Node): HelperSignature | null {
  if (a.helperCache.has(fn)) {
    readCached(a, "helper", fn);
    return a.helperCache.get(fn)!;
  }
  return computing(a, "helper", fn, () => newHelperSignature(a, fn));
}

function newHelperSignature(a: Analysis, fn: Node): HelperSignature | null {
  a.helperCache.set(fn, null);
  let sig: HelperSignature | null = null;
  for (const call of ownCalls(fn)) {
    // (`init.body = JSON.stringify(body)` written into its options variable before the send: that body.)
    const read = httpCall(a, call);
    const http = read && withWrittenBody(a, fn, read);
    // A helper over another helper (`apiGet(path) => request("GET", path)`) is a helper too.
    if (!http || !http.urlNode) continue;
    // Over a helper that is given another API's base here (`(path) => request(V2_BASE, path)`): no v1 helper.
    if (baseArgument(a, http)?.other) continue;
    const parts = resolveParts(http.urlNode, urlContext(a));
    const url = locate(parts, http.external);
    if (!url || !isDynamicPath(url)) continue;
    const hole = parts.find((p) => p.kind === "hole");
    if (!hole) continue;
    const inOptions = optionsKey(a, fn, hole.node);
    let pb: Binding | undefined;
    if (inOptions) pb = inOptions.param;
    else if (Node.isIdentifier(hole.node)) pb = bind(a, hole.node);
    if (pb?.kind !== "param" || pb.fn !== fn || (pb.path.length && !inOptions)) continue;
    const base = url.anchor?.value ?? url.inlineBase;
    // An inline base (`https://rest.runpod.io/v1${path}`) is its own source: the first literal piece;
    // over another helper, the base is that helper's.
    const baseSource = http.lib === "helper" ? http.helper!.baseSource : url.anchor?.node ? sourceLiteral(a, url.anchor.node) : parts[0]?.node;
    const baseSources = http.lib === "helper" ? http.helper!.baseSources : url.anchor?.node ? sourceLiterals(a, url.anchor.node) : undefined;
    sig = { kind: "helper", base, pathIndex: pb.index, returnsBody: false, serialisesBody: false, fn, baseSource, baseSources };
    if (parts[0]?.kind === "base" && parts[0].join === "url") sig.urlJoin = true;
    // `path.startsWith("http") ? path : \`${BASE}${path}\``: a caller's full URL is sent as it is (full-url-param.ts).
    const paramName = !inOptions && Node.isParameterDeclaration(pb.decl) ? pb.decl.getNameNode() : undefined;
    if (paramName && Node.isIdentifier(paramName) && takesFullUrl(a, http.urlNode, paramName)) sig.fullUrl = true;
    // A method reaching its transport through `this.<key>`: its base is each instance's, every one of them a source.
    const member = receiverMember(http, url.anchor?.node ?? undefined);
    if (member && Node.isPropertyAccessExpression(member)) {
      sig.receiverKey = member.getName();
      const all = heldSources(a, member, a.evaluator.evaluate(member));
      if (all?.length) sig.baseSources = [...new Set([...((sig.baseSources ?? [sig.baseSource]) as Node[]).filter(Boolean), ...all])];
    }
    // Known before the helper's file is planned, for callers planned earlier.
    noteHelperAnchor(a, fn, parts, url, http);
    const holeAt = parts.indexOf(hole);
    const between = parts.slice(url.anchor ? 1 : 0, holeAt).map((p) => (p.kind === "text" ? p.text : "")).join("").slice(url.anchor ? 0 : url.inlineBase.length);
    if (between === "/") sig.pathPrefix = "/";
    const typeNode = inOptions || axiosConfigForm(http, hole.node) ? undefined : ((pb.decl as any).getTypeNode?.() as Node | undefined);
    if (typeNode && !/^(string|any|unknown)$/.test(typeNode.getText())) sig.pathType = typeNode.getText();
    // `fetch(url)` given no init at all (or `undefined` for it): nothing of a caller's reaches the method, every call is a GET.
    const noOptions = http.method.kind === "default" && (!http.options || noOptionsValue(http.options));
    if (http.method.kind === "literal" || http.method.kind === "verb" || noOptions) {
      sig.defaultMethod = http.method.value;
      sig.fixedMethod = true;
    }
    const params = (fn as any).getParameters() as Node[];
    const method = methodParam(http.method.node);
    const mb = paramIndex(a, fn, method?.node);
    const bb = http.body ? paramIndex(a, fn, http.body.node) : undefined;
    if (!inOptions && axiosConfigForm(http, hole.node)) {
      // `call(config) => api.request(config)`: each caller's config carries its own url, method, data and params.
      Object.assign(sig, { configForm: true, pathKey: "url", optionsIndex: pb.index, methodKey: "method", bodyKey: "data", queryKeys: ["params"], serialisesBody: true });
      delete sig.defaultMethod, delete sig.fixedMethod;
    } else if (inOptions) {
      // `request({ path, method, body })`: one options argument carries all three.
      sig.pathKey = inOptions.key;
      sig.optionsIndex = pb.index;
      sig.methodKey = optionsKey(a, fn, http.method.node)?.key;
      sig.bodyKey = http.body ? optionsKey(a, fn, http.body.node)?.key : undefined;
      // `body: options.body != null ? JSON.stringify(options.body) : undefined`: the key the body is read from.
      const keys = !sig.bodyKey && http.body ? bodyOptionKeys(a, fn, pb.index, http.body.prop ?? http.body.node) : [];
      if (keys.length) sig.bodyKeys = keys;
      sig.dropsBody = !sig.bodyKey && !keys.length && !optionsParam(a, fn, http.options);
      sig.serialisesBody = serialises(http);
    } else if (mb?.kind === "param" && mb.path.length === 0 && !Node.isPropertyAccessExpression(method!.node)) {
      sig.methodIndex = mb.index;
      const init = (mb.decl as any).getInitializer?.() as Node | undefined;
      const lit = init ? literalText(unwrapExpression(init)) : method!.fallback;
      if (lit) sig.defaultMethod = lit.toUpperCase();
      const bodyKeys = bb?.kind === "param" && !isParamItself(a, fn, http.body!.node) ? bodyOptionKeys(a, fn, bb.index, http.body!.prop ?? http.body!.node) : [];
      if (bodyKeys.length) {
        // `api(method, path, opts)` sending `opts.body`: the body travels in the options, under its key.
        sig.optionsIndex = (bb as Binding & { kind: "param" }).index;
        sig.bodyKeys = bodyKeys;
      } else if (bb?.kind === "param") sig.bodyIndex = bb.index;
      else {
        const bodyParam = params.findIndex((p, i) => i !== pb.index && i !== mb.index && BODY_NAME.test((p as any).getName?.() ?? ""));
        if (bodyParam >= 0) sig.bodyIndex = bodyParam;
        // `methodRequest(method, path, opts)` spreading `opts` into an inner helper's options: its body keys.
        const handed = bodyParam < 0 ? handedOnBodyKeys(a, fn, http) : undefined;
        if (handed) Object.assign(sig, { optionsIndex: handed.index, bodyKeys: handed.keys });
      }
      sig.serialisesBody = serialises(http);
    } else if (bb?.kind === "param" && bb.path.length === 0 && Node.isIdentifier(unwrapExpression(http.body!.node))) {
      // The body is a parameter of its own: `post(path, data)`, `apiPost(path, body)`.
      sig.bodyIndex = bb.index;
      sig.serialisesBody = serialises(http);
    } else {
      // (Not a string, number or boolean parameter, a label or a flag: options are an object.)
      const other = params.findIndex((p, i) => i !== pb.index && i !== baseParamIndex(a, fn) && !usedOnlyAsText(p) && !primitiveTyped(p));
      const ob = mb ?? bb ?? optionsParam(a, fn, http.options) ?? (other >= 0 && !noOptions ? ({ kind: "param", index: other } as Binding) : undefined);
      if (ob?.kind === "param") sig.optionsIndex = ob.index;
      sig.serialisesBody = !!http.body?.stringify && bb?.kind === "param";
      // Options spread into the library's own config (`axios({ baseURL, url, ...options })`): a caller's body goes under the library's key, as the library takes it.
      const spreadKey = ob?.kind === "param" && !http.body ? spreadBodyKey(a, fn, ob.index, http) : undefined;
      if (spreadKey) Object.assign(sig, { bodyKey: spreadKey, serialisesBody: true });
      // The body built from option keys (`json`, `body`, `data`): calls are read under each of them.
      const keys = ob?.kind === "param" && http.body ? bodyOptionKeys(a, fn, ob.index, http.body.prop ?? http.body.node) : [];
      if (keys.length) sig.bodyKeys = keys;
      // `post(path, opts) => this.methodRequest("post", path, opts)`: the options take the inner helper's body keys.
      else if (ob?.kind === "param" && !http.body && handedOnBodyKeys(a, fn, http)?.index === ob.index) sig.bodyKeys = handedOnBodyKeys(a, fn, http)!.keys;
      // Built around a parameter it does not pass on as it is (`{ ...data, source }`): the caller's body cannot be converted.
      else if (http.body && bodyBuiltFromParam(a, fn, http.body.node)) sig.bodyBuiltFrom = shortExpression(http.body.node);
      // `fetch(url, { method, headers })` with nothing of the caller's options passed on: a body given to it goes nowhere.
      if (!http.body && !optionsParam(a, fn, http.options)) sig.dropsBody = true;
    }
    // A method of its own the helper reads from elsewhere (a factory's option): no call's method is known.
    if (http.method.kind === "unknown" && http.method.node && sig.methodIndex === undefined && !sig.methodKey && !sig.configForm && !mb) sig.methodUnknown = http.method.why ?? `the helper sends the method \`${shortExpression(http.method.node)}\`, set where the codemod cannot read it`;
    queryKeysOf(a, fn, sig, parts.slice(holeAt + 1), !http.body);
    if (sig.queryIndex === undefined && !sig.queryKeys && !sig.queryUnfollowed) handedOnQuery(a, fn, sig, http);
    if (sig.queryIndex === undefined && !sig.queryKeys) sig.queryIndex = transportQueryParam(a, fn, http);
    sig.transport = call;
    // Whether a method in the caller's options replaces the helper's own, by how it hands them on.
    if (sig.optionsIndex !== undefined && sig.methodIndex === undefined && !sig.methodKey && !sig.configForm) {
      const reach = optionsMethodReach(a, sig, sig.optionsIndex);
      if (reach) sig.optionsMethod = reach;
    }
    sig.returnsBody = returnsBody(a, http, fn);
    // `return schema.parse(await res.json())`: the body itself, validated by a schema (each call's own when a parameter).
    const parsed = sig.returnsBody ? undefined : schemaParsedBody(a, http, fn);
    if (parsed) {
      sig.returnsBody = true;
      if (parsed.param !== undefined) sig.schemaIndex = parsed.param;
      else sig.schema = parsed.schema;
    }
    // A helper returning its transport's answer as it is (`return fetch(…)`, `return this.instance.get<T>(url, config)`):
    // it is an HTTP call by convention, its callers read the answer as that library's.
    // An Observable returned as it is (`get<T>(path) { return this.http.get<T>(BASE + path) }`): its callers' streams are followed.
    if (http.observable && !sig.returnsBody && returnsValueOf(fn, http.call)) sig.observable = http.observable;
    const answer = !sig.returnsBody && !sig.observable && returnsValueOf(fn, http.call) ? answerLibOf(http) : undefined;
    if (answer) {
      sig.returnsResponse = true;
      if (answer !== "fetch") sig.answerLib = answer;
    }
    if (!sig.returnsBody && !sig.returnsResponse && !sig.observable) {
      const place = resultPlaceOf(a, http, fn);
      if (place && "key" in place) Object.assign(sig, { resultBodyKey: place.key, resultSuccess: place.success });
      if (place && "index" in place) sig.resultBodyIndex = place.index;
      const wrapper = place ? undefined : bodyWrapperOf(a, http, fn);
      if (wrapper) sig.resultWrapper = wrapper;
    }
    break;
  }
  a.helperCache.set(fn, sig);
  return sig;
}

/** The body is the parameter itself (`body`), not one of its keys (`opts.body`, a destructured `{ body }`). */
function isParamItself(a: Analysis, fn: Node, node: Node): boolean {
  const u = unwrapExpression(node);
  const b = Node.isIdentifier(u) ? bind(a, u) : undefined;
  return b?.kind === "param" && b.fn === fn && b.path.length === 0;
}

/** An axios call taking its whole config from the URL's hole (`api.request(config)`, `api(config)`): the config is the caller's. */
function axiosConfigForm(http: HttpCall, hole: Node): boolean {
  const u = http.urlNode && unwrapExpression(http.urlNode);
  return http.lib === "axios" && !!http.options && unwrapExpression(http.options) === u && unwrapExpression(hole) === u;
}

/** Whether the transport (or inner helper) serialises the body it is given (callers pass plain objects). */
function serialises(http: HttpCall): boolean {
  return !!http.body?.stringify || !!http.wrapper?.serialisesBody || http.lib === "axios" || http.lib === "superagent" || http.lib === "wretch" || http.lib === "got" || http.lib === "ky" || (http.lib === "helper" && http.helper!.serialisesBody);
}

/** A function that passes one of its parameters, unchanged, as the URL of a transport call. */
export function wrapperSignature(a: Analysis, fn: Node): WrapperSignature | null {
  if (a.wrapperCache.has(fn)) {
    readCached(a, "wrapper", fn);
    return a.wrapperCache.get(fn)!;
  }
  return computing(a, "wrapper", fn, () => newWrapperSignature(a, fn));
}

function newWrapperSignature(a: Analysis, fn: Node): WrapperSignature | null {
  a.wrapperCache.set(fn, null);
  let sig: WrapperSignature | null = null;
  const calls = fn.getDescendantsOfKind(SyntaxKind.CallExpression);
  for (const call of calls) {
    if (call === fn) continue;
    const http = httpCall(a, call);
    // (A superagent or wretch chain is read at its own call; a function around it is a request helper when its path is a parameter.)
    if (!http || http.lib === "helper" || http.lib === "convention" || http.lib === "superagent" || http.lib === "wretch" || !http.urlNode) continue;
    const ub = paramIndex(a, fn, http.urlNode);
    if (ub?.kind !== "param" || ub.path.length || !Node.isIdentifier(unwrapExpression(http.urlNode))) continue;
    const ob = http.options ? optionsParam(a, fn, http.options) : undefined;
    sig = { kind: "wrapper", fn, transport: call, lib: http.lib, urlIndex: ub.index, optionsIndex: ob?.kind === "param" && ob.path.length === 0 ? ob.index : undefined, returnsBody: false };
    a.wrapperCache.set(fn, sig);
    sig.returnsBody = runningFunction(call) === fn && returnsBody(a, http, fn);
    sig.returnsResponse = !sig.returnsBody && runningFunction(call) === fn && returnsValueOf(fn, call);
    Object.assign(sig, wrapperRequest(a, fn, http, sig.optionsIndex));
    break;
  }
  a.wrapperCache.set(fn, sig);
  return sig;
}

/**
 * A parameter the helper uses only inside strings (`Bearer ${key}`, `"/" + id`): it cannot carry
 * options (a method, a body, a query), so a caller's value there is not opaque options.
 */
function usedOnlyAsText(param: Node): boolean {
  const refs = plainParameterUses(param)?.refs;
  return !!refs && refs.length > 0 && refs.every((r) => {
    const up = skipParens(r).getParent();
    return !!up && (Node.isTemplateSpan(up) || (Node.isBinaryExpression(up) && up.getOperatorToken().getKind() === SyntaxKind.PlusToken && [up.getLeft(), up.getRight()].some((x) => Node.isStringLiteral(x) || Node.isTemplateExpression(x) || Node.isNoSubstitutionTemplateLiteral(x))));
  });
}

/** Reads a helper call: its path, method and body arguments (positional or in an options object). */
export function helperCall(a: Analysis, call: CallExpression, sig: HelperSignature, trail: Node[], args: Node[] = call.getArguments()): HttpCall {
  const config = sig.configForm && args[sig.pathIndex] && !objectLiteral(a, args[sig.pathIndex]) ? args[sig.pathIndex] : undefined;
  // (A config built elsewhere: its URL is not known here, the site is marked as a path computed at run time.)
  // (`send(stopRequest(id))`, `send(req)`: a descriptor a project builder returns, read where it is built.)
  // (`call(ROUTES.volumes)`: a plain route table's entry this send alone uses.)
  const given = sig.pathKey ? (objectLiteral(a, args[sig.pathIndex]) ?? (sig.configForm ? undefined : (wholeDescriptor(a, args[sig.pathIndex], [])?.literal ?? routeTableEntry(args[sig.pathIndex])))) : undefined;
  const pathArg = config ?? (sig.pathKey ? prop(given, sig.pathKey) : args[sig.pathIndex]);
  const out: HttpCall = { call, lib: "helper", helper: sig, urlNode: pathArg, method: { kind: "default", value: (sig.defaultMethod ?? "GET") as HttpCall["method"]["value"] }, bodyKey: "arg", trail };
  if (sig.observable) out.observable = sig.observable;
  // A full URL handed to a helper that sends one as it is: that URL, with no base before it.
  if (!(sig.fullUrl && writtenFullUrl(pathArg))) out.external = { value: sig.base + (sig.pathPrefix && !sig.base.endsWith("/") ? sig.pathPrefix : ""), node: null, join: sig.urlJoin ? "url" : "concat" };
  if (sig.methodUnknown) out.method = { kind: "unknown", why: sig.methodUnknown };
  if (sig.methodIndex !== undefined) out.method = methodOf(args[sig.methodIndex]) ?? out.method;
  if (sig.bodyIndex !== undefined && args[sig.bodyIndex]) out.body = bodyOf(args[sig.bodyIndex]!);
  if (sig.optionsIndex !== undefined) {
    // (`request(path, undefined, …)`: no options given, the helper's own method.)
    const raw = noOptionsValue(args[sig.optionsIndex]) ? undefined : args[sig.optionsIndex];
    const opts = objectLiteral(a, raw) ?? (sig.optionsIndex === sig.pathIndex ? given : undefined);
    out.options = opts ?? raw;
    // Options built elsewhere: what they carry (method, body, query) cannot be read here.
    if (raw && !opts) out.opaqueOptions = raw;
    if (sig.methodIndex === undefined) {
      const key = sig.methodKey ?? "method";
      // Options the helper spreads before its own method (`{ ...opts, method }`) cannot change it.
      const reach = sig.optionsMethod;
      // On a verb naming the helper's method (`client.get`), only a method in sight makes it unknown (outside-options.ts).
      const seen = raw && !opts && reach?.reaches !== false && optionsMayCarry(raw, key) ? verbOptionsMethod(a, call, sig, raw, key) : undefined;
      if (seen) out.method = { kind: "unknown", ...(reach ? { why: carriedWhy(raw!, reach.at, out.method.value, seen) } : {}) };
      // (A method in the caller's literal the helper overwrites is not the one sent.)
      if (reach?.reaches !== false) out.method = methodOf(prop(opts, key)) ?? out.method;
      // `{ query, ...options }` where the helper lets a caller's method win: the spread options may carry one.
      const spread = opts && reach?.reaches && out.method.kind !== "unknown" ? spreadCarrying(a, opts, key, (e) => verbOptionsMethod(a, call, sig, e, key)) : undefined;
      if (spread) out.method = { kind: "unknown", why: carriedWhy(spread.spread, reach!.at, out.method.value, spread.seen) };
    }
    if (sig.bodyIndex === undefined) {
      out.bodyKey = "body";
      const key = sig.bodyKey ?? sig.bodyKeys?.find((k) => prop(opts, k.key))?.key ?? "body";
      const b = prop(opts, key);
      if (b) out.body = bodyOf(b, (opts as any).getProperty(key));
      if (b && sig.bodyKeys?.find((k) => k.key === key)?.serialised) out.body!.stringify = true;
    }
  }
  return out;
}

/** Where a library takes the body in the config its options are spread into (fetch's `body` is the default already). */
const SPREAD_BODY_KEY: Partial<Record<string, string>> = { axios: "data", got: "json", ky: "json" };

/** The library's body key when `fn` spreads its parameter `index` into the transport call's options literal. */
function spreadBodyKey(a: Analysis, fn: Node, index: number, http: HttpCall): string | undefined {
  const key = SPREAD_BODY_KEY[http.lib];
  const opts = http.options && unwrapExpression(http.options);
  if (!key || !opts || !Node.isObjectLiteralExpression(opts)) return undefined;
  const spreads = opts.getProperties().filter((p) => Node.isSpreadAssignment(p));
  return spreads.some((p) => {
    const e = unwrapExpression((p as any).getExpression());
    const b = Node.isIdentifier(e) ? bind(a, e) : undefined;
    return b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 0;
  }) ? key : undefined;
}
