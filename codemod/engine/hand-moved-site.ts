// A call moved to v2 by hand (hand-moved.ts), planned as call-site.ts plans a v1 site whose URL and
// method are already v2's: the reads of its answer (operation-plan.ts planAnswerReads: list unwrap,
// record fields, the adapter where the record leaves sight), a body still in v1's flat form (the
// table's converters, rewrites/request-body.ts), and its error reads (a site of the run, its failure
// path is followed and settled with the v1 sites': error-reads.ts). What cannot be migrated (the
// call is not read as a site, its reads or its body mix v1 and v2, a v1-only query parameter, a
// part the engine would mark on a v1 site) leaves every edit out: one finding and one mark name it.
import { Node } from "../ts-morph.ts";
import type { OperationMapping } from "../../mappings/index.ts";
import { lensNamed } from "../../mappings/data/lenses/index.ts";
import { addFinding, makeFinding, planFor, type Analysis, type Site } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import type { Problems } from "./rewrites/problems.ts";
import { planAnswerReads } from "./operation-plan.ts";
import { convertRequestBody } from "./rewrites/request-body.ts";
import { failureReads } from "./error-reads.ts";
import { resolveParts, unwrapExpression } from "./urls.ts";
import { urlContext, valueOf } from "./values.ts";
import { todoAll } from "./todo-marks.ts";
import { byRisk, keepProblems } from "./mark-problems.ts";

/** What of a hand-moved call's answer is read in v1 shape (each named with its line), and whether some read is v2's. */
export interface AnswerReads {
  speaks: string[];
  v2: boolean;
}

const ADVICE = "read the v2 answer as the v2 document has it (docs/mapping.md): unwrap the list, read the v2 record's fields";

/** Plans a call on the v2 base (`http`: as read, when it is a library's call) whose reads, body, query or error reads may still be v1's. */
export function handMovedSite(a: Analysis, call: Node, op: OperationMapping, http: HttpCall | undefined, reads: AnswerReads): void {
  const body = http ? bodyFields(a, http, op) : { v1: [], v2: [] };
  const flags = http ? v1QueryFlags(a, http, op) : [];
  // Error reads are settled by error-reads.ts once the call is a site; only whether there are any is asked here.
  const errors = http ? failureReads(a, http, { hook: () => {}, hand: () => {} }).length > 0 : false;
  if (!reads.speaks.length && !body.v1.length && !flags.length && !errors) return;
  const v2 = { method: op.v2!.method, path: op.v2!.path };
  const speaks = [
    ...(reads.speaks.length ? [`its answer is read in v1 shape: ${reads.speaks.join("; ")}`] : []),
    ...(body.v1.length ? [`its body is still v1's (${body.v1.join(", ")} at the top)`] : []),
    ...(flags.length ? [`it sends v1's query parameter${flags.length > 1 ? "s" : ""} ${flags.join(", ")}`] : []),
  ];
  const why: Problems = [];
  if (reads.speaks.length && reads.v2) why.push({ reason: "its answer is read both in v1 and in v2 shape", advice: ADVICE });
  if (body.v1.length && body.v2.length) why.push({ reason: `its body mixes v1 fields (${body.v1.join(", ")}) and v2 fields (${body.v2.join(", ")})`, advice: "write the body as v2 has it (docs/mapping.md)" });
  else if (body.v1.length && !op.request?.lens) why.push({ reason: `${op.key} takes no v1 body to convert`, advice: "write the body as v2 has it (docs/mapping.md)" });
  if (flags.length) why.push({ reason: `v2 does not take ${flags.join(", ")} as v1 did`, advice: `translate or drop each v1 parameter (docs/mapping.md: ${op.key})` });
  if (!http) return void mark(a, call, op, speaks, [], undefined);
  for (const p of resolveParts(http.urlNode!, urlContext(a))) a.consumed.add(p.node);
  const site: Site = { call, file: a.files.get(call.getSourceFile().getFilePath())!, deps: new Set(), edits: [], complete: false, http };
  const plan = planFor(a, site);
  if (!why.length) {
    if (reads.speaks.length) planAnswerReads(plan, http, op);
    if (body.v1.length) convertRequestBody(plan, http, op.request!.lens!, op.key);
  }
  const problems = byRisk([...why, ...plan.problems]);
  // The site is settled with the v1 sites (do-no-harm.ts): it has no base to wait for, so it always applies,
  // and its error reads then read v2's problem. Never whole: a call on v2 is never redirected to v1.
  a.sites.push(site);
  if (problems.length) {
    site.edits = [];
    site.typeRenames = undefined;
    site.adapterRoute = undefined;
    site.onApply = undefined;
    return void mark(a, call, op, speaks, problems, site);
  }
  const cautions = plan.cautions.map((c) => ({ ...c, risk: c.risk ?? ("loss" as const) }));
  if (cautions.length) site.cautions = cautions;
  const what = speaks.length ? speaks.join("; ") : "its error branch reads v1's { message }";
  const reason = [`called on the v2 base (${v2.method} ${v2.path}), and ${what}: migrated`, ...(site.notes ?? [])].join("; ");
  const category = cautions.length ? "review" : "auto";
  // Only its error reads speak v1: they are rewritten, or marked and reported at the read (error-reads.ts), so the call reports nothing of its own.
  const report = speaks.length || cautions.length ? addFinding : makeFinding;
  site.finding = report(a, call, { operation: op.key, v1: { method: op.v1.method, path: op.v1.path }, v2, category, reason, advice: cautions.length ? cautions.map((c) => c.advice).join("; ") : "rewritten by `v2-bridge rewrite`" });
  if (cautions.length) keepProblems(site.finding, cautions);
  site.complete = true;
}

/** One finding and one mark at the call: what still speaks v1, then why the engine does not migrate it. */
function mark(a: Analysis, call: Node, op: OperationMapping, speaks: string[], problems: Problems, site: Site | undefined): void {
  const head = `called on the v2 base (${op.v2!.method} ${op.v2!.path}), but ${speaks.join("; ")}`;
  const reason = [head, ...problems.map((p) => p.reason)].join("; ");
  const advice = [ADVICE, ...problems.map((p) => p.advice)].filter((x, i, all) => all.indexOf(x) === i).join("; ");
  todoAll(a, call, op.key, "review", [{ reason: problems.length ? reason : head, advice }]);
  const finding = addFinding(a, call, { operation: op.key, v1: { method: op.v1.method, path: op.v1.path }, v2: { method: op.v2!.method, path: op.v2!.path }, category: "review", reason, advice });
  if (problems.length) keepProblems(finding, problems);
  if (site) site.finding = finding;
}

/** The top-level keys of the call's body literal that only v1's body has, and those only v2's has (none: not a literal in sight). */
function bodyFields(a: Analysis, http: HttpCall, op: OperationMapping): { v1: string[]; v2: string[] } {
  const lens = op.request?.lens ? lensNamed(op.request.lens) : undefined;
  const node = http.body ? unwrapExpression(http.body.node) : undefined;
  const literal = node && (Node.isObjectLiteralExpression(node) ? node : valueOf(a, node));
  if (!lens || !literal || !Node.isObjectLiteralExpression(unwrapExpression(literal))) return { v1: [], v2: [] };
  const keys = (unwrapExpression(literal) as import("../ts-morph.ts").ObjectLiteralExpression).getProperties().flatMap((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? [p.getName().replace(/^["']|["']$/g, "")] : []));
  const top = (p: string) => p.split(".")[0]!;
  const v1 = new Set([...lens.fields.filter((f) => f.only !== "toV1").flatMap((f) => f.v1.map(top)), ...(lens.unmapped ?? []).map((u) => top(u.v1))]);
  const v2 = new Set(lens.fields.flatMap((f) => f.v2.map(top)));
  return { v1: keys.filter((k) => v1.has(k) && !v2.has(k)), v2: keys.filter((k) => v2.has(k) && !v1.has(k)) };
}

/** The query parameters written in the URL's text that v1 took and v2 does not take by that name. */
function v1QueryFlags(a: Analysis, http: HttpCall, op: OperationMapping): string[] {
  const text = resolveParts(http.urlNode!, urlContext(a)).map((p) => (p.kind === "text" ? p.text : "\0")).join("");
  const query = text.includes("?") ? text.slice(text.indexOf("?") + 1).split("#")[0]! : "";
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const names = query.split("&").map((kv) => decoded(kv.split("=")[0] ?? "")).filter((n) => n && !n.includes("\0"));
  const v2 = new Set((op.query ?? []).flatMap((q) => (q.v2 ? [q.v2] : [])));
  const v1Only = new Set((op.query ?? []).filter((q) => q.v2 !== q.v1).map((q) => q.v1));
  return [...new Set(names.filter((n) => v1Only.has(n) && !v2.has(n)))];
}
