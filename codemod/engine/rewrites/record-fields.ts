// Rewrite: v1 record fields read on a v1 call's response. Copy fields are renamed from the
// operation's record lens (`pod.containerDiskInGb` → `pod.disk`); fields behind a converter
// (`desiredStatus`, `volumeInGb`, …) get a mark. The body is followed through variables, list
// elements (`for…of`, `map/filter/find…`) and functions that return it to their callers; a body
// that goes anywhere else (passed on, stored, serialised) cannot be vouched for, so the site
// gets a mark listing the record fields that differ in v2. This file follows the flow; what it
// found is judged in record-verdict.ts (the adapter route, or the mark).
import { wrapped } from "../helper-answer.ts";
import { assignedDeclaration, isWriteTarget, reassigned } from "../reassigned-records.ts";
import { Node } from "../../ts-morph.ts";
import { answersUndocumentedRecord, clientAnswer, lensNamed, type OperationMapping } from "../../../mappings/index.ts";
import { enclosingFunction } from "../scope.ts";
import { edit, type Plan } from "../state.ts";
import type { Edit } from "../../types.ts";
import type { HttpCall } from "../transports/index.ts";
import { bodySites } from "../body-sites.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { shownAsText } from "../display-sinks.ts";
import { declaredAsRecord, declaredBodyRecord, declaredFields } from "../declared-types.ts";
import { boundRefs } from "./openapi-fetch.ts";
import { classifyRead } from "../response-branch.ts";
import { differingFields, fieldIndex, reachedNames, recordField, type Lost } from "./record-field-read.ts";
import { callersOf, fieldDeclarations, notArrayBranch, onlyTested, resultBeyondStatus } from "./record-flow-facts.ts";
import { argumentCallee, callbackCallee, noteEntry, type Callee } from "../record-callees.ts";
import { relayOf, type AppRoute } from "../relay-routes.ts";
import type { LeftSight } from "../typed-reads.ts";
import { queryFunctionResult } from "../query-results.ts";
import { recordVerdict } from "./record-verdict.ts";
import { answerFormUnknown, unknownFormProblem } from "./answer-form.ts";

const ITERATORS = ["map", "filter", "find", "forEach", "some", "every", "flatMap", "findLast", "sort", "slice", "reduce"];


/** The v1 record fields of an operation's answer that differ in v2 (none for an answer without records). */
export function answerDifferingFields(op: OperationMapping): string[] {
  const shape = op.response;
  const lens = shape.kind === "list" || shape.kind === "record" ? lensNamed(shape.lens) : undefined;
  return lens ? differingFields(lens.fields, lens.v1Lost) : [];
}

/** `x.then(…)`, `x.catch(…)`, `x.finally(…)` called on the value: a promise of it (records have no such members). */
function chained(value: Node): boolean {
  const p = value.getParent();
  return !!p && Node.isPropertyAccessExpression(p) && p.getExpression() === value && ["then", "catch", "finally"].includes(p.getName()) && Node.isCallExpression(p.getParent()) && (p.getParent() as any).getExpression() === p;
}

/** `unwrapEdits`: the list unwrap's edits, replaced by the adapter's `toV1List` when the list's records go where the app keeps v1 shapes. */
export function recordReads(plan: Plan, http: HttpCall, op: OperationMapping, unwrapEdits: Set<Edit> = new Set()): void {
  const shape = clientAnswer(op);
  if (shape.kind !== "record" && shape.kind !== "list") return;
  // A pod action's answer: v1 documents none, v2 answers the pod. Its reads are followed as a
  // record's; where it goes out of sight, only a declared record type says anything reads it.
  const undocumented = answersUndocumentedRecord(op);
  const lens = lensNamed(shape.lens);
  if (!lens) return;
  const byFirst = fieldIndex(lens.fields);
  const escapes: Node[] = [];
  /** The fields this answer's flow reads (wherever it goes within sight), and whether it also goes out of sight. */
  const reached = new Set<string>();
  /** Where the flow first reads each of those fields (`file:line`), for a mark that names the read. */
  const reachedAt = new Map<string, string>();
  const reachedHere = (name: string, at: Node) => {
    reached.add(name);
    if (!reachedAt.has(name)) reachedAt.set(name, `${at.getSourceFile().getBaseName()}:${at.getStartLineNumber()}`);
  };
  let outOfSight = false;
  /** Where it leaves sight by being answered from one of the app's routes (its fetchers may be followed), and whether it also leaves elsewhere. */
  const relays: { route: AppRoute; node: Node }[] = [];
  let unfollowed = false;
  /** Where the flow lost a value it marks (escapes), and whether it was returned there: its record type may still say where it is read (typed-reads.ts). */
  const leftSight: LeftSight[] = [];
  /** A value leaves the codemod's sight: harmless when its declared type names no differing field. */
  const escape = (n: Node, viaReturn = false) => {
    outOfSight = true;
    const relay = relayOf(plan.a, n, viaReturn);
    if (relay) relays.push({ route: relay.route, node: n });
    else unfollowed = true;
    const declared = declaredFields(plan.a, n, viaReturn);
    if (declared && !declared.some((f) => differing.has(f))) return;
    if (undocumented && !declared && !declaredAsRecord(plan.a, n, viaReturn)) return;
    escapes.push(n);
    leftSight.push({ node: n, viaReturn });
    if (declared) for (const f of declared) if (differing.has(f)) named.add(f);
    // The project's field declarations this v1 record is typed through: renaming them for
    // another call would retype this one's record while it stays v1.
    if (declared) for (const d of fieldDeclarations(n, viaReturn, declared.filter((f) => differing.has(f)))) (plan.site.typeUses ??= new Set()).add(d);
  };
  const named = new Set<string>();
  /** Why the value left sight where a convention says so (query-results.ts), for the mark. */
  const leftWhy = new Map<Node, string>();
  const shown: Node[] = [];
  const differing = new Set(lens.fields.filter((f) => f.only !== "toV2" && (f.converter || f.v1.join() !== f.v2.join())).flatMap((f) => f.v1.map((x) => x.split(".")[0]!)));
  // A lost nested member (`gpu.oneMonthPrice`) makes its object differ too.
  for (const l of lens.v1Lost ?? []) differing.add(l.v1).add(l.v1.split(".")[0]!);
  const seen = new Set<Node>();
  // The call each function of the project was entered by (its argument is this record): where what it returns goes.
  const entered = new Map<Node, Node>();
  // A helper whose result is neither the body nor the Response (`{ ok, detail, corps }`): where the
  // record is read cannot be followed, so the call stays whole unless nothing but its status is used.
  if (shape.kind === "record" && !undocumented && http.lib === "helper" && !http.observable && !http.helper!.returnsBody && !http.helper!.returnsResponse && !http.helper!.resultBodyKey && http.helper!.resultBodyIndex === undefined && differing.size && resultBeyondStatus(http.call)) {
    plan.problems.push({
      risk: "silent",
      reason: `${http.hook ? `its fetcher ${http.hook.fetcher.getText()}` : http.call.getExpression().getText()} returns the response in its own form (not the body or the Response), so the record's reads cannot be followed, and these v1 fields differ in v2: ${differingFields(lens.fields, lens.v1Lost).join(", ")}`,
      advice: "read the v2 record where the helper's result is used (docs/mapping.md), or make the helper return the parsed body",
      brief: `${http.call.getExpression().getText()}'s result is not followed to where the record is read${wrapped(http)} (${differing.size} v1 fields differ in v2)`,
    });
    return;
  }
  // Where this record's reads begin: an adapter-wrapped record keeps its v1 reads (see the end).
  const mark = { edits: plan.site.edits.length, problems: plan.problems.length, typeRenames: new Set(plan.site.typeRenames ?? []) };
  /** The body read being followed: its uses on the error side of a status check are not the record. */
  let read: Node | undefined;
  let readIsPromise = false;
  /** The read's type where the read itself does not declare it (an observable's `get<T>`), and whether it sits in an observable's callback. */
  let readDeclared: Node | undefined;
  let readInStream = false;

  const lost: Lost = new Map((lens.v1Lost ?? []).map((l) => [l.v1, l]));
  const field = (access: Node) => {
    if (Node.isPropertyAccessExpression(access)) for (const name of reachedNames(access)) reachedHere(name, access);
    recordField(plan, access, byFirst, lost, op, lens, read && (declaredBodyRecord(plan.a, read) ?? readDeclared));
  };
  /** A reference to a record value: a field read, or somewhere the value goes on. */
  const recordUse = (ref: Node, depth: number) => {
    const outer = skipParens(ref);
    const p = outer.getParent();
    if (chained(outer)) return promiseGoes(outer, depth, true);
    if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer) return field(p);
    if (p && Node.isElementAccessExpression(p) && p.getExpression() === outer) return void escapes.push(p);
    valueGoes(outer, depth, true);
  };
  const listUse = (ref: Node, depth: number) => {
    const outer = skipParens(ref);
    const p = outer.getParent();
    if (!p) return;
    if (chained(outer)) return promiseGoes(outer, depth, false);
    if (Node.isForOfStatement(p) && p.getExpression() === outer) {
      const init = p.getInitializer();
      const decl = Node.isVariableDeclarationList(init) ? init.getDeclarations()[0] : undefined;
      const n = decl?.getNameNode();
      if (n && Node.isIdentifier(n)) for (const r of referencesOf(p, n)) recordUse(r, depth);
      else escapes.push(p);
      return;
    }
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      const name = p.getName();
      if (name === "length") return;
      if (ITERATORS.includes(name)) {
        const call = p.getParent();
        const cb = call && Node.isCallExpression(call) ? call.getArguments()[0] : undefined;
        const named = cb && !Node.isArrowFunction(cb) && !Node.isFunctionExpression(cb) && name !== "sort" ? callbackCallee(plan.a, cb, name === "reduce" ? 1 : 0) : undefined;
        if (cb && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb) || named)) {
          if (named) enter(named, cb, depth, true);
          else {
            // `sort((a, b) => …)` compares two records: both parameters are records.
            const params = (cb as any).getParameters() as Node[];
            for (const param of name === "reduce" ? params.slice(1, 2) : name === "sort" ? params.slice(0, 2) : params.slice(0, 1)) {
              const n = (param as any).getNameNode() as Node;
              if (Node.isIdentifier(n)) for (const r of referencesOf(cb, n)) recordUse(r, depth);
              else escapes.push(n);
            }
          }
          // filter/find/sort/slice give records (or lists) again.
          if (["filter", "sort", "slice"].includes(name) && call) valueGoes(call, depth, false);
          else if (["find", "findLast"].includes(name) && call) valueGoes(call, depth, true);
          return;
        }
      }
      // `Array.isArray(r) ? r : r?.items ?? …`: the other branch never runs for a list.
      if (notArrayBranch(p, outer)) return;
      return void escapes.push(p);
    }
    if (Node.isElementAccessExpression(p) && p.getExpression() === outer) return valueGoes(p, depth, true);
    // `[...list]`: a copy of the list (to sort it without touching the original).
    const copy = Node.isSpreadElement(p) ? p.getParent() : undefined;
    if (copy && Node.isArrayLiteralExpression(copy) && copy.getElements().length === 1) return valueGoes(copy, depth, false);
    valueGoes(outer, depth, false);
  };
  /** Where a value (record or list) goes: a variable, a return to callers, or somewhere unknown. */
  const valueGoes = (value: Node, depth: number, isRecord: boolean): void => {
    if (seen.has(value) || depth > 4) return void escape(value);
    seen.add(value);
    const outer = skipParens(value);
    const p = outer.getParent();
    const use = (r: Node) => (isRecord ? recordUse(r, depth) : listUse(r, depth));
    if (!p) return;
    if (Node.isExpressionStatement(p)) return;
    if (Node.isAwaitExpression(p)) return valueGoes(p, depth, isRecord);
    if (chained(outer)) return promiseGoes(outer, depth, isRecord);
    const reads = (Node.isPropertyAccessExpression(p) || Node.isElementAccessExpression(p)) && p.getExpression() === outer;
    if (!isRecord && (reads || (Node.isForOfStatement(p) && p.getExpression() === outer))) return listUse(outer, depth);
    if (isRecord && reads) return recordUse(outer, depth);
    // `pod = await getPod(id)`: the variable's reads, as a declaration's (reassigned-records.ts).
    const assigned = assignedDeclaration(outer);
    const decl = assigned ?? (Node.isVariableDeclaration(p) && p.getInitializer() === outer ? p : undefined);
    if (decl) {
      const name = decl.getNameNode();
      if (Node.isIdentifier(name)) {
        // A variable written again holds whichever record came last: every write must be a migrating site's (checked in do no harm).
        const again = reassigned(decl);
        if (again) for (const set of [(plan.site.typeUses ??= new Set()), (plan.site.typeRenames ??= new Set())]) set.add(decl);
        for (const r of referencesOf(enclosingFunction(decl), name)) if (!(again && isWriteTarget(r)) && !(depth === 0 && read && classifyRead(r, read) === "error")) use(r);
      } else if (Node.isObjectBindingPattern(name) && isRecord) boundFields(name);
      else escapes.push(name);
      return;
    }
    if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) {
      const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : p;
      // Entered by a call's argument (`record(await request(…))` over `record(value)` handing it back): the value comes
      // back at that call alone, not at the function's other calls (which answer other records).
      const by = fn && entered.get(fn);
      if (by) return valueGoes(by, depth + 1, isRecord);
      const callers = callersOf(fn);
      if (callers) return callers.forEach((c) => valueGoes(c, depth + 1, isRecord));
      // A data-fetching library's function (`queryFn`, `select`, `mutationFn`): its value is read where the hook's data is.
      const library = queryFunctionResult(plan.a, fn);
      if (!library || "why" in library) {
        if (library) leftWhy.set(outer, library.why);
        return void escape(outer, true);
      }
      for (const site of library.reads) {
        const local = site.kind === "binding" ? ((site.node as any).getNameNode() as Node) : undefined;
        if (!local) valueGoes(site.node, depth + 1, isRecord);
        else if (Node.isIdentifier(local)) for (const r of referencesOf(enclosingFunction(local), local)) (isRecord ? recordUse : listUse)(r, depth + 1);
        else if (isRecord && Node.isObjectBindingPattern(local)) boundFields(local);
        else escape(local);
      }
      return;
    }
    // `pods.find(…) || null`, `cached ?? record`: the logical expression's value is the record (unless it is only tested).
    if (Node.isBinaryExpression(p) && ["||", "??", "&&"].includes(p.getOperatorToken().getText()) && (p.getOperatorToken().getText() !== "&&" || p.getRight() === outer) && !onlyTested(p)) return valueGoes(p, depth, isRecord);
    // `Array.isArray(data) ? data : []`: a branch's value is the conditional's; its condition, and `Array.isArray`'s argument, are only tested.
    if (Node.isCallExpression(p) && p.getExpression().getText() === "Array.isArray") return;
    if (Node.isConditionalExpression(p)) return p.getCondition() === outer ? undefined : valueGoes(p, depth, isRecord);
    if (Node.isIfStatement(p) || Node.isPrefixUnaryExpression(p) || Node.isTypeOfExpression(p) || (Node.isBinaryExpression(p) && ["===", "!==", "==", "!=", "&&", "||"].includes(p.getOperatorToken().getText()))) return;
    // Handed to a function of the project: its reads are followed there.
    const callee = argumentCallee(plan.a, outer);
    if (callee) return enter(callee, p, depth + 1, isRecord);
    // Printed, logged or answered as an MCP tool's text: read by a person or a model, not by code.
    if (shownAsText(outer)) return void shown.push(outer);
    escape(outer);
  };
  /**
   * A promise of the value chained on (`getTemplate(id).then((t) => t.imageName)`): the then
   * callback's parameter is the value; `.catch` / `.finally` pass it on.
   */
  const promiseGoes = (promise: Node, depth: number, isRecord: boolean): void => {
    const access = promise.getParent() as Node & { getName(): string };
    const call = access.getParent()!;
    if (access.getName() !== "then") return valueGoes(call, depth, isRecord);
    const cb = (call as any).getArguments()[0] as Node | undefined;
    if (!cb) return valueGoes(call, depth, isRecord);
    if (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb)) {
      const n = cb.getParameters()[0]?.getNameNode();
      if (!n) return;
      if (Node.isIdentifier(n)) for (const r of referencesOf(cb, n)) (isRecord ? recordUse : listUse)(r, depth);
      else if (isRecord && Node.isObjectBindingPattern(n)) boundFields(n);
      else escapes.push(n);
      return;
    }
    const named = callbackCallee(plan.a, cb, 0);
    if (named) return enter(named, cb, depth + 1, isRecord);
    escape(cb);
  };
  /** The value enters a function of the project through a parameter: its reads are followed there (and shared by the function's other callers). */
  const enter = (callee: Callee, entry: Node, depth: number, isRecord: boolean): void => {
    noteEntry(plan, callee, entry);
    if (depth > 4) return void escape(entry);
    if (seen.has(callee.param)) return;
    seen.add(callee.param);
    if (Node.isCallExpression(entry)) entered.set(callee.fn, entry);
    const name = (callee.param as any).getNameNode() as Node;
    const before = plan.site.edits.length;
    if (Node.isIdentifier(name)) for (const r of referencesOf(callee.fn, name)) (isRecord ? recordUse : listUse)(r, depth);
    else if (isRecord && Node.isObjectBindingPattern(name)) boundFields(name);
    else escapes.push(name);
    // Shared by the function's other callers: only a read renamed inside it (what it hands back is read at the entering call).
    const file = callee.fn.getSourceFile().getFilePath();
    const inside = (e: { file?: string; start: number; end: number }) => (e.file ?? file) === file && e.start >= callee.fn.getStart() && e.end <= callee.fn.getEnd();
    if (plan.site.edits.slice(before).some(inside)) (plan.site.typeRenames ??= new Set()).add(callee.param);
  };
  /** `const { imageName, ...rest } = pod`: each bound field is a read. */
  const boundFields = (name: Node): void => {
    if (!Node.isObjectBindingPattern(name)) return;
    for (const el of name.getElements()) {
      const key = el.getPropertyNameNode()?.getText() ?? el.getName();
      reachedHere(key, el);
      if (el.getDotDotDotToken()) escape(el);
      else if (differing.has(key)) renameBinding(el, key);
    }
  };

  /** `const { imageName } = pod` → `const { image: imageName } = pod` for a renamed copy field. */
  const renameBinding = (el: Node, key: string) => {
    const f = lens.fields.find((x) => x.only !== "toV2" && x.v1.length === 1 && x.v1[0] === key);
    if (!f || f.converter || f.v2.length !== 1 || f.v2[0]!.includes(".") || !Node.isBindingElement(el)) return void escape(el);
    const propName = el.getPropertyNameNode();
    if (propName) edit(plan, propName, { start: propName.getStart(), end: propName.getEnd(), text: f.v2[0]! });
    else edit(plan, el, { start: el.getStart(), end: el.getStart(), text: `${f.v2[0]}: ` });
  };
  // openapi-fetch: `const { data } = await client.GET(…)`, data being the record (or the unwrapped list).
  if (http.lib === "openapi-fetch") for (const r of boundRefs(http, "data")) (shape.kind === "record" ? recordUse : listUse)(r, 0);
  const sites = bodySites(plan.a, http);
  // A client whose answer's form the codemod cannot tell, its answer used: the v1 record may be read anywhere in it.
  if (!sites.length && shape.kind === "record" && !undocumented && answerFormUnknown(http)) unknownFormProblem(plan, differingFields(lens.fields, lens.v1Lost));
  let handed = false;
  for (const site of sites) {
    readDeclared = site.declared;
    readInStream ||= !!site.observable;
    // A list's site is marked by its unwrap already; a record is read where it is not followed.
    if (site.kind === "handed") {
      handed = true;
      outOfSight = true;
      unfollowed = true;
      const fields = differingFields(lens.fields, lens.v1Lost);
      const where = `${site.node.getSourceFile().getBaseName()}:${site.node.getStartLineNumber()}`;
      const to = site.said ?? `the response is handed to ${(site.node as any).getExpression().getText()} (${where}), which ${site.why}`;
      if (shape.kind === "record" && fields.length && !undocumented) plan.problems.push({ risk: "silent", reason: `${to}: where the record is read is not followed, and these v1 fields differ in v2: ${fields.join(", ")}`, advice: "read the v2 record where that function reads it (docs/mapping.md)", brief: `${to}: the record's reads are not followed (${fields.length} v1 fields differ in v2)` });
      continue;
    }
    // axios `const { data } = await api.get(…)`, `{ data: pod }`: the bound name is the body.
    if (site.kind === "binding") {
      read = site.node;
      readIsPromise = false;
      const local = (site.node as any).getNameNode() as Node;
      if (Node.isIdentifier(local)) for (const r of referencesOf(enclosingFunction(site.node), local)) (shape.kind === "record" ? recordUse : listUse)(r, 0);
      else if (shape.kind === "record" && Node.isObjectBindingPattern(local)) boundFields(local);
      else escapes.push(local);
      continue;
    }
    // An error body is a problem document in v2, not the record.
    if (classifyRead(site.node) === "error") continue;
    read = site.node;
    readIsPromise = site.kind === "promise";
    if (site.kind === "promise") {
      valueGoes(site.node, 0, shape.kind === "record");
      continue;
    }
    const outer = skipParens(site.node);
    const parent = outer.getParent();
    if (shape.kind === "record" && parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === outer) {
      field(parent);
      continue;
    }
    // A list body is unwrapped where it is declared (`const { pods } = …`); follow the array.
    if (shape.kind === "list" && parent && Node.isVariableDeclaration(parent) && Node.isIdentifier(parent.getNameNode())) {
      for (const r of referencesOf(enclosingFunction(parent), parent.getNameNode())) if (classifyRead(r, site.node) !== "error") listUse(r, 0);
      continue;
    }
    valueGoes(site.node, 0, shape.kind === "record");
  }
  recordVerdict(plan, http, op, unwrapEdits, mark, { shape, lens, undocumented, sites, read, readIsPromise, readDeclared, readInStream, reached, reachedAt, outOfSight, unfollowed, relays, escapes, leftSight, named, leftWhy, shown, handed });
}
