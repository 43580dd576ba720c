// Whether a request helper's fetch says the body is JSON, for a body a call passes through the
// helper's options (`send(path, { method: "POST", body })`): fetch sends a string body as
// text/plain unless told otherwise, and v2 refuses that (415). The helper sets the header itself
// ("sets": its headers name Content-Type), or lets the caller's headers through ("passes": it
// hands its options on whole, or spreads their `headers` into its own), or neither (undefined:
// the call cannot add the header, and is marked).
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { bind, objectLiteral, prop } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { headersFact } from "./json-headers.ts";

export type HelperHeaders = "sets" | "passes" | undefined;

/** Whether `node` reads the helper's options parameter (`init`, `init.headers`, `init?.headers ?? {}`). */
function readsParam(a: Analysis, fn: Node, node: Node | undefined, index: number): boolean {
  let n = node && unwrapExpression(node);
  while (n && (Node.isBinaryExpression(n) && ["??", "||"].includes(n.getOperatorToken().getText()))) n = unwrapExpression(n.getLeft());
  while (n && (Node.isPropertyAccessExpression(n) || Node.isElementAccessExpression(n))) n = unwrapExpression(n.getExpression());
  if (!n || !Node.isIdentifier(n)) return false;
  const b = bind(a, n);
  return b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 0;
}

/** Headers naming Content-Type, also in a spread object (`...(json !== undefined ? { "Content-Type": … } : {})`). */
function namesContentType(h: Node): boolean {
  if (!Node.isObjectLiteralExpression(h)) return false;
  return h.getProperties().some((p) => {
    if (/^["'`]?content-type["'`]?$/i.test((p as any).getName?.() ?? "")) return true;
    if (!Node.isSpreadAssignment(p)) return false;
    const e = unwrapExpression(p.getExpression());
    const branches = Node.isConditionalExpression(e) ? [e.getWhenTrue(), e.getWhenFalse()] : [e];
    return branches.some((b) => namesContentType(unwrapExpression(b)));
  });
}

export function helperHeaders(a: Analysis, fn: Node, http: HttpCall, optionsIndex: number): HelperHeaders {
  // Over another helper: what that one does, when these options are the ones handed to it.
  if (http.lib === "helper") return http.options && readsParam(a, fn, http.options, optionsIndex) ? http.helper!.jsonHeader : undefined;
  // Libraries that serialise the body themselves say JSON themselves.
  if (http.lib !== "fetch" && http.lib !== "undici-request") return "sets";
  if (!http.options) return undefined;
  if (readsParam(a, fn, http.options, optionsIndex)) return "passes";
  const opts = objectLiteral(a, http.options);
  if (!opts || !Node.isObjectLiteralExpression(opts)) return undefined;
  const spreadsOptions = opts.getProperties().some((p) => Node.isSpreadAssignment(p) && readsParam(a, fn, p.getExpression(), optionsIndex));
  const headers = prop(opts, "headers");
  if (!headers) return spreadsOptions ? "passes" : undefined;
  const h = objectLiteral(a, headers);
  if (h && Node.isObjectLiteralExpression(h)) {
    if (namesContentType(h)) return "sets";
    if (h.getProperties().some((p) => Node.isSpreadAssignment(p) && readsParam(a, fn, p.getExpression(), optionsIndex))) return "passes";
    return undefined;
  }
  return headersFact(a, headers) === "json" ? "sets" : undefined;
}
