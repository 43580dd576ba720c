// Rewrite check: query parameters the table drops, emulates or rejects, left in a rewritten URL,
// passed as an options object (axios `params`, got/ky `searchParams`, openapi-fetch
// `params.query`) or built at run time (`?${params}`, names followed to the URLSearchParams).
// They stay as written and the site is marked with the table's decision; a name v2 only spells
// otherwise is renamed where it is written, and one written with a harmless literal value (the
// table's `harmless`: `includeMachine=false`) is dropped there (harmless-query.ts).
import { Node } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression, type LocatedUrl, type Part } from "../urls.ts";
import { edit, type Analysis, type Plan } from "../state.ts";
import type { Problems } from "./problems.ts";
import type { HttpCall } from "../transports/index.ts";
import { objectLiteral, prop } from "../values.ts";
import { runtimeQueryNames } from "../query-holes.ts";
import { shortExpression } from "../expression-name.ts";
import { droppable, dropWritten, harmlessPair } from "./harmless-query.ts";
import { deferQuery } from "./query-deferral.ts";

function check(name: string, op: OperationMapping, seen: Set<string>, problems: Problems): void {
  if (!name || name.includes("\0") || seen.has(name)) return;
  seen.add(name);
  const m = op.query?.find((x) => x.v1 === name);
  if (!m?.decision || deferQuery(problems, name)) return;
  problems.push({ reason: `query parameter ${name} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
}

/** The object a call passes its query parameters in, if any. */
export function queryObject(a: Analysis, http: HttpCall): Node | undefined {
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
 * the code, are checked one by one, and a name v2 spells otherwise is marked (it is not rewritten
 * where it is given). Otherwise every parameter of the operation that v2 does not take as it is.
 */
function runtimeQuery(plan: Plan, op: OperationMapping, holes: Part[], seen: Set<string>, call: Node, drops: Node[]): void {
  const perHole = holes.map((h) => runtimeQueryNames(plan.a, h.node, h.kind === "hole" ? h.ctx : undefined));
  if (perHole.some((names) => names === undefined)) {
    if (seen.has("\0")) return;
    seen.add("\0");
    const names = (op.query ?? []).filter((q) => q.decision || (q.v2 && q.v2 !== q.v1)).map((q) => q.v1);
    if (op.query && !names.length) return;
    plan.problems.push({ reason: `the query string is built at run time, and ${names.length ? `v2 does not take these v1 parameters of ${op.key} as they are: ${names.join(", ")}` : `${op.key} takes no query parameters`}`, advice: "see docs/mapping.md for each parameter (v2 lists take no filters: filter the v2 list on the client)" });
    return;
  }
  const all = new Map<string, Node[]>();
  for (const names of perHole) for (const [name, written] of names!) all.set(name, [...(all.get(name) ?? []), ...written]);
  for (const [name, written] of all) {
    if (seen.has(name)) continue;
    if (droppable(op, name, written, call, drops)) continue;
    check(name, op, seen, plan.problems);
    const v2 = v2Spelling(op, name);
    if (v2) renameWhereWritten(plan, written, v2);
  }
}

/** A name v2 spells otherwise, renamed where the code writes it (`qs.set("endpointId", …)`, `{ endpointId }`). */
function renameWhereWritten(plan: Plan, written: Node[], v2Name: string): void {
  for (const at of written) {
    if (Node.isStringLiteral(at) || Node.isNoSubstitutionTemplateLiteral(at)) edit(plan, at, { start: at.getStart() + 1, end: at.getEnd() - 1, text: v2Name });
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

function checkQuery(plan: Plan, http: HttpCall, url: LocatedUrl, op: OperationMapping, drops: Node[]): void {
  const seen = new Set<string>();
  if (url.query) {
    // The query's holes are the URL's last ones; a hole in a name is a query built at run time.
    const holes = url.parts.filter((p) => p.kind === "hole");
    let next = holes.length - (url.query.match(/\0/g) ?? []).length;
    for (const pair of url.query.split("#")[0]!.replace(/^\?/, "").split("&")) {
      const [name, ...value] = pair.split("=");
      const inName = (name!.match(/\0/g) ?? []).length;
      if (inName) runtimeQuery(plan, op, holes.slice(next, next + inName), seen, http.call, drops);
      else if (!(value.length && harmlessPair(op, name!, value.join("=")))) check(name!, op, seen, plan.problems);
      next += inName + (value.join("=").match(/\0/g) ?? []).length;
    }
  }
  const q = queryObject(plan.a, http);
  if (!q && http.opaqueOptions && http.helper?.queryKeys && op.query?.some((x) => x.decision || (x.v2 && x.v2 !== x.v1))) {
    plan.problems.push({ reason: `the helper's options are built elsewhere (${http.opaqueOptions.getText().slice(0, 40)}): the query they may carry cannot be checked, and v2 does not take all of ${op.key}'s v1 parameters as they are`, advice: "pass the options as an object literal at the call, or check each parameter against docs/mapping.md" });
    return;
  }
  if (!q) return;
  const obj = objectLiteral(plan.a, q);
  if (!obj || !Node.isObjectLiteralExpression(obj)) {
    if (op.query?.some((x) => x.decision)) plan.problems.push({ reason: `the query parameters are built elsewhere (${shortExpression(q)}), and v2 does not take all of ${op.key}'s v1 parameters as they are`, advice: "check each parameter against docs/mapping.md" });
    return;
  }
  for (const p of obj.getProperties()) {
    if (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) {
      const name = p.getName().replace(/^["']|["']$/g, "");
      if (!seen.has(name) && droppable(op, name, [p], http.call, drops)) continue;
      check(name, op, seen, plan.problems);
      const v2 = v2Spelling(op, name);
      if (v2) renameWhereWritten(plan, [p], v2);
    }
    else if (op.query?.some((x) => x.decision)) plan.problems.push({ reason: `query parameters spread from elsewhere (${shortExpression(p)})`, advice: "check each parameter against docs/mapping.md" });
  }
}
