// v1-only query parameters moved off the request instead of marked:
// - a v1 list filter (`?computeType=GPU`, axios `params: { desiredStatus: status }`, `qs.append
//   ("gpuTypeId", params.gpuTypeId)`) is removed where it is written and the list the site unwraps
//   goes through the adapter's `filterList` with the same values, the gateway's filter on the
//   client. Only when every filter of the site can move so and the unwrap is the rewrite's own.
// - an include expansion (`includeMachine=true`) is removed where it is written when the answer's
//   reads are all followed and none reads the field it fills (the table's `expands`), or, for a
//   field the v1 document does not name (`expandsUndeclared`: a pod's includeTemplate), every read
//   is a field the lens knows (none at all for an answer only compared with null).
// Otherwise each keeps the mark the query check would have written, in its place.
import { isHarmlessQuery, knownV1Fields, lenses, type OperationMapping, type QueryMapping } from "../../../mappings/index.ts";
import { adapterFilters } from "../../adapter/index.ts";
import type { Node } from "../../ts-morph.ts";
import type { LocatedUrl } from "../urls.ts";
import { edit, quoteOf, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import type { Edit } from "../../types.ts";
import { usesAdapter } from "../adapter-sites.ts";
import { ADAPTER_BINDING } from "../../adapter/index.ts";
import { offerDeferral, takeDeferred } from "./query-deferral.ts";
import { movableNames, writtenQuery, type Written, type WrittenQuery } from "./query-written.ts";
import { dropWritten, lineRemoval } from "./harmless-query.ts";
import { answerReads } from "./read-facts.ts";
import { portable, unwrapWraps, wrapInFilter } from "./filter-wrap.ts";
import { type LocatedUrl as Url } from "../urls.ts";
import { rewriteUrl } from "../url-rewrite.ts";
import { queryMarks, rewriteUrlWithout } from "../url-drop-holes.ts";
import { v2LiteralQuery } from "./query.ts";

export interface QueryMoves {
  written: WrittenQuery;
  /** Names the query check leaves for settleQueryMoves. */
  names: Set<string>;
  /** Of those, the ones in the URL's literal text (left out of it by v2LiteralQuery until settled). */
  inUrl: Set<string>;
}

const isFilter = (op: OperationMapping, name: string) => !!op.query?.find((q) => q.v1 === name && q.decision === "emulate" && q.filterField);

/** Before the URL is rewritten: the parameters that may move, offered to the query check. */
export function planQueryMoves(plan: Plan, http: HttpCall, url: LocatedUrl, op: OperationMapping, given?: WrittenQuery): QueryMoves | undefined {
  const movable = movableNames(op);
  if (!movable.size || http.lib === "openapi-fetch") return undefined;
  const written = given ?? writtenQuery(plan.a, http, url);
  const names = new Set<string>();
  const filters = [...written.keys()].filter((n) => isFilter(op, n));
  // Every filter of the site moves, or none does.
  const filtersMove = !!plan.a.adapter && op.response.kind === "list" && filters.every((n) => written.get(n)?.length === 1 && adapterFilters(op.key, n) === true);
  for (const [name, places] of written) {
    const m = op.query?.find((q) => q.v1 === name);
    if (!m || !movable.has(name) || !places?.length) continue;
    // A harmless literal is the query check's own to drop.
    if (places.some((p) => p.literal !== undefined && isHarmlessQuery(m, [p.literal]))) continue;
    if (isFilter(op, name) ? filtersMove : places.every((p) => !p.value || portable(p.value, [p.value]))) names.add(name);
  }
  if (!names.size) return undefined;
  offerDeferral(plan.problems, names);
  return { written, names, inUrl: new Set([...names].filter((n) => written.get(n)!.some((w) => !w.node))) };
}

/**
 * After the site's list unwrap, record reads and adapter choices: each deferred parameter moved,
 * or marked where the query check would have marked it. `urlWithout(names)` rewrites the URL
 * leaving out those literal pairs; it replaces `urlEdits` when a pair left out must stay.
 */
export function settleQueryMoves(plan: Plan, http: HttpCall, op: OperationMapping, moves: QueryMoves | undefined, unwrapEdits: ReadonlySet<Edit>, urlEdits: Edit[], urlWithout: (names: Set<string>) => Edit[] | null): void {
  if (!moves) return;
  const deferred = takeDeferred(plan.problems);
  const failed = new Map<string, number>();
  const filters = [...deferred.keys()].filter((n) => isFilter(op, n));
  const reads = answerReads(plan);
  const gone: Written[] = [];
  for (const [name, at] of deferred) {
    if (filters.includes(name)) continue;
    const m = op.query!.find((q) => q.v1 === name)!;
    if (reads?.complete && unread(m, reads.fields, knownFields(op))) gone.push(...moves.written.get(name)!);
    else failed.set(name, at);
  }
  if (filters.length) {
    if (moveFilters(plan, http, op, filters, moves.written, unwrapEdits)) gone.push(...filters.flatMap((n) => moves.written.get(n)!));
    else for (const n of filters) failed.set(n, deferred.get(n)!);
  }
  // One removal for all (properties of one object together, so their commas stay right).
  drop(plan, gone);
  // Not moved: the query check's mark, where it would have been.
  const order = [...deferred.keys()];
  [...failed].sort((x, y) => x[1] - y[1] || order.indexOf(x[0]) - order.indexOf(y[0])).forEach(([name, at], i) => {
    const m = op.query!.find((q) => q.v1 === name)!;
    plan.problems.splice(Math.min(at + i, plan.problems.length), 0, { reason: `query parameter ${name} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
  });
  // A pair left out of the URL goes back unless it moved (one the query check never reached included).
  const back = [...moves.inUrl].filter((n) => failed.has(n) || !deferred.has(n));
  if (!back.length) return;
  const url = urlWithout(new Set([...moves.inUrl].filter((n) => !back.includes(n))));
  for (const list of [plan.site.edits, plan.site.adapterRoute?.edits]) {
    if (!list) continue;
    const kept = list.filter((e) => !urlEdits.includes(e));
    if (kept.length === list.length) continue;
    list.length = 0;
    list.push(...kept, ...(url ?? []));
  }
}

/**
 * Whether no read reaches the field the expansion fills: its named field is not read, or, for a
 * field the v1 document does not name (a pod's template), every read is a field the lens knows.
 */
function unread(m: QueryMapping, fields: ReadonlySet<string>, known: ReadonlySet<string>): boolean {
  if (m.expands) return !fields.has(m.expands);
  return !!m.expandsUndeclared && [...fields].every((f) => known.has(f.split(".")[0]!));
}

/** The v1 record fields the operation's lens knows (documented, lost, filled by the gateway, or undocumented but real). */
function knownFields(op: OperationMapping): Set<string> {
  const lens = op.response.kind === "record" || op.response.kind === "list" ? lenses[op.response.lens] : undefined;
  if (!lens) return new Set();
  const more = [...(lens.v1Lost ?? []), ...(lens.v1FromEmulation ?? []), ...(lens.v1Undocumented ?? []), ...(lens.v1AbsentFor ?? [])].map((u) => u.v1.split(".")[0]!);
  return new Set([...knownV1Fields(lens), ...more]);
}

/**
 * The URL's edits with the literal pairs of `names` left out (until settled, those that may move);
 * a pair whose value is a template hole (`?gpuTypeId=${gpu}`) leaves with its hole.
 */
export function urlWithoutMoved(url: Url, newPath: string | null, op: OperationMapping, names: ReadonlySet<string>, written?: WrittenQuery): Edit[] | null {
  const dropped = [...names].flatMap((n) => (written?.get(n) ?? []).flatMap((w) => (w.hole ? [w.hole] : [])));
  if (!dropped.length) return rewriteUrl(url, newPath, v2LiteralQuery(url.query, op, names));
  return newPath === null ? null : rewriteUrlWithout(url, newPath, dropped, v2LiteralQuery(queryMarks(url, dropped), op, names));
}

/** Removes where a parameter is written (a literal URL pair is already out of the rewritten URL). */
function drop(plan: Plan, places: Written[]): void {
  const before = plan.site.edits.length;
  const simple = places.filter((w) => w.node && w.remove && !w.condition).map((w) => w.node!);
  dropWritten(plan, simple);
  for (const w of places) if (w.condition) edit(plan, w.remove!, lineRemoval(w.remove!));
  // The site's other route (through the adapter, if do no harm takes it) sends the same request.
  plan.site.adapterRoute?.edits.push(...plan.site.edits.slice(before));
}

function moveFilters(plan: Plan, http: HttpCall, op: OperationMapping, names: string[], written: WrittenQuery, unwrapEdits: ReadonlySet<Edit>): boolean {
  if (op.response.kind !== "list") return false;
  const quote = quoteOf(plan.a, http.call);
  const filters = (places: Node[]) => filterObject(names, written, places, quote);
  // The list leaves sight through the adapter's `toV1List`: the filters go in as its third argument.
  if (plan.site.keepsV1Record) return filterAdapterList(plan, filters);
  const wraps = unwrapWraps(plan, op.response.wrapper, unwrapEdits);
  const values = wraps && filters(wraps.map((x) => x.at));
  if (!wraps || !values) return false;
  // The other route's `toV1List` would need its own: this site keeps v2 records, or is marked by do no harm.
  plan.site.adapterRoute = undefined;
  wrapInFilter(plan, wraps, op.response.wrapper, op.key.split("#")[0]!, values);
  usesAdapter(plan, wraps[0]!.at);
  return true;
}

/** `{ name: value, … }` written where `places` are, or undefined when a value cannot be. */
function filterObject(names: string[], written: WrittenQuery, places: Node[], quote: string): string | undefined {
  const values: string[] = [];
  for (const name of names) {
    const text = valueSource(written.get(name)![0]!, places, quote);
    if (text === undefined) return undefined;
    values.push(`${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: ${text}`);
  }
  return `{ ${values.join(", ")} }`;
}

/** Each `toV1List(…, "Op")` this site writes gets the filters (every one, or none is changed). */
function filterAdapterList(plan: Plan, filters: (places: Node[]) => string | undefined): boolean {
  const lists = plan.site.adapterLists ?? [];
  const values = lists.length ? filters(lists.map((l) => l.at)) : undefined;
  if (!values) return false;
  for (const l of lists) l.edit.text = l.withFilters(values);
  return true;
}

/** The value as v1 put it in the URL, written where the list is unwrapped; undefined when it cannot be. */
function valueSource(w: Written, places: Node[], quote: string): string | undefined {
  if (w.chosen) return chosenSource(w.chosen, places, quote);
  if (w.literal !== undefined) return quote + w.literal.replace(/\\/g, "\\\\").replace(new RegExp(quote, "g"), `\\${quote}`) + quote;
  const v = w.value;
  if (!v || !portable(v, places) || (w.condition && !portable(w.condition, places))) return undefined;
  const kind = scalarKind(v);
  if (!kind) return undefined;
  // URLSearchParams and template text take String(v) (undefined → "undefined"); axios leaves nullish values out, as filterList does.
  const text = w.serialised === "text" && kind !== "string" ? `String(${v.getText()})` : v.getText();
  if (!w.condition) return text;
  const cond = w.condition.getText();
  // `if (v) qs.append(name, v)`: an empty v was not sent.
  if (cond === v.getText() && kind === "string") return `${cond} || undefined`;
  return `${/^[\w$.?]+$/.test(cond) ? cond : `(${cond})`} ? ${text} : undefined`;
}

/** `running ? "RUNNING" : undefined`: each branch's value, undefined for the branch that sent none. */
function chosenSource(chosen: NonNullable<Written["chosen"]>, places: Node[], quote: string): string | undefined {
  if (!portable(chosen.condition, places)) return undefined;
  const [t, f] = [chosen.whenTrue, chosen.whenFalse].map((b) => (b ? valueSource(b, places, quote) : "undefined"));
  if (t === undefined || f === undefined) return undefined;
  const cond = chosen.condition.getText();
  const wrap = (x: string) => (/^[\w$.]+$|^(["'`]).*\1$/.test(x) ? x : `(${x})`);
  return `${/^[\w$.]+$/.test(cond) ? cond : `(${cond})`} ? ${wrap(t)} : ${wrap(f)}`;
}

/** "string" when every value the type allows is a string, "scalar" for strings, numbers, booleans (nullish too), undefined otherwise. */
function scalarKind(v: Node): "string" | "scalar" | undefined {
  const t = v.getType();
  if (t.isAny() || t.isUnknown()) return "scalar";
  const parts = t.isUnion() ? t.getUnionTypes() : [t];
  if (parts.every((p) => p.isString() || p.isStringLiteral() || p.isTemplateLiteral())) return "string";
  return parts.every((p) => p.isString() || p.isStringLiteral() || p.isNumber() || p.isNumberLiteral() || p.isBoolean() || p.isBooleanLiteral() || p.isUndefined() || p.isNull() || p.isEnumLiteral()) ? "scalar" : undefined;
}
