// Transports: what a callee is (fetch and its aliases, undici, axios/got/ky and their
// instances, a project's wrapper around one of them, or a request helper) and how to read an
// HTTP call's URL, method, body and options from its arguments, per library.
import { Node, type CallExpression } from "../ts-morph.ts";
import type { HttpMethod } from "../../mappings/index.ts";
import type { HelperSignature } from "../types.ts";
import { isFunctionLike } from "../scope.ts";
import { memberMethod, classOfMember, memberValues } from "../symbols.ts";
import { literalText, unwrapExpression } from "../urls.ts";
import type { Analysis, WrapperSignature } from "./state.ts";
import { bind, external, objectLiteral, prop, type External } from "./values.ts";
import { helperSignature, helperCall, wrapperSignature, factoryResult } from "./helpers.ts";

export type Lib = "fetch" | "undici-request" | "axios" | "got" | "ky" | "openapi-fetch";
export type Root =
  | { lib: Lib; instance?: External; wrapper?: WrapperSignature; factory?: Node }
  | { lib: "undici-ns" }
  | { lib: "helper"; sig: HelperSignature; name: string };

const FETCH_MODULES = new Set(["node-fetch", "cross-fetch", "isomorphic-fetch", "make-fetch-happen", "undici-fetch"]);
const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);
const GLOBALS = ["globalThis", "window", "global", "self"];

export interface HttpCall {
  call: CallExpression;
  lib: Lib | "helper";
  helper?: HelperSignature;
  urlNode?: Node;
  external?: External;
  method: { value?: HttpMethod; node?: Node; kind: "literal" | "default" | "verb" | "unknown" };
  /** Options object where a body / method could be added. */
  options?: Node;
  body?: { node: Node; stringify: boolean; prop?: Node };
  /** Where a fixed body goes for this library. */
  bodyKey: "body" | "data" | "json" | "arg";
  /** Nodes the callee was resolved through (they are followed uses when the site is planned). */
  trail: Node[];
  /** Set when the callee is a project's wrapper around the library. */
  wrapper?: WrapperSignature;
}

function moduleRoot(module: string, name: string): Root | undefined {
  if (FETCH_MODULES.has(module)) return { lib: "fetch" };
  if (module === "axios") return name === "*" || name === "default" || name === "axios" ? { lib: "axios" } : undefined;
  if (module === "got") return { lib: "got" };
  if (module === "ky" || module === "ky-universal") return { lib: "ky" };
  if (module === "openapi-fetch") return name === "default" || name === "createClient" || name === "*" ? { lib: "openapi-fetch" } : undefined;
  if (module === "undici") {
    if (name === "fetch") return { lib: "fetch" };
    if (name === "request") return { lib: "undici-request" };
    if (name === "*" || name === "default") return { lib: "undici-ns" };
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

/** The root of a value expression (an alias's initializer, a member's assigned value). */
function valueRoot(a: Analysis, value: Node, name: string, trail: Node[], depth: number): Root | undefined {
  const init = unwrapExpression(value);
  if (isFunctionLike(init)) return functionRoot(a, init, name);
  // `globalThis.fetch || require("node-fetch")`, `opts.fetch ?? fetch`: either side.
  if (Node.isBinaryExpression(init) && ["||", "??"].includes(init.getOperatorToken().getText())) {
    return rootOf(a, init.getRight(), trail, depth + 1) ?? rootOf(a, init.getLeft(), trail, depth + 1);
  }
  if (Node.isConditionalExpression(init)) return rootOf(a, init.getWhenTrue(), trail, depth + 1) ?? rootOf(a, init.getWhenFalse(), trail, depth + 1);
  if (Node.isCallExpression(init)) {
    const callee = unwrapExpression(init.getExpression());
    // openapi-fetch: `createClient<paths>({ baseUrl })` makes a client whose paths are typed templates.
    const made0 = Node.isIdentifier(callee) ? rootOf(a, callee, [], depth + 1) : undefined;
    if (made0?.lib === "openapi-fetch" && !("instance" in made0 && made0.instance)) {
      return { lib: "openapi-fetch", instance: external(a, objectLiteral(a, init.getArguments()[0]), ["baseUrl"], "slash"), factory: init };
    }
    if (Node.isIdentifier(callee) && callee.getText() === "require") {
      const arg = init.getArguments()[0];
      const m = arg && literalText(arg);
      if (m) return moduleRoot(m, "default");
    }
    if (Node.isPropertyAccessExpression(callee)) {
      const parent = rootOf(a, callee.getExpression(), trail, depth + 1);
      const method = callee.getName();
      const config = objectLiteral(a, init.getArguments()[0]);
      if (parent?.lib === "axios" && method === "create") return { lib: "axios", instance: external(a, config, ["baseURL"], "slash") ?? ("instance" in parent ? parent.instance : undefined) };
      if ((parent?.lib === "got" && method === "extend") || (parent?.lib === "ky" && (method === "create" || method === "extend"))) {
        return { lib: parent.lib, instance: external(a, config, ["prefixUrl"], "slash") ?? ("instance" in parent ? parent.instance : undefined) };
      }
    }
    // A factory: `const request = createRequest(key)` where createRequest returns a helper.
    const made = factoryResult(a, init);
    if (made) return functionRoot(a, made, name);
  }
  if (Node.isIdentifier(init) || Node.isPropertyAccessExpression(init)) return rootOf(a, init, trail, depth + 1);
  return undefined;
}

/** What a callee's root value is: a known HTTP library, an instance of one, a wrapper, or a helper. */
export function rootOf(a: Analysis, node: Node, trail: Node[] = [], depth = 0): Root | undefined {
  const n = unwrapExpression(node);
  if (depth > 6) return undefined;
  trail.push(n);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (!b) return n.getText() === "fetch" ? { lib: "fetch" } : undefined;
    if (b.kind === "import") return moduleRoot(b.module, b.name);
    if (b.kind === "function") return functionRoot(a, b.decl, n.getText());
    if (b.kind === "var" && b.init && b.path.length === 0) return valueRoot(a, b.init, n.getText(), trail, depth);
    if (b.kind === "param" && b.path.length === 0) {
      const init = (b.decl as any).getInitializer?.() as Node | undefined;
      if (init) return valueRoot(a, init, n.getText(), trail, depth);
    }
    return undefined;
  }
  if (Node.isPropertyAccessExpression(n)) {
    const obj = unwrapExpression(n.getExpression());
    const name = n.getName();
    if (Node.isIdentifier(obj) && GLOBALS.includes(obj.getText()) && name === "fetch" && !bind(a, obj)) return { lib: "fetch" };
    if (Node.isIdentifier(obj)) {
      const b = bind(a, obj);
      if (b?.kind === "import" && b.name === "*") {
        const lib = moduleRoot(b.module, "*");
        if (lib?.lib === "undici-ns") return name === "fetch" ? { lib: "fetch" } : name === "request" ? { lib: "undici-request" } : undefined;
        if (lib) return lib;
        const target = a.resolve?.(obj.getSourceFile().getFilePath(), b.module);
        const fn = target?.getFunction(name);
        if (fn) return functionRoot(a, fn, n.getText());
        const v = target?.getVariableDeclaration(name)?.getInitializer();
        if (v) return valueRoot(a, v, n.getText(), trail, depth);
        return undefined;
      }
    }
    // A class member: `this.fetchImpl`, `this.api` (an axios instance), `this.request` (a helper).
    const method = memberMethod(n);
    if (method) return functionRoot(a, method, n.getText());
    const cls = classOfMember(n);
    if (cls) {
      for (const v of memberValues(cls, name)) {
        const r = valueRoot(a, v, n.getText(), trail, depth);
        if (r) return r;
      }
      return undefined;
    }
    const parent = rootOf(a, obj, trail, depth + 1);
    if (parent?.lib === "undici-ns") return name === "fetch" ? { lib: "fetch" } : name === "request" ? { lib: "undici-request" } : undefined;
    if (parent?.lib === "axios" && name === "default") return parent;
  }
  return undefined;
}

function methodOf(m: Node | undefined): HttpCall["method"] | undefined {
  if (!m) return undefined;
  const lit = literalText(unwrapExpression(m));
  return lit !== undefined ? { kind: "literal", value: lit.toUpperCase() as HttpMethod, node: unwrapExpression(m) } : { kind: "unknown", node: m };
}

function stringified(node: Node): Node | undefined {
  const n = unwrapExpression(node);
  if (Node.isCallExpression(n) && n.getExpression().getText() === "JSON.stringify" && n.getArguments()[0]) return n.getArguments()[0]!;
  // `body ? JSON.stringify(body) : undefined`, `body && JSON.stringify(body)`
  if (Node.isConditionalExpression(n)) return stringified(n.getWhenTrue()) ?? stringified(n.getWhenFalse());
  if (Node.isBinaryExpression(n) && ["&&", "??", "||"].includes(n.getOperatorToken().getText())) return stringified(n.getRight());
  return undefined;
}

export function bodyOf(node: Node, propNode?: Node): HttpCall["body"] {
  const inner = stringified(node);
  return inner ? { node: inner, stringify: true, prop: propNode } : { node, stringify: false, prop: propNode };
}

/** Reads an HTTP call's URL, method, body and options. */
export function httpCall(a: Analysis, call: CallExpression): HttpCall | undefined {
  const callee = unwrapExpression(call.getExpression());
  const args = call.getArguments();
  const trail: Node[] = [];
  let root = rootOf(a, callee, trail);
  let verb: string | undefined;
  let verbNode: Node | undefined;
  if (!root && Node.isPropertyAccessExpression(callee)) {
    const parent = rootOf(a, callee.getExpression(), trail);
    const name = callee.getName();
    if (parent?.lib === "openapi-fetch" && "instance" in parent && /^(GET|POST|PUT|PATCH|DELETE)$/.test(name)) {
      root = parent;
      verb = name;
      verbNode = callee.getNameNode();
    } else if (parent && (parent.lib === "axios" || parent.lib === "got" || parent.lib === "ky") && (VERBS.has(name) || name === "request")) {
      root = parent;
      if (name !== "request") {
        verb = name;
        verbNode = callee.getNameNode();
      }
    }
  }
  if (!root || root.lib === "undici-ns") return undefined;
  if (root.lib === "helper") return helperCall(a, call, root.sig, trail);
  const lib = root.lib;
  const instance = root.instance;
  const wrapper = root.wrapper;
  const out: HttpCall = { call, lib, method: { kind: "default", value: "GET" }, bodyKey: lib === "axios" ? "data" : lib === "got" || lib === "ky" ? "json" : "body", trail, wrapper };
  let options: Node | undefined;
  if (wrapper) {
    out.urlNode = args[wrapper.urlIndex];
    options = wrapper.optionsIndex !== undefined ? args[wrapper.optionsIndex] : undefined;
  } else if (lib === "openapi-fetch") {
    out.urlNode = args[0];
    options = args[1];
    out.external = instance;
    out.bodyKey = "body";
  } else if (lib === "fetch" || lib === "undici-request") {
    out.urlNode = args[0];
    options = args[1];
  } else if (lib === "axios") {
    const first = args[0] && objectLiteral(a, args[0]);
    if (verb) {
      out.urlNode = args[0];
      const hasData = verb === "post" || verb === "put" || verb === "patch";
      options = args[hasData ? 2 : 1];
      if (hasData && args[1]) out.body = { node: args[1], stringify: false };
      out.bodyKey = "arg";
    } else if (first && args.length === 1) {
      options = first;
      out.urlNode = prop(first, "url");
    } else {
      out.urlNode = args[0];
      options = args[1];
    }
    out.external = external(a, objectLiteral(a, options), ["baseURL"], "slash") ?? instance;
  } else {
    const first = args[0] && objectLiteral(a, args[0]);
    if (first && args.length === 1 && !verb) {
      options = first;
      out.urlNode = prop(first, "url");
    } else {
      out.urlNode = args[0];
      options = args[1];
    }
    out.external = external(a, objectLiteral(a, options), ["prefixUrl"], "slash") ?? instance;
  }
  const opts = objectLiteral(a, options);
  out.options = opts ?? options;
  if (verb) out.method = { kind: "verb", value: verb.toUpperCase() as HttpMethod, node: verbNode };
  if (lib === "openapi-fetch") out.options = opts ?? options;
  else if (options && !opts) out.method = { kind: "unknown" };
  else out.method = methodOf(prop(opts, "method")) ?? out.method;
  if (opts && out.bodyKey !== "arg") {
    const b = prop(opts, out.bodyKey);
    if (b) out.body = bodyOf(b, (opts as any).getProperty(out.bodyKey) as Node);
  }
  return out;
}

export { methodOf };
