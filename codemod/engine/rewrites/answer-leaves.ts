// Problem: the call's answer (the Response, axios's response) goes where the codemod does not
// follow it (returned out of the run, stored, handed on), so its list is not unwrapped and its
// record's reads are not renamed there. Marked, not migrated with those reads left in v1 shape.
import { Node } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { answerLeaves } from "../answer-flow.ts";
import { observableFlow } from "../observable-flow.ts";
import { handedOutOfSight, readsErrorMembers, streamErrorHandlers } from "../observable-errors.ts";
import { skipParens } from "../nodes.ts";
import { streamConverted } from "./read-facts.ts";
import { answerDifferingFields } from "./record-fields.ts";
import { resultBeyondStatus } from "./record-flow-facts.ts";
import { streamDeclaredNothing } from "../declared-types.ts";

/**
 * What the call's value is: the answer object (its body read off it), the body itself (followed
 * by the record pass), or not known (a project wrapper returning something else, `return
 * handle(res)`: the helper pass marks its own kind).
 */
function answerKind(http: HttpCall): "response" | "body" | "unknown" | "other" {
  if (http.lib === "helper") return http.helper?.returnsResponse ? "response" : "other";
  if (http.lib === "convention") return http.style === "data" || http.style === "json" ? "response" : "other";
  if (http.lib === "openapi-fetch") return "other";
  // Through a response interceptor: the body itself (followed by the record pass), or a form of the interceptor's (marked on its own).
  if (http.interceptor) return http.interceptor.form === "body" ? "body" : "other";
  if (http.wrapper) return http.wrapper.returnsBody ? "body" : http.wrapper.returnsResponse ? "response" : "unknown";
  return "response";
}

export function answerLeavesSight(plan: Plan, http: HttpCall, op: OperationMapping): void {
  const shape = op.response;
  if (http.answerUnseen) {
    unseenRecords(plan, http.answerUnseen, op);
    const problem = http.answerEdits?.(plan.site);
    if (problem) plan.problems.push({ risk: "silent", reason: problem, advice: "read the v2 problem's detail where the error is read" });
    return;
  }
  // (Values the adapter converts where they leave the request are v1 records wherever they go.)
  if ((http.lib === "convention" || http.lib === "helper") && http.observable) {
    streamErrorReads(plan, http);
    return streamConverted(plan) ? undefined : streamLeaves(plan, http, op);
  }
  const kind = answerKind(http);
  if ((shape.kind !== "list" && shape.kind !== "record") || (kind !== "response" && kind !== "unknown")) return;
  const fields = answerDifferingFields(op);
  if (shape.kind === "record" && !fields.length) return;
  const fetchLike = http.lib === "fetch" || (http.lib === "helper" && !!http.helper?.returnsResponse && !http.helper.answerLib) || (http.lib === "convention" && http.style === "json");
  // A wrapper's result of unknown form: any use of it may read the v2 body.
  const at = kind === "unknown" ? (resultBeyondStatus(http.call) ? http.call : undefined) : answerLeaves(plan.a, http.call, fetchLike);
  if (!at) return;
  const where = `${at.getSourceFile().getBaseName()}:${at.getStartLineNumber()}`;
  const goes = kind === "unknown" ? `${http.call.getExpression().getText()} returns neither the body nor the Response (${where}), so where the answer is read is not known` : `the answer ${how(at)} (${where})`;
  const what = shape.kind === "list" ? `v2 wraps the list in { ${shape.wrapper}: [...] }` : `these v1 record fields differ in v2: ${fields.join(", ")}`;
  plan.problems.push({
    risk: "silent",
    reason: `${goes}${kind === "unknown" ? "" : ", where the codemod does not follow it"}, and ${what}`,
    advice: shape.kind === "list" ? `read .${shape.wrapper} of the body where the answer is read` : "read the v2 record where the answer is read (docs/mapping.md)",
    brief: `${goes}${kind === "unknown" ? ":" : ", where"} its ${shape.kind === "list" ? "list is not unwrapped" : "record's reads are not checked"}`,
  });
}

/**
 * The stream's error handlers are followed into the error flow (observable-errors.ts), where their
 * reads of the error body get v2's fields. One the codemod cannot read (given at run time, several
 * definitions), one handing the error or its body where it cannot follow, or one reading the error
 * of a client whose failure is not known, keeps the call marked.
 */
function streamErrorReads(plan: Plan, http: HttpCall): void {
  for (const h of streamErrorHandlers(plan.a, http)) {
    const where = `${h.handler.getSourceFile().getBaseName()}:${h.handler.getStartLineNumber()}`;
    if ("why" in h) {
      plan.problems.push({
        risk: "silent",
        reason: `its error handler ${h.handler.getText().replace(/\s+/g, " ").slice(0, 40)} (${where}) is ${h.why}: what it reads of the error body is not known, and v2 errors are problems with detail, not v1's message`,
        advice: "read detail (then message) of the error body where the handler reads it",
        brief: `its error handler (${where}) is ${h.why}, so what it reads of the error body cannot be checked`,
      });
      return;
    }
    const out = handedOutOfSight(plan.a, http, h);
    if (out) {
      const at = `${out.call.getSourceFile().getBaseName()}:${out.call.getStartLineNumber()}`;
      plan.problems.push({
        risk: "silent",
        reason: `its error handler (${where}) hands the ${out.what} to ${out.why} (${at}): what is read of its body there is not known, and v2 errors are problems with detail, not v1's message`,
        advice: "read detail (then message) of the error body where that code reads it",
        brief: `its error handler (${where}) hands the ${out.what} to ${out.why} (${at}), where its reads cannot be checked`,
      });
      return;
    }
    const read = http.observable === "unknown" ? readsErrorMembers(h) : undefined;
    if (!read) continue;
    const at = `${read.getSourceFile().getBaseName()}:${read.getStartLineNumber()}`;
    plan.problems.push({
      risk: "silent",
      reason: `an error handler on the observable reads the error's body (${read.getText().slice(0, 40)}, ${at}), and what the client fails with is not known: v2 errors are problems with detail, not v1's message`,
      advice: "read detail (then message) of the error body",
      brief: `its error handler reads the error body (${at}) unchecked`,
    });
    return;
  }
}

/** An Observable's values going where its operators and subscribers are not followed (observable-flow.ts): a list or a differing record is marked. */
function streamLeaves(plan: Plan, http: HttpCall, op: OperationMapping): void {
  const shape = op.response;
  if (shape.kind !== "list" && shape.kind !== "record") return;
  const fields = answerDifferingFields(op);
  if (shape.kind === "record" && !fields.length) return;
  const flow = observableFlow(http.call, http.observable!);
  // Values declared as nothing (`post<void>`): wherever they go, no field of them is read.
  if (streamDeclaredNothing(http.call, flow.returnTypes)) return;
  let leaves = flow.leaves;
  // Through firstValueFrom, axios's response is followed as an awaited one is.
  for (const p of flow.promises) {
    if (leaves) break;
    const at = p.emits === "response" ? answerLeaves(plan.a, p.node, false) : undefined;
    if (at) leaves = { node: at, why: how(at) };
    // What an observable of an unknown client emits, awaited and used: not known to be the body.
    else if (p.emits === "unknown" && resultUsed(p.node)) leaves = { node: p.node, why: `reaches ${p.node.getText().split("(")[0]}(…), and what the observable emits is not known` };
  }
  if (!leaves) return;
  const where = `${leaves.node.getSourceFile().getBaseName()}:${leaves.node.getStartLineNumber()}`;
  const what = shape.kind === "list" ? `v2 wraps the list in { ${shape.wrapper}: [...] }` : `these v1 record fields differ in v2: ${fields.join(", ")}`;
  plan.problems.push({
    risk: "silent",
    reason: `the observable's value ${leaves.why} (${where}), where the codemod does not follow it, and ${what}`,
    advice: shape.kind === "list" ? `read .${shape.wrapper} of the body where the value is read` : "read the v2 record where the value is read (docs/mapping.md)",
    brief: `the observable's value ${leaves.why} (${where}): its ${shape.kind === "list" ? "list is not unwrapped" : "record's reads are not checked"}`,
  });
}

function resultUsed(promise: Node): boolean {
  let outer = skipParens(promise);
  if (Node.isAwaitExpression(outer.getParent())) outer = skipParens(outer.getParent()!);
  const p = outer.getParent();
  return !!p && !Node.isExpressionStatement(p) && !Node.isVoidExpression(p);
}

/** How the answer leaves at `at`, for the mark. */
function how(at: Node): string {
  const callee = Node.isCallExpression(at) ? at.getExpression() : undefined;
  if (callee && Node.isPropertyAccessExpression(callee) && ["pipe", "subscribe"].includes(callee.getName())) return `goes through .${callee.getName()}(…)`;
  const p = at.getParent();
  if (p && (Node.isReturnStatement(p) || Node.isArrowFunction(p))) return "is returned to callers the codemod cannot list (outside the run, or the function passed on)";
  if (p && (Node.isCallExpression(p) || Node.isNewExpression(p))) return `is handed to ${p.getExpression().getText()}`;
  return "is kept where its reads are not followed";
}

/** A convention's answer the codemod does not follow (RTK Query's hooks): its records' fields that differ are read there, unchecked. */
function unseenRecords(plan: Plan, where: string, op: OperationMapping): void {
  const shape = op.response;
  if (shape.kind !== "list" && shape.kind !== "record") return;
  const fields = answerDifferingFields(op);
  if (!fields.length) return;
  plan.problems.push({
    risk: "silent",
    reason: `the answer ${where}, where the codemod does not follow it, and these v1 record fields differ in v2: ${fields.join(", ")}`,
    advice: "read the v2 record where the data is used (docs/mapping.md), or convert it in transformResponse",
    brief: `the answer ${where}: its record's reads are not checked`,
  });
}
