// A transport handed in from outside the run: a function the project calls on a parameter it never
// fills itself (a framework adapter's context, `ctx.fetchJson(url, { method, headers, body })`).
// It is a call by convention when it receives a URL on a v1 base AND something at the call says it
// sends a request: request options beside the URL (`method`, `headers`, a body key, `signal`), or an
// answer the code reads (awaited, its fields or `.json()` / `.ok` read). A function given a v1 URL
// with neither (a logger, a store: `ctx.note(url)`, `ctx.remember(url, { at })`) is not a call.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import { locate, resolveParts, unwrapExpression } from "../urls.ts";
import type { Analysis } from "../state.ts";
import { bind, objectLiteral, prop, urlContext } from "../values.ts";
import { optionsOf } from "../evaluate/value.ts";

/** Option keys that only a request's options carry (RequestInit's and the conventional body keys). */
const REQUEST_KEYS = ["method", "headers", "body", "json", "data", "signal"];
const BODY_KEYS = ["body", "json", "data"];
/** Names that take a URL and send nothing. */
const NOT_REQUESTS = /^(log|info|warn|error|debug|trace|note|track|record|remember|store|save|set|emit|report|assert|expect|open|navigate|push|redirect)/i;

/** The parameter binding a callee hangs off (`ctx` of `ctx.fetchJson`, `fetchJson` of `({ fetchJson })`). */
function injectedRoot(a: Analysis, callee: Node): boolean {
  let root = callee;
  while (Node.isPropertyAccessExpression(root)) root = unwrapExpression(root.getExpression());
  if (!Node.isIdentifier(root)) return false;
  const b = bind(a, root);
  if (b?.kind !== "param") return false;
  // A bare parameter called as a function is a request helper handed in (handed-function.ts reads it).
  return Node.isPropertyAccessExpression(callee) || b.path.length > 0;
}

/** The member name a callee is called by (`fetchJson`). */
export function injectedName(callee: Node): string {
  return Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
}

/**
 * A call of an injected transport: the callee hangs off a parameter no call in the run fills with
 * anything the evaluator can see (every value of it is unknown), its first argument is a URL on a
 * v1 base, and its options show a request ("options") or, with none, its answer is read ("reads":
 * a call whose sending is in doubt, so it is marked).
 */
export function injectedTransport(a: Analysis, call: CallExpression, reads: string[] | undefined): "options" | "reads" | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) && !Node.isIdentifier(callee)) return undefined;
  if (NOT_REQUESTS.test(injectedName(callee)) || !injectedRoot(a, callee)) return undefined;
  // Something the run sees (the project's own function, a library) is read by the other rules.
  if (!optionsOf(a.evaluator.evaluate(callee)).every((o) => o.kind === "dynamic")) return undefined;
  const [first, second] = call.getArguments();
  if (!first || Node.isSpreadElement(first)) return undefined;
  const url = locate(resolveParts(first, urlContext(a)), undefined);
  if (!url || url.path === "" || url.problem) return undefined;
  const opts = objectLiteral(a, second);
  if (opts && REQUEST_KEYS.some((k) => prop(opts, k) !== undefined)) return "options";
  // No request options, but its answer is read (`reads`: the members read off it here; a logger's or a
  // store's is not): it may send the request or only look the URL up (a cache): a site, marked.
  return reads?.length ? "reads" : undefined;
}

/** Members of a fetch Response: an answer read only through these is one. */
const RESPONSE_MEMBERS = new Set(["ok", "status", "statusText", "headers", "json", "text", "blob", "arrayBuffer", "redirected", "url"]);

/**
 * What an injected transport answers, by the reads of its answer (not by its name): a Response when
 * the code reads only a response's members (`.json()`, `.ok`, `.status`), the parsed body when it
 * reads none of them (record or list fields, `.id`); undefined when the reads mix both (or there are
 * none here): its form is not known and a used answer is marked (rewrites/answer-form.ts).
 */
export function injectedStyle(reads: string[] | undefined): "json" | "body" | undefined {
  if (!reads?.length) return undefined;
  const response = reads.filter((r) => RESPONSE_MEMBERS.has(r)).length;
  if (response === reads.length) return "json";
  return response === 0 ? "body" : undefined;
}

/**
 * How the run's other calls of the same transport (the same name on a parameter, in the same file)
 * send a body: `{ key: "body", stringify: true }` for `body: JSON.stringify(x)`, or undefined where
 * none sends one or they disagree. A call adding a v2 action body sends it that way.
 */
export function learnedBodyKey(call: CallExpression): { key: string; stringify: boolean } | undefined {
  const callee = unwrapExpression(call.getExpression());
  const name = injectedName(callee);
  const seen = new Set<string>();
  for (const other of call.getSourceFile().getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const c = unwrapExpression(other.getExpression());
    if ((!Node.isPropertyAccessExpression(c) && !Node.isIdentifier(c)) || injectedName(c) !== name) continue;
    const opts = unwrapExpression(other.getArguments()[1] ?? other);
    if (!Node.isObjectLiteralExpression(opts)) continue;
    for (const key of BODY_KEYS) {
      const v = prop(opts, key);
      if (!v) continue;
      const inner = unwrapExpression(v);
      const stringify = Node.isCallExpression(inner) && inner.getExpression().getText() === "JSON.stringify";
      seen.add(`${key}:${stringify}`);
    }
  }
  if (seen.size !== 1) return undefined;
  const [key, s] = [...seen][0]!.split(":");
  return { key: key!, stringify: s === "true" };
}
