// Calls by convention in the shape OpenAPI client generators emit: a request function (any name)
// given a config object whose `url` is a route template of the API (`'/pods/{podId}'`, OpenAPI-style
// placeholders) beside `method`, `path`, `query` and `body` keys, with the base found by value:
// openapi-typescript-codegen's `__request(OpenAPI, { method: 'GET', url: '/pods/{podId}', path: { podId } })`
// (the base is the config object's `BASE`), @hey-api's `client.get({ url: '/pods/{podId}', ...options })`
// on a client made with `baseUrl` (convention.ts reads the base; this module reads the config).
// The placeholders are filled from `path` by the generated code, so the template is the v1 path: it
// migrates like any literal path, its placeholder names kept where the `path` object is not written
// at the call. Such code answers the parsed body (openapi-typescript-codegen) or `{ data, error }`
// (hey-api), and serialises a JSON body itself.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import type { Analysis } from "../state.ts";
import { bind, objectLiteral, prop, type External } from "../values.ts";
import { enclosingFunction, isFunctionLike } from "../scope.ts";
import { generatorOf } from "../generated-client.ts";
import { references } from "../references.ts";
import { unwrapExpression } from "../urls.ts";
import { baseIn } from "../evaluate/bases.ts";
import { optionsOf } from "../evaluate/value.ts";
import type { HttpCall } from "./transport.ts";
import { nameFor, V1_BASE_NAME, type Redirect } from "../v1-redirect.ts";
import { replaceNode } from "../text-edit.ts";

/** Keys of a generator's config object that hold the API base (`OpenAPI.BASE`, a client's `baseUrl`). */
const CONFIG_BASE_KEYS = ["BASE", "baseUrl", "baseURL", "base"];
/** Keys beside `url` that make an object a request config rather than any object with a URL. */
const REQUEST_KEYS = ["method", "path", "query", "body", "mediaType", "errors", "headers"];

/** A request config written at the call: `{ url: '/pods/{podId}', method, path, query, body }`, with its `url` literal. */
export function routeConfig(a: Analysis, arg: Node | undefined, verb: boolean): { config: Node; url: Node } | undefined {
  if (!arg || Node.isSpreadElement(arg)) return undefined;
  const config = objectLiteral(a, arg);
  if (!config || !Node.isObjectLiteralExpression(config)) return undefined;
  const url = prop(config, "url");
  const lit = url && unwrapExpression(url);
  if (!lit || !(Node.isStringLiteral(lit) || Node.isNoSubstitutionTemplateLiteral(lit)) || !lit.getLiteralValue().startsWith("/")) return undefined;
  // A verb of a client (`client.get({ url })`) says it is a request; a plain function needs a request key beside the URL.
  if (!verb && !REQUEST_KEYS.some((k) => prop(config, k))) return undefined;
  return { config, url: lit };
}

/** The v1 base another argument of the call holds under a base key (`OpenAPI` whose `BASE` is the v1 base). */
function configBase(a: Analysis, call: CallExpression, except: Node): (External & { key: string }) | undefined {
  for (const arg of call.getArguments()) {
    if (arg === except || Node.isSpreadElement(arg)) continue;
    for (const option of optionsOf(a.evaluator.evaluate(arg))) {
      for (const key of CONFIG_BASE_KEYS) {
        const found = baseIn(a.evaluator.property(arg, option, key));
        if (!found) continue;
        a.baseSource.set(found.source, found.source);
        accountBaseReads(a, call, key);
        return { value: found.value, node: found.source, join: "concat", key };
      }
    }
  }
  return undefined;
}

/** `__request(OpenAPI, { method, url: '/pods/{podId}', … })`: a call site, or undefined. */
export function routeConfigCall(a: Analysis, call: CallExpression, trail: Node[]): HttpCall | undefined {
  if (call.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)) return undefined;
  const args = call.getArguments();
  for (const arg of args) {
    const rc = routeConfig(a, arg, false);
    if (!rc) continue;
    const external = configBase(a, call, arg);
    if (!external) return undefined;
    const out: HttpCall = { call, lib: "convention", external, method: { kind: "default", value: "GET" }, bodyKey: "body", trail, style: "body" };
    readRouteConfig(a, out, rc);
    // A marked call keeps v1 with a config of its own: `__request({ ...OpenAPI, BASE: RUNPOD_V1_BASE }, …)`.
    const configArg = args.find((x) => x !== arg)!;
    out.ownRedirect = () => configRedirect(configArg, external);
    return out;
  }
  return undefined;
}

/** Fills a call's URL, method, body and options from its request config. */
export function readRouteConfig(a: Analysis, out: HttpCall, rc: { config: Node; url: Node }): void {
  out.urlNode = rc.url;
  out.options = rc.config;
  out.routeConfig = true;
  out.jsonSerialiser = "route-config";
  out.bodyKey = "body";
  out.bodyKeyUnknown = false;
  const method = prop(rc.config, "method");
  const lit = method && unwrapExpression(method);
  if (lit && (Node.isStringLiteral(lit) || Node.isNoSubstitutionTemplateLiteral(lit))) out.method = { kind: "literal", value: lit.getLiteralValue().toUpperCase() as HttpMethod, node: lit };
  else if (method) out.method = { kind: "unknown", node: method };
  const body = prop(rc.config, "body");
  if (body) out.body = { node: body, stringify: false, prop: (rc.config as any).getProperty("body") };
  else out.body = undefined;
}

/**
 * The request function's own reads of its config's base (`config.BASE` in the generated `getUrl`):
 * when every call of the function is a generated request (a route config at each), those reads
 * serve these calls only, so they are not uses that keep the base v1.
 */
function accountBaseReads(a: Analysis, call: CallExpression, key: string): void {
  const callee = unwrapExpression(call.getExpression());
  const b = Node.isIdentifier(callee) ? bind(a, callee) : undefined;
  const init = b?.kind === "var" && b.init ? unwrapExpression(b.init) : undefined;
  const fn = b?.kind === "function" ? b.decl : init && isFunctionLike(init) ? init : undefined;
  const name = b && fn ? ((b.decl as any).getNameNode?.() as Node | undefined) : undefined;
  if (!fn || !name || !Node.isIdentifier(name)) return;
  if (!closedRequest(a, fn, name)) return;
  for (const read of fn.getSourceFile().getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    if (read.getName() !== key) continue;
    const holder = unwrapExpression(read.getExpression());
    const hb = Node.isIdentifier(holder) ? bind(a, holder) : undefined;
    if (hb?.kind !== "param" || hb.path.length) continue;
    a.accounted.add(read);
    a.accounted.add(read.getNameNode());
  }
}

const closedRequests = new WeakMap<Node, boolean>();

/** Every call of the request function `fn` (named `name`) gives it a route config: its callers are the sites. */
function closedRequest(a: Analysis, fn: Node, name: Node): boolean {
  const memo = closedRequests.get(fn);
  if (memo !== undefined) return memo;
  closedRequests.set(fn, false);
  const closed = references(name).every((r) => {
    if (r === name || r.getFirstAncestor((x) => Node.isImportDeclaration(x) || Node.isExportDeclaration(x))) return true;
    const use = r.getParent();
    return !!use && Node.isCallExpression(use) && use.getExpression() === r && use.getArguments().some((arg) => routeConfig(a, arg, false));
  });
  closedRequests.set(fn, closed);
  return closed;
}

/**
 * The transport call inside a generated client's request function (`fetch(url, …)` in its `request`)
 * whose every call gives it a route config: that function's callers are the sites, not this call.
 */
export function servesGeneratedRequests(a: Analysis, call: CallExpression): boolean {
  if (!generatorOf(call.getSourceFile())) return false;
  for (let fn = enclosingFunction(call); fn; fn = enclosingFunction(fn)) {
    const holder = Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) ? fn.getParent() : fn;
    const name = holder && (Node.isVariableDeclaration(holder) || Node.isFunctionDeclaration(holder)) ? holder.getNameNode() : undefined;
    if (name && Node.isIdentifier(name) && closedRequest(a, fn, name)) return true;
    if (Node.isSourceFile(fn)) break;
  }
  return false;
}

/** The config argument replaced by a copy holding the declared v1 base under its base key. */
function configRedirect(configArg: Node, external: External & { key: string }): Redirect | undefined {
  const target = nameFor(external.value);
  if (!target || target.slash || target.name !== V1_BASE_NAME) return undefined;
  const u = unwrapExpression(configArg);
  // An earlier run's copy already holds it.
  if (Node.isObjectLiteralExpression(u) && u.getProperties().some((p) => Node.isPropertyAssignment(p) && p.getName() === external.key && unwrapExpression(p.getInitializer()!).getText() === V1_BASE_NAME)) return { edits: [], names: [V1_BASE_NAME] };
  return { edits: [replaceNode(configArg, `{ ...${configArg.getText()}, ${external.key}: ${V1_BASE_NAME} }`)], names: [V1_BASE_NAME] };
}
