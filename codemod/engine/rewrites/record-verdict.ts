// The verdict on one answer's record reads, once record-fields.ts has followed its flow: where the
// reads cannot all be renamed (a converted or lost field, a record leaving sight, a schema of the
// app's own, a stream leaving its request), the adapter may hold the record in its v1 form; else the
// record leaving sight is the site's problem. The flow comes in explicitly (RecordFlow); the verdict
// writes the site's edits and problems through `plan`.
import { Node } from "../../ts-morph.ts";
import type { BodyLens, OperationMapping } from "../../../mappings/index.ts";
import type { Plan } from "../state.ts";
import type { Edit } from "../../types.ts";
import type { HttpCall } from "../transports/index.ts";
import type { BodySite } from "../body-sites.ts";
import { declaredBodyRecord, recordTypeOf, streamDeclaredNothing } from "../declared-types.ts";
import { wrapRecordInAdapter, type FollowedReads } from "../adapter-sites.ts";
import { noteAnswerReads, noteStreamConverted } from "./read-facts.ts";
import { observableFlow } from "../observable-flow.ts";
import { rxjsMapIn } from "../observable-answer.ts";
import type { AppRoute } from "../relay-routes.ts";
import { relayedReads } from "../relay-reads.ts";
import { readsBlock, typedRecordReads, type LeftSight, type TypedReads } from "../typed-reads.ts";
import { schemaBoundary } from "./answer-schemas.ts";
import { differingFields } from "./record-field-read.ts";

/** What following one answer's record found (record-fields.ts `recordReads`). */
export interface RecordFlow {
  shape: { kind: "record" | "list" };
  lens: BodyLens;
  /** A pod action's answer, which v1 documents as empty. */
  undocumented: boolean;
  sites: BodySite[];
  /** The body read followed, whether it is a promise of the body, and its type where the read does not declare it. */
  read: Node | undefined;
  readIsPromise: boolean;
  readDeclared: Node | undefined;
  readInStream: boolean;
  /** The fields the flow reads, and where it first reads each. */
  reached: Set<string>;
  reachedAt: Map<string, string>;
  outOfSight: boolean;
  unfollowed: boolean;
  relays: { route: AppRoute; node: Node }[];
  escapes: Node[];
  leftSight: LeftSight[];
  /** Differing fields a declared type names where the value escaped. */
  named: Set<string>;
  leftWhy: Map<Node, string>;
  shown: Node[];
  /** Whether the answer is handed to a function whose reads are not followed. */
  handed: boolean;
}

/** The site's state before this answer's reads were written: what the adapter route drops again. */
export interface ReadsMark {
  edits: number;
  problems: number;
  typeRenames: Set<Node>;
}

export function recordVerdict(plan: Plan, http: HttpCall, op: OperationMapping, unwrapEdits: Set<Edit>, mark: ReadsMark, flow: RecordFlow): void {
  const { shape, lens, undocumented, sites, read, readIsPromise, readDeclared, readInStream, reached, reachedAt, outOfSight, unfollowed, relays, escapes, leftSight, named, leftWhy, shown, handed } = flow;
  /** What the record type said of the reads where the flow lost the record (typed-reads.ts), once the adapter was asked. */
  let typedOutcome: TypedReads | undefined;
  noteAnswerReads(plan, { fields: reached, complete: !!read && !outOfSight && escapes.length === 0 && !shown.length && sites.length === 1 });
  if (shown.length) {
    const where = shown[0]!;
    const line = where.getSourceFile().getLineAndColumnAtPos(where.getStart()).line;
    (plan.site.notes ??= []).push(`the ${shape.kind === "list" ? "list" : "record"} is shown as text (${where.getSourceFile().getBaseName()}:${line}), which now shows v2 fields`);
  }
  // Reads the codemod cannot rename (a converted or lost field), or a record leaving sight: where
  // the adapter holds the record, the app keeps its v1 record (converted back from v2) and every
  // read of it stays as written, so this record's renames and read problems are dropped.
  /** The site with this record through the adapter instead (its renames and list unwrap dropped), or undefined where the adapter does not hold it; the site itself is left as it was. */
  const throughAdapter = (speculative = false) => {
    const saved = { edits: plan.site.edits, typeRenames: plan.site.typeRenames, onApply: plan.site.onApply, keepsV1Record: plan.site.keepsV1Record };
    plan.site.edits = saved.edits.filter((e, i) => i < mark.edits && !unwrapEdits.has(e));
    plan.site.typeRenames = mark.typeRenames;
    const problems = plan.problems.length;
    // Where this one answer is followed to every read, only those reads can miss a field the adapter
    // leaves out; a read through the same type of another value elsewhere cannot see this record.
    // Where it leaves sight only through the app's routes, the code fetching them is followed to its reads.
    const relayed = !streamGone && sites.length === 1 && !unfollowed && relays.length && escapes.every((e) => relays.some((r) => r.node === e)) ? relayedReads(plan.a, relays) : undefined;
    // A closed schema validating the answer holds its own keys and nothing else: they are every read.
    let seen: FollowedReads | undefined = boundary?.fields ? { fields: new Set(boundary.fields.keys()), at: boundary.fields } : !outOfSight && !streamGone && escapes.length === 0 && sites.length === 1 ? { fields: reached } : relayed && "reads" in relayed ? { fields: new Set([...reached, ...relayed.reads.keys()]), at: relayed.reads, through: relayed.through } : undefined;
    const kind = shape.kind === "list" ? "recordList" : "record";
    let fallback = relayed && "undecided" in relayed ? `the code fetching its route was not followed: ${relayed.undecided}` : undefined;
    // Where it left sight only into places its project record type follows, the type's member references are its reads.
    const typed = !seen && !boundary && !relays.length && !streamGone && !stream && !handed && sites.length === 1 && !!read && escapes.length > 0 && escapes.every((e) => leftSight.some((l) => l.node === e)) ? typedRecordReads(plan.a, declaredBodyRecord(plan.a, read) ?? readDeclared, leftSight) : undefined;
    if (typed && "fields" in typed) seen = { fields: new Set([...reached, ...typed.fields]), at: new Map([...reachedAt, ...typed.at]) };
    else if (typed) fallback = `not every read of ${typed.type} is known: ${typed.unknown}`;
    if (!speculative) typedOutcome = typed;
    const found = { fields: new Set([...reached, ...(boundary?.fields?.keys() ?? [])]), where: new Map([...reachedAt, ...(boundary?.fields ?? [])]) };
    const wrapped = stream ? wrapRecordInAdapter(plan, http.call, { rxjsMap: stream }, op, kind, seen, fallback, found) : !!read && wrapRecordInAdapter(plan, read, readIsPromise, op, kind, seen, fallback, found, boundary);
    // Why the adapter could not take it belongs to the site only where the site is marked anyway.
    if (!wrapped && speculative) plan.problems.splice(problems);
    const route = wrapped ? { edits: plan.site.edits, typeRenames: plan.site.typeRenames, onApply: plan.site.onApply } : undefined;
    Object.assign(plan.site, saved);
    return route;
  };
  const unrenamed = plan.problems.length > mark.problems;
  // A schema of the app's own validating the answer in v1 shape: the adapter goes in front of it.
  const boundary = plan.a.adapter && !http.observable ? schemaBoundary(plan, http, op, shape.kind, lens) : undefined;
  const differs = escapes.length > 0 && differingFields(lens.fields, lens.v1Lost).length > 0;
  // An Observable's reads sit in its callbacks, and its values may leave sight between operators: the
  // one place to convert them is where they leave the request (the file's rxjs `map`); without it they stay marked.
  const observed = http.observable ? observableFlow(http.call, http.observable) : undefined;
  // A pod action's answer (v1 documents none) leaving in its stream matters, as in escape(), only where
  // the code declares its values a record: the request's type argument (`post<Pod>`, not `post<void>`)
  // or the declared return type of a function returning the stream (`Observable<Pod>`).
  // Any answer declared as nothing (`post<void>`) has no field TypeScript lets its subscribers read.
  const declaredRecord = !!observed && (!!recordTypeOf(http.call.getTypeArguments()[0]) || observed.returnTypes.some((r) => !!recordTypeOf(r.value)));
  const streamGone = !!observed && (shape.kind === "list" || differingFields(lens.fields, lens.v1Lost).length > 0) && !!observed.leaves && (undocumented ? declaredRecord : !streamDeclaredNothing(http.call, observed.returnTypes));
  const stream = http.observable === "body" && (readInStream || streamGone) ? rxjsMapIn(http.call.getSourceFile()) : undefined;
  if ((unrenamed || differs || boundary || (stream && streamGone)) && (read || stream) && plan.a.adapter && (!readInStream || stream)) {
    const before = plan.problems.length;
    const route = throughAdapter();
    // The adapter said why it cannot serve the schema (a field it cannot fill): that is the schema's mark.
    if (!route && boundary && plan.problems.length > before) (plan.site.adaptedSchemas ??= new Map()).set(boundary.schema, "refused");
    if (route) {
      plan.problems.splice(mark.problems);
      Object.assign(plan.site, route, { keepsV1Record: true });
      if (stream) noteStreamConverted(plan);
      return;
    }
    // Every read known through the record's type: the one that blocks the adapter is the mark's problem, named where it is.
    if (typedOutcome && "fields" in typedOutcome && plan.problems.length > before) return readsBlock(plan.problems.slice(before));
  } else if (read && plan.a.adapter && (!readInStream || stream) && (plan.site.typeRenames?.size ?? 0) > mark.typeRenames.size) {
    // Renamed through the project's own types: if do no harm later finds a type shared with a
    // v1-shaped record, the site takes this route instead (the adapter keeps its record v1 too).
    const route = throughAdapter(true);
    if (route) plan.site.adapterRoute = { ...route, uses: [...plan.site.typeRenames!].filter((d) => !mark.typeRenames.has(d)) };
  }
  if (escapes.length) {
    const fields = differingFields(lens.fields, lens.v1Lost).filter((f) => !named.size || f.split("→")[0]!.split("+").some((x) => named.has(x.split(".")[0]!)));
    if (fields.length) {
      const where = escapes[0]!;
      const line = where.getSourceFile().getLineAndColumnAtPos(where.getStart()).line;
      plan.problems.push({
        risk: "silent",
        reason: `the ${shape.kind === "list" ? "records of the list" : "response record"} ${shape.kind === "list" ? "are" : "is"} used where the codemod cannot follow it (${where.getSourceFile().getBaseName()}:${line}), and these v1 fields differ in v2: ${fields.join(", ")}`,
        advice: "check every read of the record against the v2 record (docs/mapping.md)",
        brief: leftWhy.has(where) ? `the ${shape.kind === "list" ? "list's records leave" : "record leaves"} the codemod's sight: ${leftWhy.get(where)}` : typedOutcome && "unknown" in typedOutcome ? `not every read of ${typedOutcome.type} is known: ${typedOutcome.unknown}` : `the ${shape.kind === "list" ? "list's records leave" : "record leaves"} the codemod's sight (${where.getSourceFile().getBaseName()}:${line}) and ${fields.length} v1 field${fields.length > 1 ? "s differ" : " differs"} in v2 (audit --format json names them)`,
      });
    }
  }
}
