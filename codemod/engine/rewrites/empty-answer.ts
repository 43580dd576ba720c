// Rewrite step: an operation whose v1 answer is documented as empty (`DeletePod`) may still have
// its answer read. v2 answers such a call with nothing, so a field read there would silently
// change: the site is marked, naming the fields read. (Where v2 answers a record the table names,
// `v2AnswerRecord` — the pod actions — record-fields.ts follows the reads instead.)
import { Node } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { bodySites } from "../body-sites.ts";
import { boundRefs } from "./openapi-fetch.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { enclosingFunction } from "../scope.ts";
import { classifyRead } from "../response-branch.ts";

/** The record type the call declares its answer as (`runpod<Pod>(…)`), if any. */
function typed(http: HttpCall): string | undefined {
  const [t] = http.call.getTypeArguments();
  const text = t?.getText();
  return text && !/^(void|unknown|any|undefined|null|never)$/.test(text) ? text : undefined;
}

/** What an error document is read for (error-flow.ts follows those): not the answer's fields. */
const ERROR_FIELDS = new Set(["message", "error", "errors", "detail", "title", "status", "code"]);

export function emptyAnswerReads(plan: Plan, http: HttpCall, op: OperationMapping): void {
  // A pod action's answer is the pod v2 answers (v2AnswerRecord): record-fields.ts follows it.
  if (op.response.kind !== "empty" || op.v2AnswerRecord) return;
  const fields = new Set<string>();
  let returned: string | undefined;
  const read = (n: Node) => {
    const outer = skipParens(n);
    const p = outer.getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && classifyRead(p) !== "error" && !ERROR_FIELDS.has(p.getName())) fields.add(p.getName());
    else if (p && Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
      const name = p.getNameNode();
      if (Node.isIdentifier(name)) for (const r of referencesOf(enclosingFunction(p), name)) read(r);
      else if (Node.isObjectBindingPattern(name)) for (const el of name.getElements()) if (!ERROR_FIELDS.has(el.getPropertyNameNode()?.getText() ?? el.getName())) fields.add(el.getPropertyNameNode()?.getText() ?? el.getName());
    }
  };
  for (const s of bodySites(plan.a, http)) {
    // A body read on the failure side is the error document (error-flow.ts reads it), not the answer.
    if (classifyRead(s.node) === "error") continue;
    if (s.kind === "value" || s.kind === "binding") read(s.kind === "binding" ? (s.node as any).getNameNode() : s.node);
    // Handed on unread, typed as a record (`runpod<Pod>(…)` returned): its readers expect fields.
    else if (s.kind === "promise" && typed(http)) returned = typed(http);
  }
  if (http.lib === "openapi-fetch") boundRefs(http, "data").forEach(read);
  if (!fields.size && !returned) return;
  const what = fields.size ? `reads ${[...fields].join(", ")} on` : `hands on, typed as ${returned},`;
  plan.problems.push({
    risk: "silent",
    reason: `${what} the answer of ${op.key}, which v1 documents as empty; v2 ${op.v2!.method} ${op.v2!.path} answers in v2 shape`,
    advice: `read the v2 answer's fields instead (docs/mapping.md), or fetch the record after the call`,
    brief: `${what} an answer v1 documents as empty (v2 answers in v2 shape)`,
  });
}
