// Rewrite: the HTTP method v2 uses (`POST …/update` → `PATCH`), as a verb (`axios.post` →
// `axios.patch`) or a method literal (keeping its case).
import type { OperationMapping } from "../../../mappings/index.ts";
import { literalText } from "../urls.ts";
import { edit, quoteOf, siteEdits, type Analysis, type Plan } from "../state.ts";
import { methodTypeFor } from "./method-type.ts";

const quote = (a: Analysis, at: import("../../ts-morph.ts").Node) => quoteOf(a, at);
import type { HttpCall } from "../transports/index.ts";
import type { Problems } from "./problems.ts";
import { verbPrefix } from "../transports/convention.ts";
import { siblingVerb } from "./sibling-verb.ts";

export function changeMethod(plan: Plan, http: HttpCall, op: OperationMapping): void {
  const to = op.v2!.method;
  const node = http.method.node;
  let sibling: import("../../ts-morph.ts").Node | undefined;
  if (http.method.kind === "verb" && node) {
    const upper = node.getText() === node.getText().toUpperCase();
    // `postJson` → `patchJson`: a verb prefix changes, the rest of the name stays.
    const prefix = http.lib === "convention" ? verbPrefix(node.getText()) : undefined;
    const rest = prefix ? node.getText().slice(prefix.length) : "";
    edit(plan, node, { start: node.getStart(), end: node.getEnd(), text: upper ? to : to.toLowerCase() + rest });
  } else if (http.method.kind === "literal" && node) {
    // A helper's method parameter typed without v2's method is widened once, or the site is marked.
    const typed = methodTypeFor(plan.a, http, node, to);
    if (typed.why) return void plan.problems.push({ reason: `v2 uses ${to} instead of ${op.v1.method}, and ${typed.why}`, advice: `widen the type with "${to}", then send ${to} ${op.v2!.path}` });
    if (typed.edit) siteEdits(plan, [typed.edit]);
    const old = literalText(node)!;
    const text = old === old.toLowerCase() ? to.toLowerCase() : to;
    const quote = node.getText()[0]!;
    edit(plan, node, { start: node.getStart(), end: node.getEnd(), text: `${quote}${text}${quote === "`" ? "`" : quote}` });
  } else if (http.method.kind === "default" && http.lib === "helper" && !http.helper!.fixedMethod && http.helper!.methodIndex !== undefined && http.call.getArguments().length === http.helper!.methodIndex) {
    // The helper's method parameter is left to its default: pass the v2 method.
    const last = http.call.getArguments().at(-1)!;
    edit(plan, last, { start: last.getEnd(), end: last.getEnd(), text: `, ${quote(plan.a, last)}${to}${quote(plan.a, last)}` });
  } else if (http.lib === "helper" && http.helper!.fixedMethod && (sibling = siblingVerb(plan.a, http.call, http.helper!, to))) {
    // `this._client.post(…)` → `this._client.patch(…)`: the receiver's own verb for v2's method.
    edit(plan, sibling, { start: sibling.getStart(), end: sibling.getEnd(), text: to.toLowerCase() });
  } else if (http.lib === "helper" && http.helper!.fixedMethod) {
    const name = http.call.getExpression().getText();
    plan.problems.push({ reason: `v2 uses ${to} instead of ${op.v1.method}, and ${name} always sends ${http.helper!.defaultMethod ?? op.v1.method}`, advice: `call a helper that sends ${to} (or the transport) for ${op.v2!.method} ${op.v2!.path}` });
  } else {
    plan.problems.push({ reason: `v2 uses ${to} instead of ${op.v1.method}, and the method here is not a literal`, advice: `send ${to} ${op.v2!.path}` });
  }
}
