// A wrapper (a function passing its URL parameter on to a transport, helpers.ts) that builds the
// rest of the request itself: `postJson(url, body) => fetch(url, { method: "POST", body: JSON.stringify(body) })`,
// `send(method, url, body) => fetch(url, { method, body })`, `post(url, data) => axios.post(url, data)`.
// What its transport sends (method, body) is what each call says in those parameters, or the
// wrapper's own; read as a plain `fetch(url)` every call would be a GET with no body.
import { Node } from "../ts-morph.ts";
import type { HttpMethod } from "../../mappings/index.ts";
import { literalText, unwrapExpression } from "./urls.ts";
import { bind } from "./values.ts";
import { methodParam } from "./helper-method.ts";
import { bodyOf, methodOf } from "./transports/call-parts.ts";
import type { HttpCall } from "./transports/transport.ts";
import type { Analysis, WrapperSignature } from "./state.ts";

type WrapperRequest = Pick<WrapperSignature, "fixedMethod" | "methodIndex" | "defaultMethod" | "methodUnknown" | "bodyIndex" | "serialisesBody" | "bodyUnknown">;

/** The wrapper's parameter a node is (the parameter itself, not one of its keys). */
function ownParam(a: Analysis, fn: Node, node: Node | undefined): (Node & { getInitializer?(): Node | undefined }) | undefined {
  const u = node && unwrapExpression(node);
  if (!u || !Node.isIdentifier(u)) return undefined;
  const b = bind(a, u);
  return b?.kind === "param" && b.fn === fn && b.path.length === 0 ? (b.decl as any) : undefined;
}

function paramIndexOf(fn: Node, decl: Node): number {
  return ((fn as any).getParameters() as Node[]).indexOf(decl);
}

/**
 * How the wrapper's own transport call sends its method and body, when the caller's options do not
 * reach it (no options parameter): fixed by the wrapper, taken from one of its parameters, or not known.
 */
export function wrapperRequest(a: Analysis, fn: Node, http: HttpCall, optionsIndex: number | undefined): WrapperRequest {
  if (optionsIndex !== undefined) return {};
  const out: WrapperRequest = {};
  const m = http.method;
  if (m.kind === "literal" || m.kind === "verb") out.fixedMethod = m.value;
  else if (m.kind === "unknown") {
    const given = methodParam(m.node);
    const decl = ownParam(a, fn, given?.node);
    if (decl) {
      out.methodIndex = paramIndexOf(fn, decl);
      const init = decl.getInitializer?.();
      const lit = init ? literalText(unwrapExpression(init)) : given!.fallback;
      if (lit) out.defaultMethod = lit.toUpperCase() as HttpMethod;
    } else out.methodUnknown = true;
  }
  if (http.body) {
    const decl = ownParam(a, fn, http.body.node);
    if (decl) {
      out.bodyIndex = paramIndexOf(fn, decl);
      out.serialisesBody = http.body.stringify || (http.lib !== "fetch" && http.lib !== "undici-request");
    } else out.bodyUnknown = true;
  }
  return out;
}

/** A call of such a wrapper: the method and body its transport sends, from the call's arguments. */
export function readWrapperRequest(out: HttpCall, args: Node[]): void {
  const w = out.wrapper;
  if (!w || w.optionsIndex !== undefined) return;
  if (w.fixedMethod) out.method = { kind: "literal", value: w.fixedMethod, node: w.transport };
  else if (w.methodIndex !== undefined) out.method = methodOf(args[w.methodIndex]) ?? (w.defaultMethod ? { kind: "default", value: w.defaultMethod } : { kind: "unknown" });
  else if (w.methodUnknown) out.method = { kind: "unknown", why: "the wrapper sets the method from something other than its arguments" };
  if (w.bodyIndex !== undefined) {
    out.bodyKey = "arg";
    const arg = args[w.bodyIndex];
    if (arg) out.body = bodyOf(arg);
  }
}
