// axios: `axios(config)`, `axios(url, config)`, `axios.get/post/…(url, [data], config)`,
// `axios.request(config)`, and instances from `axios.create({ baseURL })`.
import { Node } from "../../ts-morph.ts";
import type { Transport } from "./transport.ts";
import { bind, external, objectLiteral, prop } from "../values.ts";
import type { Analysis } from "../state.ts";
import { unwrapExpression } from "../urls.ts";
import { valueKind } from "../nodes.ts";
import { optionsOf } from "../evaluate/value.ts";
import { wholeDescriptor } from "../descriptors.ts";

/** The keys of an axios config that say which request it is (a literal spreading a descriptor must leave them to it). */
const CONFIG_KEYS = ["url", "method", "data", "params"];

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);

export const axiosTransport: Transport = {
  lib: "axios",
  fromModule: (module, name) => (module === "axios" && (name === "*" || name === "default" || name === "axios") ? { lib: "axios" } : undefined),
  verb: (name) => (VERBS.has(name) ? { verb: name } : name === "request" ? {} : undefined),
  instanceBaseKeys: (method) => (method === "create" ? ["baseURL"] : undefined),
  parts(a, args, verb, instance, member) {
    const first = args[0] && objectLiteral(a, args[0]);
    if (verb) {
      const hasData = verb === "post" || verb === "put" || verb === "patch";
      const options = args[hasData ? 2 : 1];
      return { urlNode: args[0], options, bodyKey: "arg", bodyArg: hasData ? args[1] : undefined, external: external(a, objectLiteral(a, options), ["baseURL"], "slash") ?? instance };
    }
    if (!first && args.length === 1 && isSentConfig(a, args[0]!)) return { bodyKey: "data", resend: true };
    // A request descriptor given whole (`axios(d)`, `api.request({ ...d, baseURL })`): its config is the literal its builder returns.
    const whole = args.length === 1 ? wholeDescriptor(a, args[0], CONFIG_KEYS) : undefined;
    if (whole) {
      const base = whole.outer ? external(a, whole.outer, ["baseURL"], "slash") : undefined;
      return { urlNode: prop(whole.literal, "url"), options: whole.literal, bodyKey: "data", external: base ?? external(a, whole.literal, ["baseURL"], "slash") ?? instance };
    }
    // A config object built elsewhere (`api(podRequest(id))`, `api.request(config)`: request takes nothing else): its URL, method and base are in it.
    if (!first && args.length === 1 && (member === "request" || valueKind(args[0]!) === "object" || givenObjects(a, args[0]!))) return { urlNode: args[0], options: args[0], bodyKey: "data", external: instance };
    const [urlNode, options] = first && args.length === 1 ? [prop(first, "url"), first] : [args[0], args[1]];
    return { urlNode, options, bodyKey: "data", external: external(a, objectLiteral(a, options), ["baseURL"], "slash") ?? instance };
  },
};

/** Untyped, but every value it can hold is an object (each caller of the function passes an object literal): a config. */
function givenObjects(a: Analysis, arg: Node): boolean {
  const options = optionsOf(a.evaluator.evaluate(arg));
  return options.length > 0 && options.every((o) => o.kind === "object");
}

/**
 * The config of a request already sent, as axios hands it back on an error or a response
 * (`error.config`, `const { config } = error`, `err.response.config`, a value typed
 * `InternalAxiosRequestConfig`): calling axios with it re-sends that request (a retry), with the
 * URL and base it was sent with. A config built elsewhere for a new request is not one.
 */
function isSentConfig(a: Analysis, arg: Node, depth = 0): boolean {
  const n = unwrapExpression(arg);
  if (typeNamed(n, ["InternalAxiosRequestConfig"])) return true;
  if (depth > 4) return false;
  if (Node.isPropertyAccessExpression(n)) return n.getName() === "config" && carriesSentRequest(a, n.getExpression(), depth + 1);
  if (!Node.isIdentifier(n)) return false;
  const b = bind(a, n);
  if ((b?.kind === "var" || b?.kind === "param") && b.path.length) {
    if (b.path[b.path.length - 1] !== "config") return false;
    if (b.path.length > 1) return b.path[b.path.length - 2] === "response" && carrierOf(a, b, depth);
    return carrierOf(a, b, depth);
  }
  return b?.kind === "var" && !!b.init && isSentConfig(a, b.init, depth + 1);
}

/** Whether what a destructuring binding takes `config` from is an axios error or response. */
function carrierOf(a: Analysis, b: { kind: "var" | "param"; decl: Node }, depth: number): boolean {
  if (b.kind === "var") {
    const init = (b as { init?: Node }).init;
    return !!init && carriesSentRequest(a, init, depth + 1);
  }
  return isErrorOrResponseParam(b.decl);
}

/** An axios error or response: a caught error, the argument of an interceptor or promise callback, or a value typed so. */
function carriesSentRequest(a: Analysis, expr: Node, depth: number): boolean {
  const n = unwrapExpression(expr);
  if (typeNamed(n, ["AxiosError", "AxiosResponse"])) return true;
  if (depth > 6) return false;
  if (Node.isPropertyAccessExpression(n)) return n.getName() === "response" && carriesSentRequest(a, n.getExpression(), depth + 1);
  if (!Node.isIdentifier(n)) return false;
  const b = bind(a, n);
  if (!b) return false;
  if (b.kind === "catch") return true;
  if (b.kind === "param" && !b.path.length) return isErrorOrResponseParam(b.decl);
  return b.kind === "var" && !b.path.length && !!b.init && carriesSentRequest(a, b.init, depth + 1);
}

/** A parameter of a callback given to `.use(…)` (an interceptor), `.catch(…)` or `.then(…)`. */
function isErrorOrResponseParam(param: Node): boolean {
  const fn = param.getParent();
  const call = fn?.getParent();
  if (!fn || !call || !Node.isCallExpression(call) || !call.getArguments().includes(fn as never)) return false;
  const callee = call.getExpression();
  return Node.isPropertyAccessExpression(callee) && ["use", "catch", "then"].includes(callee.getName());
}

function typeNamed(n: Node, names: string[]): boolean {
  try {
    const t = n.getType();
    const members = t.isUnion() ? t.getUnionTypes() : [t];
    return members.some((m) => names.includes(m.getAliasSymbol()?.getName() ?? m.getSymbol()?.getName() ?? ""));
  } catch {
    return false;
  }
}
