// Do no harm for request builders: a call recognised by its URL whose result is then chained with
// methods the engine does not read as the answer (`.send(…)`, `.query(…)`, `.field(…)`,
// `.attach(…)`, …) may add a body, query parameters or headers the codemod never sees. Such a site
// is marked naming the link, never counted as migrated. A library the engine knows as a builder
// (superagent) reads its own links and names only the ones it cannot read.
import { Node } from "../ts-morph.ts";
import type { HttpCall } from "./transports/transport.ts";
import type { Problems } from "./rewrites/problems.ts";
import { skipParens } from "./nodes.ts";

/** Links that read a library's answer (besides `then` / `catch` / `finally`, which every promise has). */
const READS: Partial<Record<HttpCall["lib"], string[]>> = {
  got: ["json", "text", "buffer"],
  ky: ["json", "text", "blob", "arrayBuffer", "formData"],
  convention: ["json", "text"],
};
const PROMISE = ["then", "catch", "finally"];

/** The links chained on the call's result that the codemod does not read. */
function unreadLinks(http: HttpCall): { name: string; node: Node }[] {
  if (http.builder) return http.builder.unread;
  if (http.wretch) return http.wretch.unread;
  // A project's helper or wrapper returns what the project decides; its callers are followed elsewhere.
  if (http.lib === "helper" || http.wrapper) return [];
  // An Observable's `.pipe(…)` / `.subscribe(…)` read its values (observable-flow.ts follows them).
  if (http.observable) return [];
  const p = skipParens(http.call).getParent();
  const c = p?.getParent();
  if (!p || !Node.isPropertyAccessExpression(p) || !c || !Node.isCallExpression(c) || c.getExpression() !== p) return [];
  const name = p.getName();
  return PROMISE.includes(name) || READS[http.lib]?.includes(name) ? [] : [{ name, node: c }];
}

/** A problem per link the codemod cannot read. */
export function builderChainProblems(http: HttpCall): Problems {
  const own: Problems = (http.wretch?.problems ?? []).map((p) => ({ ...p, advice: "migrate this call by hand (path, method, body, query and record reads; see docs/mapping.md)" }));
  const names = [...new Set(unreadLinks(http).map((l) => l.name))];
  if (!names.length) return own;
  const shown = names.map((n) => `.${n}(…)`).join(", ");
  return [...own, {
    reason: `the request is chained with ${shown}, which the codemod cannot read: it may add a body, query parameters or headers, or read the answer in its own way`,
    advice: "migrate this call by hand (path, method, body, query and record reads; see docs/mapping.md)",
    brief: `${shown} on the request cannot be read by the codemod`,
  }];
}
