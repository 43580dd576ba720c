// superagent: `request.get/post/put/patch/del/delete(url)`, `request(method, url)`, `request(url)`,
// then a builder chain: `.send(body)` (several merge), `.query(obj | string)`, `.set(…)` headers,
// `.type(…)`; the chain's end is awaited or `.then`-ed and the answer's body is `res.body`.
// superagent rejects on a status outside 2xx (`err.status`, `err.response.body`). The site's call
// is the chain's end, so the answer is read where the code reads it; URL, method, body and query
// come from the links of the chain.
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import { literalText, unwrapExpression } from "../urls.ts";
import type { HttpCall, Transport } from "./transport.ts";
import { skipParens } from "../nodes.ts";

const VERBS: Record<string, HttpMethod> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", del: "DELETE", delete: "DELETE", head: "HEAD" as HttpMethod };
/** Links that only configure the request (auth, timeouts, retries, TLS): nothing in them changes between v1 and v2. */
export const CONFIG = new Set(["set", "accept", "timeout", "retry", "ok", "redirects", "auth", "withCredentials", "ca", "cert", "key", "pfx", "agent", "disableTLSCerts", "trustLocalhost", "http2", "unset", "sortQuery", "maxResponseSize"]);
/** Links that end the chain as a promise of the answer. */
export const PROMISE_LINKS = new Set(["then", "catch", "finally"]);

export const superagentTransport: Transport = {
  lib: "superagent",
  fromModule: (module, name) => (module === "superagent" && (name === "*" || name === "default" || name === "request") ? { lib: "superagent" } : undefined),
  verb: (name) => (name in VERBS ? { verb: name } : undefined),
  // `request.agent()`: an agent keeps cookies and defaults, and requests like the library.
  instanceBaseKeys: (method) => (method === "agent" ? [] : undefined),
  // Not used: `superagentCall` reads the whole chain.
  parts: () => ({ bodyKey: "arg" }),
};

/** The links after the request call, in order, up to the end of the chain (`then`/`catch`/`finally` excluded). */
function links(first: CallExpression): { name: string; call: CallExpression }[] {
  const out: { name: string; call: CallExpression }[] = [];
  let cur: Node = first;
  for (;;) {
    const p = skipParens(cur).getParent();
    const c = p?.getParent();
    if (!p || !Node.isPropertyAccessExpression(p) || !c || !Node.isCallExpression(c) || c.getExpression() !== p) break;
    if (PROMISE_LINKS.has(p.getName())) break;
    out.push({ name: p.getName(), call: c });
    cur = c;
  }
  return out;
}

/** A superagent request and its chain. `verb`: the member called on the library (`post`), undefined for `request(…)`. */
export function superagentCall(call: CallExpression, verb: string | undefined, trail: Node[]): HttpCall | undefined {
  const args = call.getArguments();
  let method: HttpCall["method"];
  let urlNode: Node | undefined;
  if (verb) {
    urlNode = args[0];
    method = { kind: "verb", value: VERBS[verb]!, node: (call.getExpression() as any).getNameNode?.() };
  } else if (args.length >= 2 && typeof args[1] !== "function") {
    // `request("POST", url)`
    const m = literalText(unwrapExpression(args[0]!));
    urlNode = args[1];
    method = m !== undefined ? { kind: "literal", value: m.toUpperCase() as HttpMethod, node: unwrapExpression(args[0]!) } : { kind: "unknown", node: args[0] };
  } else {
    urlNode = args[0];
    method = { kind: "default", value: "GET" };
  }
  if (!urlNode || Node.isSpreadElement(urlNode)) return undefined;
  const chain = links(call);
  const sends = chain.filter((l) => l.name === "send").map((l) => l.call);
  const queries = chain.filter((l) => l.name === "query").map((l) => l.call);
  const unread = chain.filter((l) => !["send", "query", "type"].includes(l.name) && !CONFIG.has(l.name)).map((l) => ({ name: l.name, node: l.call }));
  const end = chain.at(-1)?.call ?? call;
  const out: HttpCall = { call: end, lib: "superagent", urlNode, method, bodyKey: "arg", trail, builder: { request: call, sends, queries, types: chain.filter((l) => l.name === "type" || (l.name === "set" && /content-type/i.test(literalText(unwrapExpression(l.call.getArguments()[0] ?? l.call)) ?? ""))).map((l) => l.call), unread } };
  const firstSend = sends[0]?.getArguments()[0];
  if (sends.length === 1 && firstSend) out.body = { node: withoutEmptyDefault(firstSend), stringify: false };
  return out;
}

/** `.send(body ?? {})`, `.send(body || {})`: the body is `body` (nothing, or an empty object, otherwise). */
function withoutEmptyDefault(n: Node): Node {
  const u = unwrapExpression(n);
  if (Node.isBinaryExpression(u) && ["??", "||"].includes(u.getOperatorToken().getText())) {
    const r = unwrapExpression(u.getRight());
    if (Node.isObjectLiteralExpression(r) && r.getProperties().length === 0) return u.getLeft();
  }
  return n;
}

/** What stands between a superagent body and a v2 JSON body: undefined when it is sent as JSON. */
export function superagentBodyProblem(http: HttpCall): { reason: string; brief: string } | undefined {
  const b = http.builder!;
  if (b.sends.length > 1) return { reason: `the body is sent in ${b.sends.length} .send() calls that superagent merges, so it cannot be converted in one place`, brief: `the body is split over ${b.sends.length} .send() calls` };
  for (const t of b.types) {
    const value = literalText(unwrapExpression(t.getArguments().at(-1) ?? t)) ?? "";
    if (!/^(json|application\/json\b.*)$/i.test(value)) return { reason: `the request sets its type to ${value || t.getArguments().at(-1)?.getText()}, and v2 takes only JSON bodies`, brief: `Content-Type ${value || "set at run time"} is not JSON` };
  }
  const body = http.body && unwrapExpression(http.body.node);
  // superagent sends a string as a form unless a type says otherwise.
  if (body && !b.types.length && (Node.isStringLiteral(body) || Node.isTemplateExpression(body) || Node.isNoSubstitutionTemplateLiteral(body) || isStringTyped(body))) return { reason: "superagent sends a string body as a form (application/x-www-form-urlencoded), and v2 takes only JSON bodies", brief: "the string body goes as a form, not JSON" };
  return undefined;
}

function isStringTyped(n: Node): boolean {
  try {
    const t = n.getType();
    return t.isString() || t.isStringLiteral();
  } catch {
    return false;
  }
}

/** The query object (or string) of a superagent chain: the only `.query(…)`, else undefined (several are marked). */
export function superagentQuery(http: HttpCall): Node | undefined {
  const q = http.builder?.queries;
  return q?.length === 1 ? q[0]!.getArguments()[0] : undefined;
}
