// Error reads, one rule for all: a read of a v1 error field (`body.message`, `{ error }`) is
// reached by the calls whose failure path leads to it (error-flow.ts), beside the call or in
// shared code (an interceptor, `unwrap(res)`, `toHttpError(e)`, a request helper's own check).
// After do no harm has settled which calls migrate:
//   - reached only by calls that now talk to v2: it reads v2's field (`.detail`)
//   - reached also by calls kept on v1 (marked, on RUNPOD_V1_BASE) or by code that is no v1 call
//     at all: it reads both (`(body.detail ?? body.message)`, cast where TypeScript types the body)
//   - reached by no migrated call: left as it is
// Where neither form can be written (a value computed in place, a read-only file), the read is
// marked and reported: one finding at the read, naming the calls that lose their message. A read
// in a function the body was handed to (`fail(op, status, body)`) that other code calls too reads
// both. Where the body is handed to a callee the engine cannot resolve, that call is marked.
import { findReferencesAsNodes } from "./find-references.ts";
import { SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { errorFieldMap } from "../../mappings/index.ts";
import { Node } from "../ts-morph.ts";
import { errorTypeMembers, errorTypeNode, namedTypeUsedElsewhere } from "./rewrites/error-body-types.ts";
import type { Analysis, SharedErrorRead, Site } from "./state.ts";
import { failureBodies, type Unfollowed } from "./error-flow.ts";
import { caughtBodiesByShape, errorFieldReads, errorReadEdits, readDeclarations, type ErrorRead, type ReadMode, type ReadTrail } from "./rewrites/error-fields.ts";
import { storedReads } from "./stored-error-reads.ts";
import { markForSites } from "./marks-for-sites.ts";
import { inInterceptor } from "./caught-errors.ts";
import { describeRead } from "./response-branch.ts";
import { calledByOthers } from "./handed-on.ts";
import type { HttpCall } from "./transports/transport.ts";

function note(a: Analysis, read: ErrorRead, site: Site, foreign: boolean): void {
  if (!a.files.has(read.node.getSourceFile().getFilePath())) return;
  const entry = a.errorReads.get(read.node) ?? { node: read.node, field: read.field, schema: read.schema, sites: new Set<Site>(), foreign: false };
  entry.sites.add(site);
  entry.foreign ||= foreign;
  for (const hop of read.hops ?? []) {
    (entry.hops ??= []).push(hop);
    (entry.through ??= new Set()).add(hop.fn);
    a.errorHops.set(hop.fn, (a.errorHops.get(hop.fn) ?? new Set()).add(hop.call));
  }
  a.errorReads.set(read.node, entry);
}

function noteHand(a: Analysis, call: Node, why: string, site: Site): void {
  if (!a.files.has(call.getSourceFile().getFilePath())) return;
  const entry = a.unfollowedErrorHands.get(call) ?? { why, sites: new Set<Site>() };
  a.unfollowedErrorHands.set(call, entry);
  entry.sites.add(site);
}

/** Pass: the error reads on the failure path of each call planned in this file. */
export function registerErrorReads(a: Analysis, sf: SourceFile): void {
  for (const site of a.sites) {
    if (!site.finding || !site.http || site.call.getSourceFile() !== sf) continue;
    const unfollowed: Unfollowed = {
      hook: (hook) => void (a.files.has(hook.getSourceFile().getFilePath()) && a.unfollowedHooks.set(hook, (a.unfollowedHooks.get(hook) ?? new Set()).add(site))),
      hand: (call, why) => noteHand(a, call, why, site),
    };
    for (const { read, foreign } of failureReads(a, site.http, unfollowed)) note(a, read, site, foreign);
  }
}

/**
 * The v1 error-field reads on a call's failure path, each with whether code that is no v1 call reaches
 * it too (the call need not be a site yet: hand-moved-site.ts asks whether a call on v2 still reads v1's).
 */
export function failureReads(a: Analysis, http: HttpCall, unfollowed: Unfollowed): { read: ErrorRead; foreign: boolean }[] {
  const out: { read: ErrorRead; foreign: boolean }[] = [];
  for (const body of failureBodies(a, http, unfollowed)) {
    // A parsed body handed on where it is certainly an error (`if (!res.ok) onError(body)`): out of sight there.
    const errorSide = (n: Node) => body.errorSide || describeRead(n, body.node).side === "error";
    const hand = (call: Node, why: string) => errorSide(call) && unfollowed.hand(call, why);
    const reads: ErrorRead[] = [];
    // The body stored on what the call throws (`new ApiError(status, body)`): read where it is caught.
    const trail: ReadTrail = { hops: body.hops, unfollowed: hand, stored: (s) => storedReads(a, http.call, s, (n, hops) => errorFieldReads(a, n, reads, 0, { ...trail, hops }), hand, errorSide) };
    errorFieldReads(a, body.node, reads, 0, trail);
    for (const read of reads) out.push({ read, foreign: body.foreign });
  }
  return out;
}

/**
 * Pass (after the first, for every file): a caught HTTP client error's body read in a file that
 * calls v1 (`e.response.data.message`) that no call's path was followed to is taken as the
 * failure of every call of the file (an interceptor of another instance excepted).
 */
export function registerCaughtReadsByShape(a: Analysis, sf: SourceFile): void {
  const mine = a.sites.filter((s) => s.finding && s.http && s.call.getSourceFile() === sf && s.call.getKind() === SyntaxKind.CallExpression);
  if (!mine.length) return;
  for (const body of caughtBodiesByShape(sf)) {
    // An interceptor's instance says which calls reach it: none of this file's, if it was not followed.
    if (inInterceptor(a, body)) continue;
    for (const read of errorFieldReads(a, body)) if (!a.errorReads.has(read.node)) for (const s of mine) note(a, read, s, false);
  }
}

/** After do no harm: each read gets the form its calls need, or a mark. */
export function settleErrorReads(a: Analysis): void {
  markUnfollowedHooks(a);
  markUnfollowedHands(a);
  const modes = new Map<SharedErrorRead, ReadMode | null>();
  for (const r of a.errorReads.values()) {
    // A function the body was handed to, also called where no v1 call's failure was followed: it reads other errors too.
    r.foreign ||= [...(r.through ?? [])].some((fn) => calledByOthers(a, fn, a.errorHops.get(fn)));
    const migrated = [...r.sites].filter((s) => s.applied).length;
    modes.set(r, !migrated ? null : migrated === r.sites.size && !r.foreign ? "convert" : "both");
  }
  // A declared error type that a read keeping v1's field is typed with keeps the field too: reads
  // through it that would rename it read both instead.
  const kept = new Set<Node>();
  for (const [r, mode] of modes) if (mode !== "convert") readDeclarations(a, r).forEach((d) => kept.add(d));
  // A named error type's field read where no converted read is (another API's error): it keeps the field too.
  const converting = [...modes].filter(([, m]) => m === "convert").map(([r]) => r);
  const converted = new Set(converting.map((r) => readName(r.node)));
  const covered = converting.map((r) => errorTypeNode(a, r.node)).filter((t): t is Node => !!t);
  for (const r of converting) for (const d of namedErrorMembers(a, r)) if (readElsewhere(d, converted) || namedTypeUsedElsewhere(a, d, covered)) kept.add(d);
  // A declared field also read where no error body is (the project's parser of other text): it keeps its name.
  for (const r of converting) for (const d of readDeclarations(a, r)) if (readElsewhere(d, converted)) kept.add(d);
  for (const [r, mode] of modes) if (mode === "convert" && readDeclarations(a, r).some((d) => kept.has(d))) modes.set(r, "both");
  const written = new Set<string>();
  for (const [r, mode] of modes) {
    if (!mode) continue;
    const path = r.node.getSourceFile().getFilePath();
    const frozen = a.frozen.get(path);
    const result = frozen ? { problem: frozen } : errorReadEdits(a, r, mode);
    if ("edits" in result) {
      // Reads through one declared type widen it once.
      for (const e of result.edits) if (!written.has(`${e.file}:${e.start}:${e.end}:${e.text}`)) written.add(`${e.file}:${e.start}:${e.end}:${e.text}`), a.files.get(e.file ?? path)?.edits.push(e);
      continue;
    }
    const v2 = errorFieldMap[r.field];
    const reason = (calls: string, one: boolean) => `reads the v1 error field ${r.field} of ${one ? "a call" : "calls"} now on v2 (${calls}), whose errors are RFC 9457 problems (${v2}); it cannot be rewritten here: ${result.problem}`;
    const advice = `read ${v2} here as well as ${r.field} (${mode === "both" ? "calls still on v1 answer { " + r.field + " }" : "every call reaching it is on v2"}), e.g. (body.${v2} ?? body.${r.field})`;
    markForSites(a, r.node, [...r.sites].filter((s) => s.applied), reason, advice, "error-read");
  }
}

function readName(n: Node): Node {
  return Node.isPropertyAccessExpression(n) ? n.getNameNode() : Node.isBindingElement(n) ? n.getPropertyNameNode() ?? n.getNameNode() : n;
}

/** The members of the error type written at a read's root (`AxiosError<RunpodError>`), by its written type. */
function namedErrorMembers(a: Analysis, r: SharedErrorRead): Node[] {
  return Node.isPropertyAccessExpression(r.node) && /\.response\??\.(data|body)$/.test(r.node.getExpression().getText().replace(/\s/g, "")) ? errorTypeMembers(a, r.node, r.field) : [];
}

/** Whether a type's member is read somewhere that is not one of `converted` (names of reads moving to v2's field). */
function readElsewhere(member: Node, converted: Set<Node>): boolean {
  try {
    const name = (member as any).getNameNode() as Node;
    return findReferencesAsNodes(name).some((ref: Node) => ref !== name && !converted.has(ref));
  } catch {
    return true;
  }
}

/** A got/ky hook the codemod cannot read, on the failure path of calls now on v2: it may read their v1 `message`. */
function markUnfollowedHooks(a: Analysis): void {
  for (const [hook, sites] of a.unfollowedHooks) {
    const migrated = [...sites].filter((s) => s.applied);
    if (!migrated.length) continue;
    const reason = (calls: string) => `the client's hook ${short(hook)} cannot be read, and calls now on v2 (${calls}) fail through it with RFC 9457 problems (detail, not message)`;
    const advice = "where it reads the error body's message, read detail too: (body.detail ?? body.message)";
    markForSites(a, hook, migrated, reason, advice, "hook");
  }
}

/** A call handing the error body of calls now on v2 to a callee the engine cannot resolve: what is read there is not known. */
function markUnfollowedHands(a: Analysis): void {
  for (const [call, { why, sites }] of a.unfollowedErrorHands) {
    const migrated = [...sites].filter((s) => s.applied);
    if (!migrated.length) continue;
    // A schema validating the body (error-fields.ts) reads the fields it names: it rejects every v2 problem.
    const schema = why.startsWith("the zod schema ");
    const reason = (calls: string, one: boolean) =>
      `the error body of ${one ? "a call" : "calls"} now on v2 (${calls}) goes to ${why}, ${schema ? "which rejects v2 problems (they carry detail, not message)" : "where its reads cannot be followed (v2 problems carry detail, not message)"}`;
    const advice = schema
      ? "make the schema accept v2's problem too (message and detail optional) and read detail ?? message from it"
      : "where that code reads the body's message (or error), read detail too: (body.detail ?? body.message)";
    markForSites(a, call, migrated, reason, advice, "error-read");
  }
}

function short(n: Node): string {
  const t = n.getText().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}…` : t;
}
