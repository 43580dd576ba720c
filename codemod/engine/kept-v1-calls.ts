// Calls an earlier run kept whole on the declared v1 base (`rp(…, RUNPOD_V1_BASE)`,
// `` fetch(`${RUNPOD_V1_BASE}/pods`) ``), each under its mark. A later run does not follow a call
// through a helper's base argument as a site, yet the call still stays v1: a record type it names
// keeps its v1 fields, as the run that kept it decided (do-no-harm.ts, sharedTypeConflict).
import { Node, SyntaxKind } from "../ts-morph.ts";
import { statementOf } from "./nodes.ts";
import { TODO_LINE } from "./todo-marks.ts";
import { V1_BASE_NAME, V1_ORIGIN_NAME } from "./v1-redirect.ts";

const OWN_V1_BASE = new RegExp(`\\b(?:${V1_BASE_NAME}|${V1_ORIGIN_NAME})\\b`);

/** The call on the declared v1 base in the statement of `n`, when a mark of the engine's sits right above that statement. */
export function keptV1CallAt(n: Node): Node | undefined {
  const st = statementOf(n);
  if (!markedAbove(st)) return undefined;
  return st.getDescendantsOfKind(SyntaxKind.CallExpression).find((c) => c.getArguments().some((arg) => OWN_V1_BASE.test(arg.getText())));
}

/** Whether the comment lines right above the statement hold a mark in the engine's form. */
function markedAbove(st: Node): boolean {
  const text = st.getSourceFile().getFullText();
  let lineStart = text.lastIndexOf("\n", st.getStart() - 1) + 1;
  while (lineStart > 0) {
    const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
    const prev = text.slice(prevStart, lineStart - 1).replace(/\r$/, "");
    if (!prev.trim().startsWith("//")) return false;
    if (TODO_LINE.test(prev)) return true;
    lineStart = prevStart;
  }
  return false;
}
