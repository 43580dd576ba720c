// Problem: the call's answer (the Response, axios's response) goes where the codemod does not
// follow it (returned out of the run, stored, handed on), so its list is not unwrapped and its
// record's reads are not renamed there. Marked, not migrated with those reads left in v1 shape.
import { Node } from "../../ts-morph.ts";
import { lensNamed, type OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { answerLeaves } from "../answer-flow.ts";
import { differingFields } from "./record-fields.ts";

/** Whether the call's value is the answer object (its body read off it), not the body itself. */
function answersWithResponse(http: HttpCall): boolean {
  if (http.lib === "helper") return !!http.helper?.returnsResponse;
  if (http.lib === "convention") return http.style === "data" || http.style === "json";
  if (http.lib === "openapi-fetch") return false;
  return !http.wrapper?.returnsBody;
}

export function answerLeavesSight(plan: Plan, http: HttpCall, op: OperationMapping): void {
  const shape = op.response;
  if ((shape.kind !== "list" && shape.kind !== "record") || !answersWithResponse(http)) return;
  const lens = lensNamed(shape.lens);
  const fields = lens ? differingFields(lens.fields, lens.v1Lost) : [];
  if (shape.kind === "record" && !fields.length) return;
  const fetchLike = http.lib === "fetch" || (http.lib === "helper" && !!http.helper?.returnsResponse) || (http.lib === "convention" && http.style === "json");
  const at = answerLeaves(plan.a, http.call, fetchLike);
  if (!at) return;
  const where = `${at.getSourceFile().getBaseName()}:${at.getStartLineNumber()}`;
  const goes = `the answer ${how(at)} (${where})`;
  const what = shape.kind === "list" ? `v2 wraps the list in { ${shape.wrapper}: [...] }` : `these v1 record fields differ in v2: ${fields.join(", ")}`;
  plan.problems.push({
    reason: `${goes}, where the codemod does not follow it, and ${what}`,
    advice: shape.kind === "list" ? `read .${shape.wrapper} of the body where the answer is read` : "read the v2 record where the answer is read (docs/mapping.md)",
    brief: `${goes}, where its ${shape.kind === "list" ? "list is not unwrapped" : "record's reads are not checked"}`,
  });
}

/** How the answer leaves at `at`, for the mark. */
function how(at: Node): string {
  const p = at.getParent();
  if (p && (Node.isReturnStatement(p) || Node.isArrowFunction(p))) return "is returned to callers the codemod cannot list (outside the run, or the function passed on)";
  if (p && (Node.isCallExpression(p) || Node.isNewExpression(p))) return `is handed to ${p.getExpression().getText()}`;
  return "is kept where its reads are not followed";
}
