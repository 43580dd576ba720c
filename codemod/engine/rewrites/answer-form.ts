// A call by convention whose answer's form the codemod cannot tell: no declarations say what it
// resolves to (a package not installed, JavaScript) and no read around it shows it (`.data`,
// `.json()`). Where its answer is used, the v1 record may be read anywhere in it, so a record whose
// fields differ in v2 is a problem of the site (a list's is named at its unwrap, list-unwrap.ts).
import { Node } from "../../ts-morph.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { skipParens } from "../nodes.ts";

/** The call is read by convention, its answer's form is not known, and the answer is used (not only awaited as a statement). */
export function answerFormUnknown(http: HttpCall): boolean {
  if (http.lib !== "convention" || http.style || http.observable || http.hook || http.answerUnseen) return false;
  let outer = skipParens(http.call);
  const up = outer.getParent();
  if (up && Node.isAwaitExpression(up)) outer = skipParens(up);
  const p = outer.getParent();
  return !!p && !Node.isExpressionStatement(p) && !Node.isVoidExpression(p);
}

/** The site's problem: its record's differing v1 fields (`desiredStatus→status`, …), where any differ. */
export function unknownFormProblem(plan: Plan, fields: string[]): void {
  if (!fields.length) return;
  plan.problems.push({
    risk: "silent",
    reason: `the codemod cannot tell how this client's answer is read, and these v1 record fields differ in v2: ${fields.join(", ")}`,
    advice: "read the v2 record where the answer's body is read (docs/mapping.md)",
    brief: `the codemod cannot tell how this client's answer is read (${fields.length} v1 record field${fields.length > 1 ? "s differ" : " differs"} in v2)`,
  });
}
