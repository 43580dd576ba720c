// The rewrite of a call matched to one v1 operation: every part of it planned in turn (path,
// method, lifecycle body, request body, list unwrap, error fields, record fields, query
// parameters). A part that cannot be rewritten becomes a problem of the plan; call-site.ts marks it.
import type { OperationMapping } from "../../mappings/index.ts";
import type { Edit } from "../types.ts";
import { siteEdits, type Plan } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import type { LocatedUrl } from "./urls.ts";
import { newPathFor, type Match } from "./v1-match.ts";
import { givenV1Elsewhere } from "./given-base.ts";
import { renameRoutePathKeys, routePathObject } from "./rewrites/route-path-keys.ts";
import { renamePathParams, unwrapListBinding, v2TemplateNames } from "./rewrites/openapi-fetch.ts";
import { planQueryMoves, settleQueryMoves, urlWithoutMoved } from "./rewrites/query-moves.ts";
import { queryParams } from "./rewrites/query.ts";
import { changeMethod } from "./rewrites/method.ts";
import { addFixedBody, convertRequestBody, type ComputedBody } from "./rewrites/request-body.ts";
import { superagentBodyProblem } from "./transports/superagent.ts";
import { wretchBodyProblem } from "./transports/wretch.ts";
import { jsonType } from "./rewrites/json-type.ts";
import { wretchErrorTypeEdit } from "./wretch-errors.ts";
import { unwrapList } from "./rewrites/list-unwrap.ts";
import { answerDifferingFields, recordReads } from "./rewrites/record-fields.ts";
import { schemaReads } from "./rewrites/schema-reads.ts";
import { generatedAnswer } from "./rewrites/generated-answer.ts";
import { emptyAnswerReads } from "./rewrites/empty-answer.ts";
import { regroupedList } from "./rewrites/regrouped-list.ts";
import { statusChecks } from "./rewrites/status-checks.ts";
import { answerLeavesSight } from "./rewrites/answer-leaves.ts";
import { hookCacheKeys } from "./swr-cache-keys.ts";
import type { ChosenUrls } from "./chosen-urls.ts";
import { chosenQueryParams, chosenUrlEdits, chosenWritten } from "./rewrites/chosen-query.ts";

/**
 * Plans the rewrite of `http` as `op` (a finite path brings its own URL edits and body, finite-paths.ts;
 * a URL chosen between two of `op`'s URLs, chosen-urls.ts, has each branch's URL and query rewritten).
 */
export function planOperation(plan: Plan, http: HttpCall, url: LocatedUrl, match: Match, op: OperationMapping, finite?: { urlEdits: Edit[]; body?: ComputedBody }, chosen?: ChosenUrls): void {
  const openapi = http.lib === "openapi-fetch";
  givenV1Elsewhere(plan.a, http, plan.problems);
  if (http.injectedDoubt) plan.problems.push({ reason: http.injectedDoubt, advice: "if it sends the request, migrate the call by hand (or give it its request options, method and headers, so the codemod reads it as a call)", brief: `${http.call.getExpression().getText()}: no request options, may not send a request` });
  if (http.handedIn) plan.problems.push({ reason: `the request function is handed in: ${http.handedIn}`, advice: "migrate the call where every request function it may be given is known, or give the function v2's request function", brief: `the request function is handed in (${http.handedIn.split(",")[0]}): another may be given` });
  const computed = newPathFor(match, url);
  // A generated request's template and its `path` keys take v2's names together (route-path-keys.ts).
  const routePath = routePathObject(http, op);
  const newPath = (openapi || routePath) && computed !== null ? v2TemplateNames(computed, op) : computed;
  // v1 filters and unread include expansions may leave the request (settled at the end).
  const branchWritten = chosen ? chosenWritten(plan.a, http, chosen) : undefined;
  const moves = finite ? undefined : planQueryMoves(plan, http, url, op, branchWritten?.merged);
  const urlWithout = (names: ReadonlySet<string>) => (chosen ? chosenUrlEdits(chosen, op, names, branchWritten?.each) : urlWithoutMoved(url, newPath, op, names, moves?.written));
  const urlEdits = finite ? finite.urlEdits : newPath === null ? null : urlWithout(moves?.inUrl ?? new Set());
  if (!urlEdits) {
    plan.problems.push({ reason: "the v2 path cannot be written into this URL expression", advice: `use ${op.v2!.method} ${op.v2!.path}` });
    return;
  }
  siteEdits(plan, urlEdits);
  if (openapi) renamePathParams(plan, http, op);
  else if (routePath && !finite) renameRoutePathKeys(plan, routePath, op);
  if (chosen) chosenQueryParams(plan, http, chosen, op);
  else queryParams(plan, http, url, op);
  if (op.v2!.method !== op.v1.method) changeMethod(plan, http, op);
  if (finite?.body) addFixedBody(plan, http, finite.body);
  else if (op.request?.fixedBody && !finite) addFixedBody(plan, http, op.request.fixedBody);
  // superagent sends objects as JSON; a string, a form type or a body split over `.send` calls is marked.
  const sa = http.builder && (http.builder.sends.length || op.request) ? superagentBodyProblem(http) : undefined;
  if (sa) plan.problems.push({ ...sa, advice: "send one JSON object with a single .send(…) (v2 takes only JSON bodies)" });
  // wretch sends an object as JSON; `.body(…)`, a string, a form or a non-JSON Content-Type is marked.
  const wb = http.wretch && (http.body || http.wretch.bodies.length || op.request) ? wretchBodyProblem(http) : undefined;
  if (wb) plan.problems.push({ ...wb, advice: "send one JSON object with .json(body) or the verb's body argument (v2 takes only JSON bodies)" });
  if (op.request?.lens && !sa && !wb) convertRequestBody(plan, http, op.request.lens, op.key);
  // A body the call sends itself goes to v2 as JSON or not at all (415).
  if (http.body && !http.builder && !http.wretch) jsonType(plan, http);
  // wretch parses a v2 problem (`application/problem+json`) into `error.json` only when asked.
  const errorType = wretchErrorTypeEdit(plan.a, http);
  if (errorType) siteEdits(plan, [errorType]);
  const unwrapEdits = planAnswerReads(plan, http, op);
  settleQueryMoves(plan, http, op, moves, unwrapEdits, urlEdits, urlWithout);
}

/**
 * The reads of the call's answer moved to v2's shape (list unwrap, record fields, schemas, status
 * checks, the adapter where the record leaves sight): a v1 site's rewrite, and a call moved to v2 by
 * hand whose answer is still read in v1 shape (hand-moved-site.ts). Returns the unwrap's edits.
 */
export function planAnswerReads(plan: Plan, http: HttpCall, op: OperationMapping): Set<Edit> {
  const openapi = http.lib === "openapi-fetch";
  const beforeUnwrap = plan.site.edits.length;
  if (op.response.kind === "list") (openapi ? unwrapListBinding : unwrapList)(plan, http, op.response.wrapper);
  const unwrapEdits = new Set(plan.site.edits.slice(beforeUnwrap));
  recordReads(plan, http, op, unwrapEdits);
  schemaReads(plan, http, op);
  generatedAnswer(plan, http, op);
  emptyAnswerReads(plan, http, op);
  regroupedList(plan, op);
  statusChecks(plan, http, op);
  if (!openapi) answerLeavesSight(plan, http, op);
  if (http.hook) hookCacheKeys(plan, http, answerDifferingFields(op));
  return unwrapEdits;
}
