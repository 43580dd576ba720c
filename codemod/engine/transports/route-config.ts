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
import { objectLiteral, prop, type External } from "../values.ts";
import { unwrapExpression } from "../urls.ts";
import { baseIn } from "../evaluate/bases.ts";
import { optionsOf } from "../evaluate/value.ts";
import type { HttpCall } from "./transport.ts";

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
function configBase(a: Analysis, call: CallExpression, except: Node): External | undefined {
  for (const arg of call.getArguments()) {
    if (arg === except || Node.isSpreadElement(arg)) continue;
    for (const option of optionsOf(a.evaluator.evaluate(arg))) {
      for (const key of CONFIG_BASE_KEYS) {
        const found = baseIn(a.evaluator.property(arg, option, key));
        if (!found) continue;
        a.baseSource.set(found.source, found.source);
        return { value: found.value, node: found.source, join: "concat" };
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
