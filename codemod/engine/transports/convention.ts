// HTTP calls by convention, for clients the engine has no module for: a verb method (`get`, `post`,
// `put`, `patch`, `delete`, `request`) of an object made, by any factory, from options carrying a
// v1 base under a base-like key (`createAxios({ baseURL })`, `createRunpodHttpClient({ baseUrl })`),
// or any call of a package function whose first argument is a URL on a v1 base (`$fetch(url, …)`).
// Method: the verb, or a `method` option. Body: the `body` / `data` / `json` option, or the verb's
// positional data. How the answer is read (`.data`, `.json()`, or the awaited value itself) is
// taken from the code that reads it.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import { locate, resolveParts, unwrapExpression } from "../urls.ts";
import type { Analysis } from "../state.ts";
import { objectLiteral, optionProp, prop, seenOptions, urlContext, type External } from "../values.ts";
import { BASE_KEYS, baseIn } from "../evaluate/bases.ts";
import { optionsOf, type Value } from "../evaluate/value.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { enclosingFunction } from "../scope.ts";
import type { HttpCall } from "./transport.ts";
import { observableEmits } from "../observable-answer.ts";
import { readRouteConfig, routeConfig } from "./route-config.ts";
import { optionRedirect } from "../v1-redirect.ts";
import { declaredAnswer, type DeclaredAnswer } from "./declared-answer.ts";
import { injectedStyle, learnedBodyKey } from "./injected-transport.ts";

export { BASE_KEYS };
const VERBS = new Set(["get", "post", "put", "patch", "delete", "del", "head", "request", "fetch"]);
const DATA_VERBS = new Set(["post", "put", "patch"]);
const BODY_KEYS = ["json", "data", "body"];

/** The option node of a made object's config (`baseURL: …` in `createX({ baseURL: … })`). */
function optionNode(a: Analysis, made: Value & { kind: "made" }, key: string): Node | undefined {
  if (!Node.isCallExpression(made.call) && !Node.isNewExpression(made.call)) return undefined;
  for (const arg of made.call.getArguments()) {
    const obj = objectLiteral(a, arg);
    const v = obj && prop(obj, key);
    if (v) return v;
  }
  return undefined;
}

/** An object made from options with a v1 base under a base-like key: the base, as an instance's external base. */
export function madeWithBase(a: Analysis, receiver: Node): External | undefined {
  for (const option of optionsOf(a.evaluator.evaluate(receiver))) {
    if (option.kind !== "made") continue;
    for (const key of BASE_KEYS) {
      const node = optionNode(a, option, key);
      if (!node) continue;
      const found = baseIn(a.evaluator.evaluate(node));
      if (found) {
        a.baseSource.set(unwrapExpression(node), found.source);
        return { value: found.value, node, join: "slash" };
      }
    }
  }
  return undefined;
}

/**
 * The method a callee's name gives by convention: the verb itself (`post`, `GET`), a verb prefix
 * (`postJson`, `patch_json`: the verb, then a word boundary) or a known short form (`del`).
 */
export function verbMethod(verb: string): HttpMethod | undefined {
  const m = /^(delete|del|get|post|put|patch)(?=$|[A-Z0-9_$])/.exec(verb) ?? /^(DELETE|GET|POST|PUT|PATCH)$/.exec(verb);
  if (!m) return undefined;
  const v = m[1]!.toLowerCase();
  return v === "del" ? "DELETE" : (v.toUpperCase() as HttpMethod);
}

/** The verb prefix of a callee's name (`post` of `postJson`), as written. */
export function verbPrefix(verb: string): string | undefined {
  return verbMethod(verb) ? /^(delete|del|get|post|put|patch)/i.exec(verb)![1] : undefined;
}

/** Names that take their method from options (or send GET, as fetch does), not from the name. */
const OPTION_METHOD_NAMES = new Set(["request", "fetch", "raw", "native"]);

/** The members the code reads off this call's awaited answer, where it is held here (undefined: returned or handed on). */
export function answerReads(call: Node): string[] | undefined {
  const outer = skipParens(call);
  const awaited = outer.getParent() && Node.isAwaitExpression(outer.getParent()!) ? skipParens(outer.getParent()!) : outer;
  const reads: string[] = [];
  const up = awaited.getParent();
  if (up && Node.isPropertyAccessExpression(up)) reads.push(up.getName());
  if (up && Node.isVariableDeclaration(up)) {
    const name = up.getNameNode();
    if (Node.isIdentifier(name)) {
      for (const r of referencesOf(enclosingFunction(up), name)) {
        const p = r.getParent();
        if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === r) reads.push(p.getName());
      }
    } else if (Node.isObjectBindingPattern(name)) reads.push(...name.getElements().map((e) => e.getPropertyNameNode()?.getText() ?? e.getName()));
  }
  return reads.length ? reads : undefined;
}

/** `.data`, `.json()` or the value itself: how the code reads this call's answer. */
function answerStyle(reads: string[] | undefined): HttpCall["style"] {
  // Nothing reads it here (returned, passed on): how it is read is not known.
  if (!reads) return undefined;
  if (reads.includes("data")) return "data";
  if (reads.includes("json")) return "json";
  // Members of a response, not of a v1 body (no v1 answer has one): `result` is where typed-rest-client
  // and @actions/http-client put the body (`{ statusCode, result, headers }`).
  if (reads.some((r) => ["ok", "status", "statusCode", "headers", "body", "text", "result"].includes(r))) return undefined;
  return "body";
}

/**
 * The style a library's declared answer gives: the body itself, the body under a member (read as
 * axios's `data` is), or a response object, read as the code reads it only where that names one of
 * its body readers (`json()`); a response object read otherwise is not the body.
 */
function declaredStyle(declared: DeclaredAnswer | undefined, read: HttpCall["style"]): HttpCall["style"] {
  if (!declared) return read;
  if (declared.form === "body") return "body";
  if (declared.form === "member") return "data";
  return read === "json" && declared.members.has("json") ? "json" : undefined;
}

/** The package whose factory made the receiver of a verb call (`createClient` of `@hey-api/client-fetch`). */
function madeByModule(a: Analysis, call: CallExpression): string | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  for (const o of optionsOf(a.evaluator.evaluate(callee.getExpression()))) {
    if (o.kind !== "made" || !Node.isCallExpression(o.call)) continue;
    for (const m of optionsOf(a.evaluator.evaluate(o.call.getExpression()))) if (m.kind === "module") return m.module;
  }
  return undefined;
}

/** Reads a call made by convention: URL, method, options and body. */
export function conventionCall(a: Analysis, call: CallExpression, verb: string | undefined, external: External | undefined, trail: Node[], injected = false): HttpCall | undefined {
  const args = call.getArguments();
  const urlNode = args[0];
  if (!urlNode || Node.isSpreadElement(urlNode)) return undefined;
  const ofetch = ofetchCallee(a, call);
  // ofetch answers the parsed body itself, however the code reads it.
  // Else the library's declarations say (`getJson<T>` answers `{ result: T | null, … }`); without them, the reads around the call.
  const declared = ofetch ? undefined : declaredAnswer(a, call);
  const reads = answerReads(call);
  const style = ofetch ? "body" : injected ? injectedStyle(reads) : declaredStyle(declared, answerStyle(reads));
  const out: HttpCall = { call, lib: "convention", urlNode, external, method: { kind: "default", value: "GET" }, bodyKey: "arg", trail, style, jsonSerialiser: ofetch ? "ofetch" : undefined };
  if (declared?.form === "member" && declared.key !== "data") out.answerKey = declared.key;
  if (declared?.form === "member" && declared.nullable) out.answerNullable = true;
  // A response object read through a method of its that promises the text (`await res.readBody()`): read as fetch's `text()`.
  const textReader = declared?.form === "response" ? reads?.find((r) => declared.textReaders.has(r)) : undefined;
  if (textReader) (out.style = "json"), (out.textReader = textReader);
  // Angular's HttpClient, @nestjs/axios: the answer is an Observable, followed through its operators.
  const observable = ofetch ? undefined : observableEmits(call);
  if (observable) out.observable = observable;
  // Its body or axios's response, whatever the reads around the call look like.
  if (observable === "body") out.style = "body";
  else if (observable === "response") out.style = "data";
  const m = verb ? verbMethod(verb) : undefined;
  if (m) out.method = { kind: "verb", value: m, node: (call.getExpression() as any).getNameNode?.() };
  // A method name that gives no verb (`send`, `call`): its method is not known, never GET by default.
  // An injected transport named for fetching (`fetchJson`, `requestJson`), or given the URL alone, takes it from its options as fetch does (GET without).
  else if (verb && !OPTION_METHOD_NAMES.has(verb) && !(injected && (/^(fetch|request)(?=$|[A-Z0-9_$])/.test(verb) || args.length === 1))) out.method = { kind: "unknown" };
  // `client.get({ url: '/pods/{podId}', ...options })`: a generated client's request config.
  const rc = routeConfig(a, urlNode, !!m || verb === "request");
  if (rc) {
    readRouteConfig(a, out, rc);
    if (m) out.method = { kind: "verb", value: m, node: (call.getExpression() as any).getNameNode?.() };
    // hey-api's clients answer `{ data, error, response }`.
    if (!out.style && external?.node && /hey-api/.test(madeByModule(a, call) ?? "")) out.style = "data";
    // A marked call keeps v1 with a base of its own, under the key the client was made with (`{ baseUrl: RUNPOD_V1_BASE, url, … }`).
    const made = external?.node?.getParent();
    if (external) out.ownRedirect = () => optionRedirect(call, made && Node.isPropertyAssignment(made) ? made.getName() : "baseUrl", undefined, external.value, rc.config);
    return out;
  }
  let options = args[1];
  const dataVerb = !!m && DATA_VERBS.has(m.toLowerCase());
  if (dataVerb && args[1]) {
    const obj = objectLiteral(a, args[1]);
    // (Options carrying the base, `post(url, { baseURL, … })`, are options too.)
    const keyed = obj && [...BODY_KEYS, ...BASE_KEYS].some((k) => prop(obj, k));
    // `post(url, data, config)` or `post(url, { json: data })`: which one is read off the argument.
    if (!keyed) {
      out.body = { node: args[1], stringify: false };
      options = args[2];
    }
  }
  const opts = objectLiteral(a, options);
  out.options = opts ?? options;
  if (!m) {
    // Options a helper returns (`rpOpts()`, `{ ...rpOpts() }`) are read where the helper writes them.
    const seen = opts ?? seenOptions(a, options);
    const method = optionProp(a, seen, "method").node;
    const lit = method && unwrapExpression(method);
    if (lit && (Node.isStringLiteral(lit) || Node.isNoSubstitutionTemplateLiteral(lit))) out.method = { kind: "literal", value: lit.getLiteralValue().toUpperCase() as HttpMethod, node: lit };
    else if (method || (options && !seen)) out.method = { kind: "unknown", node: method };
  }
  if (!out.body && opts) {
    const key = BODY_KEYS.find((k) => prop(opts, k));
    if (key) {
      out.bodyKey = key as HttpCall["bodyKey"];
      const b = prop(opts, key)!;
      const inner = unwrapExpression(b);
      const stringified = Node.isCallExpression(inner) && inner.getExpression().getText() === "JSON.stringify";
      out.body = { node: stringified ? inner.getArguments()[0]! : b, stringify: stringified, prop: (opts as any).getProperty(key) };
    } else if (!m || dataVerb) {
      out.bodyKey = m ? "arg" : ofetch ? "body" : "json";
      // `https.request(url, { method, headers }, cb)`: a function whose options show no body key takes its body who knows where (Node's: `req.end(data)`).
      out.bodyKeyUnknown = !m && !ofetch;
      // An injected transport takes a body the way its other calls in the file send one (`body: JSON.stringify(x)`).
      const learned = injected ? learnedBodyKey(call) : undefined;
      if (learned && (learned.key !== "body" || learned.stringify)) (out.bodyKey = learned.key as HttpCall["bodyKey"]), (out.bodyKeyUnknown = false);
    }
  }
  if (!opts && options && !out.body && dataVerb) out.bodyKey = "arg";
  return out;
}

/** A package function's call whose own options carry a v1 base under a base-like key (`$fetch(path, { baseURL })`): that base. */
export function optionBase(a: Analysis, call: CallExpression): External | undefined {
  const [first, second] = call.getArguments();
  if (!first || !second || call.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)) return undefined;
  if (!packageCallee(a, call)) return undefined;
  const opts = seenOptions(a, second);
  for (const key of BASE_KEYS) {
    // Also from a spread of a helper's options (`{ ...runpodOpts() }`): the helper's literal holds the key.
    const node = opts && optionProp(a, opts, key).node;
    const found = node && baseIn(a.evaluator.evaluate(node));
    if (!node || !found) continue;
    a.baseSource.set(unwrapExpression(node), found.source);
    return { value: found.value, node, join: "slash" };
  }
  return undefined;
}

/** The callee is a package's function (an import, or an object a package made), not the project's own code. */
function packageCallee(a: Analysis, call: CallExpression): boolean {
  const callee = unwrapExpression(call.getExpression());
  const root = Node.isPropertyAccessExpression(callee) ? unwrapExpression(callee.getExpression()) : callee;
  return optionsOf(a.evaluator.evaluate(root)).every((o) => o.kind === "module" || o.kind === "made" || (o.kind === "dynamic" && /global/.test(o.why)));
}

/** A call of a package function (not the project's own code) whose first argument is a URL on a v1 base. */
export function urlFirstCall(a: Analysis, call: CallExpression): boolean {
  const first = call.getArguments()[0];
  if (!first || call.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)) return false;
  const callee = unwrapExpression(call.getExpression());
  const root = Node.isPropertyAccessExpression(callee) ? unwrapExpression(callee.getExpression()) : callee;
  const v = a.evaluator.evaluate(root);
  if (!optionsOf(v).every((o) => o.kind === "module" || o.kind === "made" || (o.kind === "dynamic" && /global/.test(o.why)))) return false;
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  // Loggers, test helpers and schema defaults take URLs too; they are not requests.
  if (/^(log|info|warn|error|debug|trace|assert|expect|describe|it|test|default|url|string|parse|describe|env)$/i.test(name)) return false;
  const url = locate(resolveParts(first, urlContext(a)), undefined);
  return !!url && url.path !== "" && !url.problem;
}

export { VERBS as CONVENTION_VERBS };

/** Packages whose instances take the base per request under the key they were made with. */
const PER_REQUEST_BASE = new Set(["ofetch", "ohmyfetch"]);

/** ofetch's `$fetch` / `ofetch` or an instance it made (`ofetch.create(…)`), called directly: it answers the parsed body, takes `body` and a base per request. */
export function ofetchCallee(a: Analysis, call: CallExpression): boolean {
  const callee = unwrapExpression(call.getExpression());
  if (Node.isPropertyAccessExpression(callee)) return false;
  const fromOfetch = (n: Node) => optionsOf(a.evaluator.evaluate(n)).every((l) => l.kind === "module" && PER_REQUEST_BASE.has(l.module));
  // `let client = null; … client ??= ofetch.create(…)`: the null it starts as is never called.
  const options = optionsOf(a.evaluator.evaluate(callee)).filter((o) => !(o.kind === "dynamic" && o.node.getKind() === SyntaxKind.NullKeyword));
  return options.length > 0 && options.every((o) => {
    if (o.kind === "module") return PER_REQUEST_BASE.has(o.module);
    if (o.kind !== "made" || !Node.isCallExpression(o.call)) return false;
    const maker = unwrapExpression(o.call.getExpression());
    return fromOfetch(Node.isPropertyAccessExpression(maker) ? maker.getExpression() : maker);
  });
}

/** The option key a marked call of an instance can keep its v1 base under (`ofetch.create({ baseURL })` → `baseURL`), where the package honours it per request. */
export function perRequestBaseKey(a: Analysis, http: HttpCall): string | undefined {
  const key = http.external?.node?.getParent();
  if (!key || !Node.isPropertyAssignment(key) || !ofetchCallee(a, http.call)) return undefined;
  // A base in the call's own options serves this call only: it stays as written (do-no-harm keeps it v1).
  if (http.external!.node!.getFirstAncestor((n) => n === http.call)) return undefined;
  return key.getName();
}
