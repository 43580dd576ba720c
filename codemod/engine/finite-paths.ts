// A path with a segment that holds one of a finite set of strings (`/pods/${id}/${action}` with
// `action: "start" | "stop" | "restart"`, a guard `ACTIONS.has(action)`, a `switch`): each value
// gives a v1 path and its operation. When every value's operation has the same v2 call, differing
// only in the fixed body (the pod actions: `POST /v2/pods/{id}/action` with `{ action }`), the
// site is rewritten once with that value computed in the body; otherwise the site is marked,
// naming what each value calls.
import { Node } from "../ts-morph.ts";
import { matchV1, operations, type OperationMapping } from "../../mappings/index.ts";
import { finiteStrings, typeStrings } from "./evaluate/finite-strings.ts";
import { HOLE, type LocatedUrl } from "./urls.ts";
import { newPathFor, uniqueMatches, type Match } from "./v1-match.ts";
import { renderValue } from "./body-render.ts";
import { resolveIdentifier } from "./scope.ts";
import type { Edit } from "../types.ts";
import { rewriteUrlWithout } from "./url-drop-holes.ts";

const MAX_EXPANSIONS = 32;

export interface Expansion {
  /** The value of each finite hole, in the order of `FinitePath.holes`. */
  values: string[];
  path: string;
  matches: Match[];
}

export interface FinitePath {
  holes: { node: Node; values: string[] }[];
  expansions: Expansion[];
}

/** Each path the URL can have, where some of its path holes hold a finite set of strings. */
export function expandFinite(url: LocatedUrl, method: string | undefined, declared?: (n: Node) => string[] | undefined): FinitePath | undefined {
  const pathHoles = url.parts.filter((p) => p.kind === "hole").slice(0, url.path.split(HOLE).length - 1);
  const holes = pathHoles.map((p) => ({ node: p.node, values: finiteStrings(p.node, declared) })).filter((h): h is { node: Node; values: string[] } => !!h.values?.length);
  if (!holes.length || holes.reduce((n, h) => n * h.values.length, 1) > MAX_EXPANSIONS) return undefined;
  let combos: string[][] = [[]];
  for (const h of holes) combos = combos.flatMap((c) => h.values.map((v) => [...c, v]));
  const expansions = combos.map((values) => {
    const path = url.path.split(HOLE).reduce((acc, chunk, k) => {
      if (k === 0) return chunk;
      const at = holes.findIndex((h) => h.node === pathHoles[k - 1]!.node);
      return acc + (at >= 0 ? values[at]! : HOLE) + chunk;
    }, "");
    const matches = method ? [matchV1(method, path)].filter((m): m is Match => !!m) : uniqueMatches(path);
    return { values, path, matches };
  });
  return { holes, expansions };
}

const opText = (o: OperationMapping) => `${o.key}${o.v2 ? ` → ${o.v2.method} ${o.v2.path}` : " (no v2 equivalent)"}`;

/** `start: StartPod → POST /v2/pods/{id}/action; reset: ResetPod (no v2 equivalent); logs: not a v1 path`. */
export function describeExpansions(fp: FinitePath): string {
  return fp.expansions.map((e) => `${e.values.join(", ")}: ${e.matches.length ? e.matches.map((m) => opText(m.operation)).join(" / ") : "not a v1 path"}`).join("; ");
}

/** Every operation the site can call, for its finding (`StartPod|StopPod|RestartPod`). */
export function operationKeys(fp: FinitePath): string | null {
  const keys = [...new Set(fp.expansions.flatMap((e) => e.matches.map((m) => m.operation.key)))];
  return keys.length ? keys.join("|") : null;
}

export type FiniteDecision =
  | { kind: "rewrite"; match: Match; urlEdits: Edit[]; body?: { computed: string; shown: string }; v1Path: string }
  | { kind: "mark"; reason: string; advice: string };

/**
 * Whether the values all make one v2 call that differs only by a value of its fixed body, and
 * then the URL edits (without the finite segments) and the body computing that value.
 */
export function decideFinite(fp: FinitePath, url: LocatedUrl, call: Node, quote: string, typescript: boolean): FiniteDecision {
  const from = fp.holes.map((h) => h.node.getText()).join(", ");
  const described = describeExpansions(fp);
  const mark = (why: string, advice: string): FiniteDecision => ({ kind: "mark", reason: `the v1 path is computed at run time from ${from} (${described})${why ? `: ${why}` : ""}`, advice });
  const unmatched = fp.expansions.filter((e) => e.matches.length !== 1);
  if (unmatched.length) return mark(`${unmatched.map((e) => JSON.stringify(e.values.join(", "))).join(", ")} ${unmatched.length > 1 ? "are" : "is"} not one v1 operation here`, "handle each value explicitly (drop the ones v1 does not have), then write each operation's v2 call (docs/mapping.md)");
  const ops = fp.expansions.map((e) => e.matches[0]!.operation);
  const lost = ops.filter((o) => o.status === "no-equivalent" || !o.v2);
  if (lost.length) return mark(`${[...new Set(lost.map((o) => o.key))].join(", ")} has no v2 equivalent`, "handle that value on its own (see docs/mapping.md), then call the v2 base for the others");
  const newPaths = fp.expansions.map((e) => newPathFor(e.matches[0]!, { ...url, path: e.path }));
  const first = ops[0]!;
  const sameShape = ops.every((o) => o.v2!.method === first.v2!.method && o.request?.lens === first.request?.lens && o.response.kind === first.response.kind && (o.response as any).lens === (first.response as any).lens && (o.response as any).wrapper === (first.response as any).wrapper && o.v2AnswerRecord === first.v2AnswerRecord && sameKeys(o.request?.fixedBody, first.request?.fixedBody));
  if (!sameShape || newPaths.some((p) => p === null || p !== newPaths[0])) return mark("the values call v2 operations of different shapes", "write each value's v2 call on its own (docs/mapping.md)");
  const body = computedBody(fp, ops, call, quote, typescript);
  if (body === null) return mark("the v2 body cannot be computed from the value here", "write the v2 body for each value (docs/mapping.md)");
  const urlEdits = rewriteUrlWithout(url, newPaths[0]!, fp.holes.map((h) => h.node));
  if (!urlEdits) return mark("the v2 path cannot be written into this URL expression", `use ${first.v2!.method} ${first.v2!.path}`);
  return { kind: "rewrite", match: fp.expansions[0]!.matches[0]!, urlEdits, ...(body ? { body } : {}), v1Path: v1PathOf(ops) };
}

function sameKeys(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  return Object.keys(a ?? {}).sort().join() === Object.keys(b ?? {}).sort().join();
}

/** `/pods/{podId}/{start|stop|restart}`: the v1 paths with the segments that differ listed. */
function v1PathOf(ops: OperationMapping[]): string {
  const split = ops.map((o) => o.v1.path.split("/"));
  return split[0]!.map((seg, i) => {
    const all = [...new Set(split.map((s) => s[i]))];
    return all.length > 1 ? `{${all.join("|")}}` : seg;
  }).join("/");
}

/**
 * The fixed body as source, each field computed from the value that chooses it: the segment itself
 * (`{ action }`) or a literal map (`({ reset: "restart" } as const)[action]`). Undefined: no body;
 * null: a field no one segment decides, or a segment that cannot be read again at the call.
 */
export function computedBody(fp: FinitePath, ops: OperationMapping[], call: Node, quote: string, typescript: boolean): { computed: string; shown: string } | undefined | null {
  const bodies = ops.map((o) => o.request?.fixedBody ?? {});
  const keys = Object.keys(bodies[0]!);
  if (!keys.length) return undefined;
  const fields: string[] = [];
  for (const key of keys) {
    const vals = bodies.map((b) => b[key]);
    if (vals.every((v) => JSON.stringify(v) === JSON.stringify(vals[0]))) {
      fields.push(`${key}: ${renderValue(vals[0], quote)}`);
      continue;
    }
    const h = fp.holes.findIndex((_, k) => decides(fp.expansions.map((e) => e.values[k]!), vals));
    const hole = fp.holes[h];
    if (!hole || !readableAt(hole.node, call)) return null;
    // In TypeScript, a set proven by a guard rather than the type is said with a cast (typed v2 bodies take the literals).
    const typed = typeStrings(hole.node);
    const expr = typescript && !(typed && typed.every((v) => hole.values.includes(v))) ? `${hole.node.getText()} as ${hole.values.map((v) => renderValue(v, quote)).join(" | ")}` : hole.node.getText();
    const identity = fp.expansions.every((e, i) => e.values[h] === vals[i]);
    if (identity) fields.push(expr === key ? key : `${key}: ${expr}`);
    else {
      const entries = [...new Map(fp.expansions.map((e, i) => [e.values[h]!, vals[i]])).entries()];
      const map = `{ ${entries.map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : renderValue(k, quote)}: ${renderValue(v, quote)}`).join(", ")} }`;
      fields.push(`${key}: (${map}${typescript ? " as const" : ""})[${expr.includes(" as ") ? `(${expr})` : expr}]`);
    }
  }
  const computed = `{ ${fields.join(", ")} }`;
  return { computed, shown: computed };
}

/** Whether equal values of the segment always give equal body values. */
function decides(segment: string[], vals: unknown[]): boolean {
  const seen = new Map<string, string>();
  return segment.every((s, i) => {
    const v = JSON.stringify(vals[i]);
    if (seen.has(s) && seen.get(s) !== v) return false;
    seen.set(s, v);
    return true;
  });
}

/**
 * The segment's expression can be written again in the call's body: a name or property chain
 * (reading it computes nothing) written in the call itself, or a parameter of a function the call is in.
 */
function readableAt(expr: Node, call: Node): boolean {
  let n: Node = expr;
  while (Node.isPropertyAccessExpression(n)) n = n.getExpression();
  if (!Node.isIdentifier(n) && !Node.isThisExpression(n)) return false;
  if (expr.getFirstAncestor((a) => a === call)) return true;
  const b = Node.isIdentifier(n) ? resolveIdentifier(n) : undefined;
  return b?.kind === "param" && !!call.getFirstAncestor((a) => a === b.fn);
}

const MAX_POSSIBLE = 12;

/**
 * The v1 operations a path with unbounded segments can call (`/pods/{…}/{…}` with POST: the pod
 * actions and the update synonym), each segment computed at run time standing for any one segment.
 * Empty when it cannot be said (a hole spanning several segments, or too many operations).
 */
export function possibleOperations(path: string, method: string | undefined): OperationMapping[] {
  const out = sameShape(path, method) ?? [];
  return out.length <= MAX_POSSIBLE ? out : [];
}

/** Whether a path whose holes are whole segments (`/pods/${id}/terminate`) has the shape of no v1 route. */
export function noV1Shape(path: string, method: string | undefined): boolean {
  return sameShape(path, method)?.length === 0;
}

/** The v1 operations a path of whole-segment holes can call; undefined when a hole is part of a segment. */
function sameShape(path: string, method: string | undefined): OperationMapping[] | undefined {
  const segs = path.split("/").filter(Boolean);
  if (segs.some((s) => s.includes(HOLE) && s !== HOLE)) return undefined;
  return operations.filter((o) => {
    if (method && o.v1.method !== method) return false;
    const t = o.v1.path.split("/").filter(Boolean);
    return t.length === segs.length && t.every((seg, i) => segs[i] === HOLE || /^\{\w+\}$/.test(seg) || seg === segs[i]);
  });
}
