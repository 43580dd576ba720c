// Rewrite step: an operation whose v1 answer is documented as empty (`StartPod`, `DeletePod`)
// may still have its answer read (`res.data.desiredStatus` after a start). v2 answers such a call
// with nothing or with a record in v2 shape, so a field read there would silently change: the
// site is marked, naming the fields read.
import { Node } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { bodySites } from "../body-sites.ts";
import { boundRefs } from "./openapi-fetch.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { enclosingFunction } from "../scope.ts";
import { classifyRead } from "../response-branch.ts";

export function emptyAnswerReads(plan: Plan, http: HttpCall, op: OperationMapping): void {
  if (op.response.kind !== "empty") return;
  const fields = new Set<string>();
  const read = (n: Node) => {
    const outer = skipParens(n);
    const p = outer.getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && classifyRead(p) !== "error") fields.add(p.getName());
    else if (p && Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
      const name = p.getNameNode();
      if (Node.isIdentifier(name)) for (const r of referencesOf(enclosingFunction(p), name)) read(r);
      else if (Node.isObjectBindingPattern(name)) for (const el of name.getElements()) fields.add(el.getPropertyNameNode()?.getText() ?? el.getName());
    }
  };
  for (const s of bodySites(plan.a, http)) if (s.kind === "value" || s.kind === "binding") read(s.kind === "binding" ? (s.node as any).getNameNode() : s.node);
  if (http.lib === "openapi-fetch") boundRefs(http, "data").forEach(read);
  if (!fields.size) return;
  const list = [...fields].join(", ");
  plan.problems.push({
    reason: `reads ${list} on the answer of ${op.key}, which v1 documents as empty; v2 ${op.v2!.method} ${op.v2!.path} answers in v2 shape`,
    advice: `read the v2 answer's fields instead (docs/mapping.md), or fetch the record after the call`,
    brief: `reads ${list} on an answer v1 documents as empty (v2 answers in v2 shape)`,
  });
}
