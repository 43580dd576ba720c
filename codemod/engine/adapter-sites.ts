// The boundary adapter at a site: where a v1 record leaves the codemod's sight (returned to the
// app's own callers, serialised for an MCP client or a browser), the call is migrated anyway and
// the record read is wrapped in the adapter's `toV1Record`, so the app's interfaces keep their
// v1 shape. The module (codemod/adapter/) is written once into the project; each file that uses it
// imports it. Conversions the adapter does not hold (emulations, catalog lookups, converters with
// no source form) keep their mark.
import path from "node:path";
import { Node } from "../ts-morph.ts";
import type { BindingElement } from "ts-morph";
import type { Edit } from "../types.ts";
import { clientAnswer, lenses, type OperationMapping } from "../../mappings/index.ts";
import { adapterCall, adapterCovers, adapterFileName, adapterImport, adapterOmissions, ADAPTER_BINDING, type AdapterOptions } from "../adapter/index.ts";
import { projectReader } from "./project-reads.ts";
import { adapterDir } from "./adapter-place.ts";
import { edit, heldEdit, type Analysis, type Plan, type FileState } from "./state.ts";
import type { Problem } from "./rewrites/problems.ts";
import { afterImports, beforeFallbacks, isTypeScriptFile, referencesOf, skipParens, statementOf } from "./nodes.ts";
import { insertAt } from "./text-edit.ts";
import { classifyRead, describeRead } from "./response-branch.ts";
import { enclosingFunction } from "./scope.ts";
import { schemaName } from "./schema-parse.ts";
import { ownFallbackChain } from "./result-fallback.ts";

/** The fields a record's flow reads, followed to every read; `at`/`through`: found in the code fetching the app's routes it is answered from. */
export interface FollowedReads {
  fields: ReadonlySet<string>;
  at?: ReadonlyMap<string, string>;
  through?: string;
}

/** The fields the answer's flow reached (even where it also leaves sight), and where each is first read (`file:line`). */
export interface ReachedReads {
  fields: ReadonlySet<string>;
  where: ReadonlyMap<string, string>;
}

/** A schema of the app's own that validates the answer: the conversion goes in front of it (rewrites/answer-schemas.ts). */
export interface AdapterBoundary {
  schema: Node;
  /** `schema`: the schema handed on is wrapped in `validatesV1`; `value`: the value it parses is converted. */
  wraps: "schema" | "value";
  node: Node;
  /** Every field a value it passes holds (a closed schema), with where it names each: then the reads given are these. */
  fields?: ReadonlyMap<string, string>;
}

/**
 * Wraps the body read in the adapter when it holds this operation's record (or, for a list, its
 * records: `toV1List` unwraps and converts them); false when it does not. `reads`: the fields the
 * answer's own flow reads, when it was followed to every read (nothing out of sight); otherwise any
 * file of the project reading a field the adapter leaves out may be reading this record. `reads.at`:
 * where a read was found in the code fetching the app's routes it is answered from (`through`);
 * `unfollowed`: why that code, or the record type's reads, could not be followed (the word search decides, and the mark says why).
 * `reached`: the fields the flow did reach where it also leaves sight; a read of a left-out field among them marks the site where it is (the word search only where none is reached).
 * `boundary`: a schema validating the answer, handed its v1 form instead of the read being converted.
 */
export function wrapRecordInAdapter(plan: Plan, read: Node, promise: boolean | { rxjsMap: string }, op: OperationMapping, kind: "record" | "recordList" = "record", reads?: FollowedReads, unfollowed?: string, reached?: ReachedReads, boundary?: AdapterBoundary): boolean {
  if (!plan.a.adapter) return false;
  if (boundary) (read = boundary.node), (promise = false);
  // `await call(…).catch((e) => ({ error: e.message }))`: the answer is converted before the fallback, which stays the code's own.
  const fallback = promise === false && !Node.isBindingElement(read) ? ownFallbackChain(read) : undefined;
  if (fallback) (read = fallback), (promise = true);
  // What the adapter cannot give a schema of the app's own rejects on every answer: named first in the mark.
  const problems = boundary ? { push: (p: Problem) => plan.problems.push({ risk: "silent", ...p, advice: /^read what the v2 record/.test(p.advice) ? `take those fields out of ${schemaName(boundary.schema)} (or make them optional), or write it in v2 field names (docs/mapping.md)` : p.advice }) } : plan.problems;
  // `const body = await r.json(); if (!r.ok) throw new Error(JSON.stringify(body))`: the body also
  // serves the failure side: its reads there were written for the unconverted answer, so the body is converted after the check.
  if (typeof promise !== "object" && !Node.isBindingElement(read) && servesFailureSide(read)) {
    problems.push({ reason: "the body is read before the response's status check, which also uses it on failure: converted there, the failure side would read v1's { message } made from v2's problem, not the answer its reads were migrated for", advice: "convert the body after the ok check (or read the problem's detail on failure)" });
    return false;
  }
  // `const data = await r.json(); if (data.error) throw …` with no status check: the body tells failures by its error field.
  const told = typeof promise !== "object" && !Node.isBindingElement(read) ? errorFieldTest(read) : undefined;
  if (told) {
    problems.push({ reason: `the body is also read for v1's error field (${told}) with no status check: converted, a v2 problem becomes v1's { message } with no ${told}, so failures would stop being told`, advice: "check response.ok, then convert the body (or read the problem's detail on failure)" });
    return false;
  }
  // Exactly, or without fields the live catalog fills, where nothing in the project reads them.
  const omitted = adapterCovers(kind, op.key) === true ? [] : adapterOmissions(kind, op.key);
  if (!omitted) return false;
  // A create's templateId is the one its request sent (the gateway copies it back): a body written at the call without one has none in v1 either.
  const left = omitted.includes("templateId") && sendsNo(plan.site.http?.body?.node, "templateId") ? omitted.filter((f) => f !== "templateId") : omitted;
  // Fields the adapter leaves out (the live catalog's), or v2 does not have at all: nothing may read them.
  for (const [fields, why] of [[left, "the adapter cannot fill"], [lostFields(op), "v2 records do not have"]] as const) {
    const readAt = (f: string) => (reads?.at?.get(f) ? `${f} (${reads.at.get(f)}${reads.through ? `, fetched from ${reads.through}` : ""})` : reached?.where.get(f) ? `${f} (${reached.where.get(f)})` : f);
    if (reads) {
      const read = fields.filter((f) => readsField(reads.fields, f, !!reads.through));
      if (!read.length) continue;
      // A closed schema's keys are the reads: the schema names them.
      const reason = boundary?.fields ? `the schema ${schemaName(boundary.schema)} names ${read.map(readAt).join(", ")}, which ${why}` : `${why} ${fields.join(" / ")}, and the record is read for ${read.map(readAt).join(", ")}`;
      problems.push({ reason, advice: "read what the v2 record has instead (docs/mapping.md)" });
      return false;
    }
    // Not followed to every read: a read of one of them the flow did reach decides, named where it is.
    const hit = fields.filter((f) => !!reached && readsField(reached.fields, f, false));
    if (hit.length) {
      problems.push({ reason: `${why} ${fields.join(" / ")}, and the record is read for ${hit.map(readAt).join(", ")}`, advice: "read what the v2 record has instead (docs/mapping.md)" });
      return false;
    }
    // A nested field is searched for by its own name (`gpu.oneMonthPrice` → oneMonthPrice).
    const reader = fields.length ? projectReader(plan.a, [...new Set(fields.map((f) => f.split(".").pop()!))], read.getSourceFile().getFilePath(), op.v1.path.split("/")[1]?.replace(/s$/, "")) : undefined;
    if (!reader) continue;
    const where = path.relative(plan.a.adapter.root, reader.file).split(path.sep).join("/");
    const line = reader.read ? `${where}:${reader.read.line} may read ${reader.read.field}` : `${where} may read one`;
    problems.push({ reason: `${why} ${fields.join(" / ")}, and ${line}${unfollowed ? ` (${unfollowed})` : ""}`, advice: "read what the v2 record has instead (docs/mapping.md)" });
    return false;
  }
  // Insertions around the read (its own path and body edits stay inside); a promise gets `.then`.
  // TypeScript: an untyped promise (`.json()` of a client typed `any`) gives the callback no type.
  const ts = isTypeScriptFile(read.getSourceFile().getFilePath());
  const param = `${kind === "record" ? "record" : "body"}${ts ? ": unknown" : ""}`;
  // An Observable's values (`read` is the request): converted as they leave it, by the file's own rxjs `map`.
  const stream = typeof promise === "object" ? promise.rxjsMap : undefined;
  // The text around the read; a record list's v1 filters go in its conversion's call (query-moves.ts).
  const around = (filters?: string): string[] => {
    const conversion = (expr: string) => adapterCall(kind, op.key, expr, undefined, undefined, filters);
    if (stream) return ["", `.pipe(${stream}((${param}) => ${conversion(param.split(":")[0]!)}))`];
    // `rp(PodSchema, …)` → `rp(v2Adapter.validatesV1(PodSchema, (answer) => v2Adapter.toV1Record.pod(answer)), …)`.
    if (boundary?.wraps === "schema") return [`${ADAPTER_BINDING}.validatesV1(`, `, (answer) => ${conversion("answer")})`];
    if (promise) return ["", `.then((${param}) => ${conversion(param.split(":")[0]!)})`];
    return conversion("\0").split("\0");
  };
  let [open, close] = around() as [string, string];
  // A record the client may answer as null (`res.result` of `result: T | null`) stays null, as v1's reads of it expected.
  if (!promise && !boundary && kind === "record" && !Node.isBindingElement(read) && mayBeNull(read) && /^[\w$]+(\??\.[\w$]+)*$/.test(read.getText())) {
    open = `(${read.getText()} && ${open}`;
    close = `${close})`;
  }
  const firstOperator = stream ? pipedFirst(read) : undefined;
  // The edit holding the closing text, and how that text is written from `close`.
  let closing: { edit: Edit; at: Node; render: (close: string) => string };
  if (Node.isBindingElement(read)) {
    const wrapped = wrapBinding(plan, read, open, close);
    if (!wrapped) return false;
    closing = wrapped;
  } else if (firstOperator) {
    // `get(…).pipe(catchError(…))`: the conversion is the pipe's first operator.
    const render = (text: string) => `${text.slice(".pipe(".length, -1)}, `;
    closing = { edit: heldEdit(plan, firstOperator, { start: firstOperator.getStart(), end: firstOperator.getStart(), text: render(close) }), at: firstOperator, render };
  } else {
    if (open) edit(plan, read, { start: read.getStart(), end: read.getStart(), text: open });
    const end = promise === true ? beforeFallbacks(read) : read;
    // `x as unknown as Promise<Pod[]>`: the then goes on the asserted promise, in parentheses.
    const asserted = promise === true && (Node.isAsExpression(end) || Node.isSatisfiesExpression(end));
    if (asserted) edit(plan, end, { start: end.getStart(), end: end.getStart(), text: "(" });
    const render = (text: string) => (asserted ? `)${text}` : text);
    closing = { edit: heldEdit(plan, end, { start: end.getEnd(), end: end.getEnd(), text: render(close) }), at: end, render };
  }
  if (kind === "recordList") (plan.site.adapterLists ??= []).push({ edit: closing.edit, at: closing.at, withFilters: (filters) => closing.render(around(filters)[1]!) });
  const without = left.length ? ` (without ${left.join(", ")}, which ${reads?.through ? `the code fetching ${reads.through} does not read` : reads ? "this record's reads do not name" : "nothing in the project reads"})` : "";
  const forSchema = boundary ? ` for the schema ${schemaName(boundary.schema)}` : "";
  note(plan, read, kind === "record" ? `the v2 ${op.key.split("#")[0]} record is converted back to v1 by ${ADAPTER_BINDING}${forSchema}${without}` : `the v2 ${op.key.split("#")[0]} list is unwrapped and its records converted back to v1 by ${ADAPTER_BINDING}${forSchema}${without}`);
  if (boundary) (plan.site.adaptedSchemas ??= new Map()).set(boundary.schema, "wrapped");
  const site = plan.site;
  site.keepsV1Record = true;
  const before = site.onApply;
  site.onApply = () => {
    before?.();
    useAdapter(plan.a, site.file ?? plan.a.files.get(read.getSourceFile().getFilePath())!);
  };
  return true;
}

/** A body object written in place (no spread) that has no key `field`. */
function sendsNo(body: Node | undefined, field: string): boolean {
  const literal = body && Node.isParenthesizedExpression(body) ? body.getExpression() : body;
  if (!literal || !Node.isObjectLiteralExpression(literal)) return false;
  return literal.getProperties().every((p) => {
    const name = (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) ? p.getNameNode() : undefined;
    return !!name && (Node.isIdentifier(name) || Node.isStringLiteral(name)) && (Node.isStringLiteral(name) ? name.getLiteralText() : name.getText()) !== field;
  });
}

/** The first operator of a `.pipe(…)` called on the request itself, if any. */
function pipedFirst(call: Node): Node | undefined {
  const access = call.getParent();
  const piped = access && Node.isPropertyAccessExpression(access) && access.getName() === "pipe" ? access.getParent() : undefined;
  return piped && Node.isCallExpression(piped) && piped.getExpression() === access ? piped.getArguments()[0] : undefined;
}

/**
 * axios `const { data: pod } = await api.get(…)`: a pattern has no place for a call, so the
 * declaration takes the body whole, `const pod = toV1(…)((await api.get(…)).data)`. Only where
 * `data` is all the pattern binds, without a default or a declared type (else undefined: marked).
 * Returns the closing edit and how its text is written.
 */
function wrapBinding(plan: Plan, el: BindingElement, open: string, close: string): { edit: Edit; at: Node; render: (close: string) => string } | undefined {
  const pattern = el.getParent();
  const decl = pattern.getParent();
  const init = Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  if (!init || !Node.isVariableDeclaration(decl) || decl.getTypeNode() || pattern.getElements().length !== 1 || el.getInitializer() || el.getDotDotDotToken()) return undefined;
  const key = el.getPropertyNameNode()?.getText() ?? el.getName();
  edit(plan, pattern, { start: pattern.getStart(), end: pattern.getEnd(), text: el.getNameNode().getText() });
  edit(plan, init, { start: init.getStart(), end: init.getStart(), text: `${open}(` });
  const render = (text: string) => `).${key}${text}`;
  return { edit: heldEdit(plan, init, { start: init.getEnd(), end: init.getEnd(), text: render(close) }), at: init, render };
}

/** Wraps a request body the app builds elsewhere in the adapter's `toV2Body` when it holds the operation's body. */
export function wrapBodyInAdapter(plan: Plan, body: Node, opKey: string): boolean {
  return wrapValueInAdapter(plan, body, opKey, "requestBody", "body is converted");
}

/** Wraps a v1 query object built elsewhere in the adapter's `toV2Query` (the caller has checked every name its type allows). */
export function wrapQueryInAdapter(plan: Plan, query: Node, opKey: string): boolean {
  return wrapValueInAdapter(plan, query, opKey, "query", "query is translated");
}

/** The v1 value goes to v2 through the adapter's function for `kind`, with the info note; the file imports the adapter once the site applies. */
function wrapValueInAdapter(plan: Plan, value: Node, opKey: string, kind: "requestBody" | "query", done: string): boolean {
  if (!plan.a.adapter || adapterCovers(kind, opKey) !== true) return false;
  const [open, close] = adapterCall(kind, opKey, "\0").split("\0");
  edit(plan, value, { start: value.getStart(), end: value.getStart(), text: open! });
  edit(plan, value, { start: value.getEnd(), end: value.getEnd(), text: close! });
  note(plan, value, `the v1 ${opKey.split("#")[0]} ${done} to v2 by ${ADAPTER_BINDING}`);
  const site = plan.site;
  const before = site.onApply;
  site.onApply = () => {
    before?.();
    useAdapter(plan.a, plan.a.files.get(value.getSourceFile().getFilePath())!);
  };
  return true;
}

/** The info note above the statement: not a mark (the call is migrated), a pointer for whoever adopts v2 shapes. */
function note(plan: Plan, at: Node, what: string): void {
  const file = plan.a.files.get(at.getSourceFile().getFilePath())!;
  const st = statementOf(at);
  const lineStart = file.text.lastIndexOf("\n", st.getStart() - 1) + 1;
  const indent = /^[ \t]*/.exec(file.text.slice(lineStart))![0];
  edit(plan, st, { start: lineStart, end: lineStart, text: `${indent}// v2-bridge: ${what}; adopt v2 shapes when ready\n` });
}

function optionsFor(file: FileState): AdapterOptions {
  const name = file.sf.getFilePath();
  const language = isTypeScriptFile(name) ? "ts" : "js";
  const cjs = /\.c[jt]s$/.test(name) || (!/^\s*(import|export)\b/m.test(file.text) && /\brequire\(|\bmodule\.exports\b|^\s*exports\.\w+\s*=/m.test(file.text));
  return { language, moduleKind: cjs ? "cjs" : "esm" };
}

/** The import line at the top of a file that uses the adapter (once), and the module to write. */
export function useAdapter(a: Analysis, file: FileState): void {
  if (file.declared.has(ADAPTER_BINDING)) return;
  file.declared.add(ADAPTER_BINDING);
  const options = optionsFor(file);
  const adapterPath = path.join(adapterDir(file.sf.getFilePath(), a.adapter!.root), adapterFileName(options));
  a.adapter!.used.set(adapterPath, options);
  if (new RegExp(`\\b${ADAPTER_BINDING}\\b`).test(file.text.replace(/\/\/.*$/gm, ""))) return;
  const explicit = /from\s+["']\.{1,2}\/[^"']+\.js["']/.test(file.text);
  const line = adapterImport(file.sf.getFilePath(), adapterPath, options.moduleKind, { explicitExtension: explicit });
  const at = afterImports(file.sf, file.text);
  file.edits.push({ ...insertAt(file.sf, at, at > 0 && !file.text.slice(0, at).endsWith("\n") ? `\n${line}` : `${line}\n`), import: true });
}


/** The v1 record fields v2 cannot supply: lost, or filled by the gateway with an extra request. */
function lostFields(op: OperationMapping): string[] {
  const shape = clientAnswer(op);
  const lens = shape.kind === "record" || shape.kind === "list" ? lenses[shape.lens] : undefined;
  return [...(lens?.v1Lost ?? []).map((l) => l.v1), ...(lens?.v1FromEmulation ?? []).map((e) => e.v1)];
}

/**
 * Whether reads of an answer name a (possibly nested) field: `gpu.oneMonthPrice` is read by
 * `pod.gpu.oneMonthPrice`, or by `pod.gpu` read as a whole (`gpu.*`, record-field-read.ts). Reads
 * found in code fetching the app's routes name first members only: there `gpu` counts.
 */
function readsField(fields: ReadonlySet<string>, f: string, firstMembersOnly: boolean): boolean {
  if (fields.has(f)) return true;
  const segs = f.split(".");
  for (let i = 1; i < segs.length; i++) if (fields.has(`${segs.slice(0, i).join(".")}.*`)) return true;
  return firstMembersOnly && segs.length > 1 && fields.has(segs[0]!);
}

/** The site uses the adapter in `at`'s file: imported there (and the module written) when the site is applied. */
export function usesAdapter(plan: Plan, at: Node): void {
  const site = plan.site;
  const before = site.onApply;
  site.onApply = () => {
    before?.();
    useAdapter(plan.a, plan.a.files.get(at.getSourceFile().getFilePath())!);
  };
}

/** The checker types the value as possibly null or undefined (`T | null`). */
function mayBeNull(read: Node): boolean {
  try {
    const t = read.getType();
    return t.isUnion() && t.getUnionTypes().some((u) => u.isNull() || u.isUndefined()) && !t.getUnionTypes().some((u) => u.isAny());
  } catch {
    return false;
  }
}

/**
 * Whether a body read serves the failure side: read there, or kept in a variable that a failure
 * branch uses (`const body = await r.json(); if (!r.ok) throw new Error(JSON.stringify(body))`).
 * A read with no status check anywhere serves the one answer there is.
 */
function servesFailureSide(read: Node): boolean {
  const side = classifyRead(read);
  if (side !== "unknown") return side === "error";
  let at = skipParens(read);
  for (let up = at.getParent(); up && Node.isAwaitExpression(up); up = at.getParent()) at = skipParens(up);
  const decl = at.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return false;
  return referencesOf(enclosingFunction(decl), decl.getNameNode()).some((ref) => classifyRead(ref, read) === "error");
}

/**
 * A read of v1's error field (`data.error`, `data.message`) on the variable a fetch body read
 * (`await r.json()`) is kept in, where an error status can reach it (no status check leads
 * there). Not for a client that throws on error statuses (axios's `res.data`): its body is a success.
 */
function errorFieldTest(read: Node): string | undefined {
  let at = skipParens(read);
  const inner = Node.isAwaitExpression(at) ? skipParens(at.getExpression()) : at;
  const callee = Node.isCallExpression(inner) ? inner.getExpression() : undefined;
  if (!callee || !Node.isPropertyAccessExpression(callee) || !["json", "text"].includes(callee.getName())) return undefined;
  const { side, errorReachable } = describeRead(read);
  if (side === "error" || !errorReachable) return undefined;
  for (let up = at.getParent(); up && Node.isAwaitExpression(up); up = at.getParent()) at = skipParens(up);
  const decl = at.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return undefined;
  for (const ref of referencesOf(enclosingFunction(decl), decl.getNameNode())) {
    const p = skipParens(ref).getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === skipParens(ref) && ["error", "message"].includes(p.getName())) return p.getText();
  }
  return undefined;
}
