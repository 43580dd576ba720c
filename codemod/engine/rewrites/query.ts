// Rewrite check: query parameters the table drops, emulates or rejects, left in a rewritten URL,
// passed as an options object (axios `params`, got/ky `searchParams`, openapi-fetch
// `params.query`) or built at run time (`?${params}`, names followed to the URLSearchParams).
// They stay as written and the site is marked with the table's decision; a name v2 only spells
// otherwise is renamed where it is written, and one written with a harmless literal value (the
// table's `harmless`: `includeMachine=false`) is dropped there (harmless-query.ts).
import { Node } from "../../ts-morph.ts";
import { absentQueryDiffers, isHarmlessQuery, type OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression, type LocatedUrl, type Part } from "../urls.ts";
import { edit, type Analysis, type Plan } from "../state.ts";
import type { Problems } from "./problems.ts";
import type { HttpCall } from "../transports/index.ts";
import { objectLiteral, prop } from "../values.ts";
import { queryFlow, type QueryNames, type Written } from "../query-flow.ts";
import { shortExpression } from "../expression-name.ts";
import { superagentQuery } from "../transports/superagent.ts";
import { wretchQuery } from "../transports/wretch.ts";
import { droppable, dropWritten, harmlessPair } from "./harmless-query.ts";
import { deferQuery } from "./query-deferral.ts";
import { callerQueryValues, declaredQueryNames } from "./query-typed.ts";
import { wrapQueryInAdapter } from "../adapter-sites.ts";

function check(name: string, op: OperationMapping, seen: Set<string>, problems: Problems): void {
  if (!name || name.includes("\0") || seen.has(name)) return;
  seen.add(name);
  const m = op.query?.find((x) => x.v1 === name);
  if (!m?.decision || deferQuery(problems, name)) return;
  problems.push({ reason: `query parameter ${name} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
}

/** The object a call passes its query parameters in, if any. */
export function queryObject(a: Analysis, http: HttpCall): Node | undefined {
  if (http.builder) return superagentQuery(http);
  if (http.wretch) return wretchQuery(http);
  // A helper taking the query as an argument of its own (`request(method, path, query)`).
  if (http.lib === "helper" && http.helper!.queryIndex !== undefined) return http.call.getArguments()[http.helper!.queryIndex];
  const opts = http.options && objectLiteral(a, http.options);
  if (!opts) return undefined;
  if (http.lib === "axios") return prop(opts, "params");
  if (http.lib === "convention") return prop(opts, "params") ?? prop(opts, "searchParams") ?? prop(opts, "query");
  if (http.lib === "got" || http.lib === "ky") return prop(opts, "searchParams");
  // A request helper's own query option, as it puts it into its URL (helpers.ts queryKeysOf).
  if (http.lib === "helper") return http.helper!.queryKeys?.map((k) => prop(opts, k)).find((x) => x);
  if (http.lib === "openapi-fetch") {
    const params = prop(opts, "params");
    return params && Node.isObjectLiteralExpression(unwrapExpression(params)) ? prop(unwrapExpression(params), "query") : undefined;
  }
  return undefined;
}

/**
 * A query built at run time (`?${params}`): the names it can carry, when they are all written in
 * the code, are checked one by one (renamed or dropped where written, else marked). Otherwise the
 * mark names the expression where following stopped and the operation's parameters v2 does not
 * take as they are.
 */
function runtimeQuery(plan: Plan, op: OperationMapping, holes: Part[], given: Set<string>, seen: Set<string>, call: Node, drops: Node[]): boolean {
  return followedQuery(plan, op, holes.map((h) => queryFlow(plan.a, h.node, h.kind === "hole" ? h.ctx : undefined)), given, seen, call, drops);
}

/** The names of queries followed by value (query-flow.ts), each checked where written; false when one could not be followed (marked). */
function followedQuery(plan: Plan, op: OperationMapping, flows: ReturnType<typeof queryFlow>[], given: Set<string>, seen: Set<string>, call: Node, drops: Node[]): boolean {
  const stopped = flows.find((f) => "stop" in f);
  if (stopped && "stop" in stopped) {
    if (seen.has("\0")) return false;
    seen.add("\0");
    const names = (op.query ?? []).filter((q) => q.decision || (q.v2 && q.v2 !== q.v1)).map((q) => q.v1);
    if (op.query && !names.length) return false;
    const what = `query names built at run time are not followed (${shortExpression(stopped.stop)})`;
    plan.problems.push({
      risk: "silent",
      reason: `${what}, and ${names.length ? `v2 does not take these v1 parameters of ${op.key} as they are: ${names.join(", ")}` : `${op.key} takes no query parameters`}`,
      brief: `${what}; v2 does not take ${names.length ? `${names.length} of ${op.key}'s v1 parameters as they are` : "any query here"}`,
      advice: "see docs/mapping.md for each parameter (v2 lists take no filters: filter the v2 list on the client)",
    });
    return false;
  }
  const all: QueryNames = new Map();
  for (const f of flows) if ("names" in f) for (const [name, written] of f.names) all.set(name, [...(all.get(name) ?? []), ...written]);
  for (const [name, written] of all) {
    given.add(name);
    if (seen.has(name)) continue;
    if (droppable(op, name, written, call, drops)) continue;
    check(name, op, seen, plan.problems);
    const v2 = v2Spelling(op, name);
    if (v2) renameWhereWritten(plan, written, v2);
  }
  return true;
}

/** A name v2 spells otherwise, renamed where the code writes it (`qs.set("endpointId", …)`, `{ endpointId }`). */
function renameWhereWritten(plan: Plan, written: Written[], v2Name: string): void {
  for (const at of written) {
    if (!(at instanceof Node)) edit(plan, at.at, { start: at.start, end: at.end, text: v2Name });
    else if (Node.isStringLiteral(at) || Node.isNoSubstitutionTemplateLiteral(at)) edit(plan, at, { start: at.getStart() + 1, end: at.getEnd() - 1, text: v2Name });
    else if (Node.isShorthandPropertyAssignment(at)) edit(plan, at, { start: at.getStart(), end: at.getEnd(), text: `${v2Name}: ${at.getName()}` });
    else if (Node.isPropertyAssignment(at)) {
      const key = at.getNameNode();
      edit(plan, key, { start: key.getStart(), end: key.getEnd(), text: Node.isStringLiteral(key) ? JSON.stringify(v2Name) : v2Name });
    }
  }
}

/** The v2 name of a v1 query parameter v2 only spells otherwise (`endpointId` → `serverlessId`). */
function v2Spelling(op: OperationMapping, name: string): string | undefined {
  const m = op.query?.find((q) => q.v1 === name && !q.decision && q.v2 && q.v2 !== name);
  return m?.v2;
}

/**
 * A URL's literal query in v2 terms, for rewriteUrl: each name v2 spells otherwise renamed
 * (`?endpointId=${id}` → `?serverlessId=${id}`), each pair with a harmless literal value dropped
 * (`?includeMachine=false` → ``).
 */
export function v2LiteralQuery(query: string, op: OperationMapping, moved: ReadonlySet<string> = new Set()): string {
  if (!query.startsWith("?")) return query;
  const [search, ...fragment] = query.slice(1).split("#");
  const pairs = search!.split("&").flatMap((pair) => {
    const [name, ...value] = pair.split("=");
    if (name && value.length && (harmlessPair(op, name, value.join("=")) || moved.has(name))) return [];
    const v2 = name && !name.includes("\0") ? v2Spelling(op, name) : undefined;
    return [v2 ? [v2, ...value].join("=") : pair];
  });
  const kept = pairs.length ? "?" + pairs.join("&") : "";
  return [kept, ...fragment].join("#");
}

export function queryParams(plan: Plan, http: HttpCall, url: LocatedUrl, op: OperationMapping): void {
  const drops: Node[] = [];
  checkQuery(plan, http, url, op, drops);
  dropWritten(plan, drops);
}

/**
 * The call gives none of the helper's parameters its unfollowed query is read from (`rp("GET",
 * path)` of `rp(method, path, opts = {})`): the helper adds no query to this request.
 */
function givesNoneOf(http: HttpCall, params: number[] | undefined): boolean {
  const fn = http.helper!.fn as Node | undefined;
  if (!params?.length || !fn) return false;
  const args = http.call.getArguments();
  const declared = (fn as any).getParameters?.() as Node[] | undefined;
  return params.every((i) => {
    const arg = args[i];
    if (arg && !(Node.isIdentifier(arg) && arg.getText() === "undefined")) return false;
    // Its default then is what the helper reads: none, or an empty object.
    const init = (declared?.[i] as any)?.getInitializer?.() as Node | undefined;
    return !init || (Node.isObjectLiteralExpression(init) && !init.getProperties().length);
  });
}

function checkQuery(plan: Plan, http: HttpCall, url: LocatedUrl, op: OperationMapping, drops: Node[]): void {
  const seen = new Set<string>();
  // The names the request carries, as far as they are known; false once one is not.
  const given = new Set<string>();
  let known = true;
  if (url.query) {
    // The query's holes are the URL's last ones; a hole in a name is a query built at run time.
    const holes = url.parts.filter((p) => p.kind === "hole");
    let next = holes.length - (url.query.match(/\0/g) ?? []).length;
    for (const pair of url.query.split("#")[0]!.replace(/^\?/, "").split("&")) {
      const [name, ...value] = pair.split("=");
      const inName = (name!.match(/\0/g) ?? []).length;
      if (inName) known = runtimeQuery(plan, op, holes.slice(next, next + inName), given, seen, http.call, drops) && known;
      else {
        if (name) given.add(name);
        if (!(value.length && harmlessPair(op, name!, value.join("=")))) check(name!, op, seen, plan.problems);
      }
      next += inName + (value.join("=").match(/\0/g) ?? []).length;
    }
  }
  // Options the code builds elsewhere, or spreads into, may carry query parameters of their own.
  const carriesQuery = http.lib !== "fetch" && !(http.lib === "helper" && !http.helper!.queryKeys);
  const opts = carriesQuery && http.options ? objectLiteral(plan.a, http.options) : undefined;
  if (http.opaqueOptions || (carriesQuery && http.options && (!opts || (Node.isObjectLiteralExpression(opts) && opts.getProperties().some((p) => Node.isSpreadAssignment(p)))))) known = false;
  const own = http.lib === "helper" && !givesNoneOf(http, http.helper!.queryUnfollowedFrom) ? http.helper!.queryUnfollowed : undefined;
  if (own && (op.query ?? []).some((x) => x.decision || (x.v2 && x.v2 !== x.v1))) {
    known = false;
    plan.problems.push({ reason: `the helper adds a query whose names are not followed (${shortExpression(own)}), and v2 does not take all of ${op.key}'s v1 parameters as they are`, advice: "check each parameter the helper may add against docs/mapping.md" });
  }
  const q = queryObject(plan.a, http);
  if (!q && http.opaqueOptions && (http.helper?.queryKeys || http.helper?.queryIndex !== undefined)) {
    if (op.query?.some((x) => x.decision || (x.v2 && x.v2 !== x.v1))) plan.problems.push({ reason: `the helper's options are built elsewhere (${http.opaqueOptions.getText().slice(0, 40)}): the query they may carry cannot be checked, and v2 does not take all of ${op.key}'s v1 parameters as they are`, advice: "pass the options as an object literal at the call, or check each parameter against docs/mapping.md" });
    return;
  }
  if (q) {
    const obj = objectLiteral(plan.a, q);
    // A `URLSearchParams` built for the call (`qs.set("desiredStatus", …)`, then `{ searchParams: qs }`): its names, followed by value.
    const flow = !obj ? queryFlow(plan.a, q) : undefined;
    if (flow && "names" in flow) {
      if (followedQuery(plan, op, [flow], given, seen, http.call, drops) && known) leftOut(plan, op, given);
      return;
    }
    if (!obj || !Node.isObjectLiteralExpression(obj)) {
      if (typedQueryObject(plan, op, q, given, seen)) {
        if (known) leftOut(plan, op, given);
        return;
      }
      if (op.query?.some((x) => x.decision)) plan.problems.push({ reason: `the query parameters are built elsewhere (${shortExpression(q)}), and v2 does not take all of ${op.key}'s v1 parameters as they are`, advice: "check each parameter against docs/mapping.md" });
      return;
    }
    for (const p of obj.getProperties()) {
      if (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) {
        const name = p.getName().replace(/^["']|["']$/g, "");
        given.add(name);
        if (!seen.has(name) && droppable(op, name, [p], http.call, drops)) continue;
        check(name, op, seen, plan.problems);
        const v2 = v2Spelling(op, name);
        if (v2) renameWhereWritten(plan, [p], v2);
      } else {
        known = false;
        if (op.query?.some((x) => x.decision)) plan.problems.push({ reason: `query parameters spread from elsewhere (${shortExpression(p)})`, advice: "check each parameter against docs/mapping.md" });
      }
    }
  }
  if (known) leftOut(plan, op, given);
}

/**
 * A query object built elsewhere whose declared type says which names it can carry (query-typed.ts):
 * where each is one v2 takes as it is, one it spells otherwise, or one whose type allows only values
 * that ask for what v2 does anyway, the object is wrapped in the adapter's `toV2Query` (renames and
 * harmless values done at run time, as the gateway does); otherwise the site is marked naming each
 * parameter the type lets come. False where the type does not say, or the adapter is off (`--no-adapter`).
 */
function typedQueryObject(plan: Plan, op: OperationMapping, q: Node, given: Set<string>, seen: Set<string>): boolean {
  const names = plan.a.adapter ? declaredQueryNames(q) : undefined;
  if (!names) return false;
  // Every writer in sight (a parameter whose callers are all seen): what they write, not what the type allows.
  const callers = callerQueryValues(plan.a, q, names.keys());
  let translate = false;
  const before = plan.problems.length;
  for (const [name, declared] of names) {
    const written = callers?.get(name);
    if (written ? written.always : !declared.optional) given.add(name);
    const m = op.query?.find((x) => x.v1 === name);
    // A name v1 did not take, or v2 takes as it is: sent as before. One no caller writes is never sent.
    if (!m || m.v2 === name || written?.never) continue;
    const values = written ? written.values : declared.values;
    if (m.v2 || (values && isHarmlessQuery(m, values))) translate = true;
    else if (!seen.has(name)) {
      seen.add(name);
      const how = !written ? "which its type allows" : written.unknownAt ? `as ${written.unknownAt}` : `which its callers write as ${[...new Set(values)].join(" or ")}`;
      plan.problems.push({ reason: `the query object (${shortExpression(q)}) may carry ${name}, ${how} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
    }
  }
  if (plan.problems.length > before || !translate) return true;
  if (wrapQueryInAdapter(plan, q, op.key)) return true;
  plan.problems.push({ reason: `the query object (${shortExpression(q)}) needs translating, and the adapter does not hold ${op.key}'s query`, advice: "check each parameter against docs/mapping.md" });
  return true;
}

/**
 * A parameter the request leaves out where v1's default for it is not what v2 does (the table's
 * `v1Default`). As the gateway does: where it emulates v1's default (decision `emulate`), the call
 * stays v1 and marked; where it sends the request on as it is, v1 through the gateway would answer
 * as v2 does, so the call migrates and the mark says what changed.
 */
function leftOut(plan: Plan, op: OperationMapping, given: Set<string>): void {
  for (const m of op.query ?? []) {
    const d = given.has(m.v1) ? undefined : absentQueryDiffers(m);
    if (d) (m.decision === "emulate" ? plan.problems : plan.cautions).push({ risk: "silent", reason: `query parameter ${m.v1} not given: ${d.reason}`, advice: d.advice });
  }
}
