// One v1 call site: locate the v1 base and path in its URL, match the v1 operation in the table,
// and plan the rewrite (operation-plan.ts plans each part of it). A part that cannot be rewritten
// becomes a problem and the site gets a mark naming it, with the way it keeps a v1 base of its own
// (site-redirect.ts). The site's edits wait for the do-no-harm check.
import { baseArgument } from "./base-argument.ts";
import { Node } from "../ts-morph.ts";
import { matchV1 } from "../../mappings/index.ts";
import { V2_BASE, V2_OPENAPI_URL } from "../../mappings/bases.ts";
import { isFunctionLike, runningFunction } from "./scope.ts";
import { isDynamicPath, locate, resolveParts, unwrapExpression, type LocatedUrl, type Part } from "./urls.ts";
import { rewriteUrl } from "./url-rewrite.ts";
import type { Category, Finding } from "../types.ts";
import { addFinding, planFor, quoteOf, siteEdits, type Analysis, type Plan, type Site } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { helperSignature, noteHelperAnchor } from "./helpers.ts";
import { bind, sourceLiteral, sourceLiterals, urlContext, valueOf, type External } from "./values.ts";
import { urlQueryWrites } from "./url-object.ts";
import { receiverSources } from "./receiver-base.ts";
import { todo, todoAll } from "./todo-marks.ts";
import { byRisk, keepProblems } from "./mark-problems.ts";
import { holdKey } from "./site-holds.ts";
import { objectsProblem, urlObjectsRead, withUrlObjects, type ReadUrlObject } from "./url-object-reads.ts";
import { threadedBaseWhy } from "./threaded-base.ts";
import { decideFinite, expandFinite, operationKeys, possibleOperations } from "./finite-paths.ts";
import { declaredStrings } from "./declared-shapes.ts";
import { regenerateAdvice } from "./generated-client.ts";
import { isTypeScriptFile } from "./nodes.ts";
import { dynamicPathProblem, routeLiteralsIn } from "./dynamic-paths.ts";
import { newPathFor, uniqueMatches, type Match } from "./v1-match.ts";
import { splitQueryHole } from "./query-holes.ts";
import { builderChainProblems } from "./builder-chain.ts";
import { interceptorProblems } from "./rewrites/interceptor-answer.ts";
import { planOperation } from "./operation-plan.ts";
import { factoryFormWhy, redirectFor } from "./site-redirect.ts";
import { heldBaseWhy } from "./held-base-redirect.ts";
import { chosenVerdict, type ChosenVerdict } from "./chosen-urls.ts";
import { joinChoices } from "./array-joins.ts";
import { descriptorProblems } from "./descriptor-sites.ts";
import { doubleBase } from "./double-base.ts";

/** The URL of a call as parts, following `url.href`, `url.toString()` and `const url = new URL(…)`. */
function urlOf(a: Analysis, http: HttpCall): { parts: Part[]; external?: External; branches?: Part[][]; condition?: Node } | undefined {
  let urlExpr = unwrapExpression(http.urlNode!);
  // `id ? \`${BASE}/pods/${id}\` : \`${BASE}/pods\``: a URL chosen at run time between v1 URLs.
  const chosen = Node.isIdentifier(urlExpr) ? valueOf(a, urlExpr) : urlExpr;
  if (chosen && Node.isConditionalExpression(unwrapExpression(chosen))) {
    const c = unwrapExpression(chosen) as import("../ts-morph.ts").Node & { getWhenTrue(): Node; getWhenFalse(): Node };
    const branches = [resolveParts(c.getWhenTrue(), urlContext(a)), resolveParts(c.getWhenFalse(), urlContext(a))];
    if (branches.every((b) => locate(b, http.external))) return { parts: branches[0]!, external: http.external, branches, condition: (c as unknown as { getCondition(): Node }).getCondition() };
  }
  // `[BASE, "containerregistryauth", id].filter(Boolean).join("/")` with `id` optional: a URL chosen at run time.
  const joined = Node.isIdentifier(urlExpr) ? valueOf(a, urlExpr) : urlExpr;
  const ctx = urlContext(a);
  const choices = joined && joinChoices(unwrapExpression(joined), (n) => resolveParts(n, ctx), (n) => ctx.mayBeEmpty!(n));
  if (choices && choices.every((b) => locate(b, http.external))) return { parts: choices[0], external: http.external, branches: choices };
  urlExpr = urlObjectText(urlExpr);
  // A URL object whose query is written after it is made (`url.searchParams.set(…)`): that query is a hole after its path.
  let query: Part[] = [];
  if (Node.isIdentifier(urlExpr)) {
    const v = valueOf(a, urlExpr);
    const u = v && unwrapExpression(v);
    const b = bind(a, urlExpr);
    if (b?.kind === "var" && urlQueryWrites(b.decl)) query = [{ kind: "hole", node: urlExpr }];
    if (u && Node.isNewExpression(u)) urlExpr = u;
  }
  if (Node.isNewExpression(urlExpr)) {
    if (urlExpr.getExpression().getText() !== "URL") return undefined;
    const args = urlExpr.getArguments();
    if (args.length >= 2) {
      const bParts = resolveParts(args[1]!, urlContext(a));
      if (bParts.length !== 1 || bParts[0]!.kind !== "base") return undefined;
      return { parts: [...resolveParts(args[0]!, urlContext(a)), ...query], external: { value: bParts[0]!.value, node: bParts[0]!.node, join: "url" } };
    }
    return args[0] ? { parts: [...resolveParts(args[0], urlContext(a)), ...query], external: http.external } : undefined;
  }
  return { parts: resolveParts(urlExpr, urlContext(a)), external: http.external };
}

/** The URL object whose text is the URL: `u.href`, `u.toString()`, `String(u)`, `${u}` (a template of it alone); else the expression. */
function urlObjectText(expr: Node): Node {
  const e = unwrapExpression(expr);
  if (Node.isPropertyAccessExpression(e) && e.getName() === "href") return unwrapExpression(e.getExpression());
  if (Node.isCallExpression(e) && !e.getArguments().length && Node.isPropertyAccessExpression(e.getExpression()) && (e.getExpression() as any).getName() === "toString") return unwrapExpression((e.getExpression() as any).getExpression());
  if (Node.isCallExpression(e) && e.getExpression().getText() === "String" && e.getArguments().length === 1) return urlObjectText(e.getArguments()[0]!);
  if (Node.isTemplateExpression(e) && !e.getHead().getLiteralText() && e.getTemplateSpans().length === 1 && !e.getTemplateSpans()[0]!.getLiteral().getLiteralText()) return urlObjectText(e.getTemplateSpans()[0]!.getExpression());
  return e;
}

/** Whether the URL's first hole is a parameter of `fn` (directly, or a property of one). */
function holeIsParamOf(a: Analysis, parts: Part[], fn: Node): boolean {
  const hole = parts.find((p) => p.kind === "hole");
  let n = hole && unwrapExpression(hole.node);
  if (n && Node.isPropertyAccessExpression(n)) n = unwrapExpression(n.getExpression());
  if (!n || !Node.isIdentifier(n)) return false;
  const b = bind(a, n);
  return b?.kind === "param" && b.fn === fn;
}

/**
 * The base literals a call depends on: every v1 literal its URL's base can hold, and through a
 * request helper, the helper's own (the call flips only with them).
 */
function addBaseDeps(a: Analysis, http: HttpCall, url: LocatedUrl, deps: Set<Node>): void {
  if (url.anchor?.node) for (const s of sourceLiterals(a, url.anchor.node)) deps.add(s);
  if (http.lib !== "helper") return;
  // A method of a class serving several instances: the bases its own receiver gives it.
  const callee = unwrapExpression(http.call.getExpression());
  const own = http.helper?.receiverKey && Node.isPropertyAccessExpression(callee) ? receiverSources(a, unwrapExpression(callee.getExpression()), http.helper.receiverKey) : undefined;
  for (const s of (own ?? http.helper?.baseSources ?? [http.helper?.baseSource]) as (Node | undefined)[]) if (s) deps.add(s);
}

/** Plans one HTTP call (library call or helper call). */
export function processCall(a: Analysis, http: HttpCall): void {
  if (!http.urlNode) return;
  // A helper given its base by each call: a call given another API's base is not a v1 call (base-argument.ts).
  const given = baseArgument(a, http);
  if (given?.other) return;
  const found = urlOf(a, http);
  if (!found) return;
  const { external, branches } = found;
  // Chosen between two URLs of one operation: that operation, each branch's URL rewritten (chosen-urls.ts).
  const verdict = branches ? chosenVerdict(a, http, branches, external, found.condition) : undefined;
  if (branches && verdict?.kind !== "one") return conditionalSite(a, http, branches, external, verdict);
  const chosen = verdict?.kind === "one" ? verdict.chosen : undefined;
  const parts = chosen ? chosen.branches.flatMap((b) => b.parts) : found.parts;
  const url = chosen ? chosen.branches[0].url : locate(parts, external);
  if (!url) return;
  const at = http.call;
  const fn = runningFunction(at);
  // The transport (or inner helper) call of a request helper: the path is the helper's parameter.
  const inHelper = isDynamicPath(url) && isFunctionLike(fn) && holeIsParamOf(a, parts, fn) && helperSignature(a, fn);
  // A client made by outside code from its base option (convention.ts, RTK Query) is followed as a client
  // (follow-uses.ts): this call accounts for its receiver, not for every use of the option.
  // A wretch builder's base is followed to the chains built on it (follow-uses.ts): this call accounts for its own chain.
  const used = [...parts.map((p) => p.node), ...(external?.node && http.lib !== "convention" && http.lib !== "wretch" ? [external.node] : []), ...(given ? [given.arg] : [])];
  if (inHelper) {
    // The helper's own transport call: its call sites are the v1 sites. Its base is followed
    // only when every call of the helper is (the do-no-harm check decides).
    a.helperParts.set(fn, [...(a.helperParts.get(fn) ?? []), ...used, ...http.trail]);
    for (const p of parts) a.consumed.add(p.node);
    const deps = new Set<Node>();
    const source = url.anchor?.node ? sourceLiteral(a, url.anchor.node) : undefined;
    if (source) deps.add(source);
    const file = a.files.get(at.getSourceFile().getFilePath())!;
    noteHelperAnchor(a, fn, parts, url, http);
    // Its failure is its callers' (error-flow.ts follows it from each of them).
    a.helperTransports.set(fn, [...(a.helperTransports.get(fn) ?? []), http]);
    if (http.lib === "helper") return; // over another helper: that helper's call reads the body
    if (!url.anchor && url.inlineBase && parts[0]) {
      // The base is written in the helper's own URL: it flips with the helper's callers.
      const flip = rewriteUrl(url, null) ?? [];
      a.bases.set(parts[0].node, { literal: parts[0].node, file, flip, helper: fn });
      deps.add(parts[0].node);
    }
    a.sites.push({ call: at, file, deps, edits: [], complete: true });
    return;
  }
  for (const p of parts) a.consumed.add(p.node);
  const deps = new Set<Node>();
  for (const u of chosen ? chosen.branches.map((b) => b.url) : [url]) addBaseDeps(a, http, u, deps);
  const site: Site = { call: at, file: undefined as never, deps, edits: [], complete: false, http };
  let objects: ReadUrlObject[] = [];
  // The path read from a URL object made on the v1 base here: that object is this call's, kept v1 with it.
  const objectsRead = (method: string | undefined) => {
    objects = urlObjectsRead(a, http.urlNode!, at, method);
    return objectsProblem(a, objects, deps, (op) => ((opKey = op.key), (v1 = { method: op.v1.method, path: op.v1.path }), (v2 = op.v2 ? { method: op.v2.method, path: op.v2.path } : null)));
  };
  for (const n of [...used, ...http.trail, at.getExpression()]) a.accounted.add(n);
  const plan = planFor(a, site);
  const problems = plan.problems;
  problems.push(...builderChainProblems(http), ...interceptorProblems(a, http));
  let opKey: string | null = null;
  let category: Category = "auto";
  let v1: Finding["v1"] = null;
  let v2: Finding["v2"] = null;
  const done = () => {
    // Sent from a descriptor built elsewhere: its edits must serve this send alone (descriptor-sites.ts).
    problems.push(...descriptorProblems(a, http, site.edits));
    // Held by an earlier round (its edits overlapped another plan's, site-holds.ts): whole on v1, one mark.
    const held = a.holds?.sites.get(holdKey(at));
    if (held) problems.push({ reason: `kept on v1: ${held.why}`, advice: held.advice, risk: "elsewhere" });
    // Cautions mark the site without keeping it on v1 (through the gateway it would answer the same).
    const marked = byRisk([...problems, ...plan.cautions.map((c) => ({ ...c, risk: c.risk ?? ("loss" as const) }))]);
    if (marked.length && category === "auto") category = "review";
    // In a generated client, generating it again from the v2 document fixes every mark at once.
    const regenerate = marked.length ? regenerateAdvice(at.getSourceFile()) : undefined;
    // A site with cautions only is marked where it settles (do-no-harm.ts), so a "kept on v1" joins the same mark.
    // One mark per site, one line: its first problem briefly; the finding keeps every problem with its advice.
    if (!problems.length && plan.cautions.length) site.cautions = marked;
    else if (marked.length) todoAll(a, at, opKey ?? "base", category, marked);
    const reason = marked.length ? marked.map((p) => p.reason).join("; ") : [`v1 ${v1?.method ?? ""} ${v1?.path ?? ""} becomes v2 ${v2?.method ?? ""} ${v2?.path ?? ""}`.replace(/\s+/g, " ").trim(), ...(site.notes ?? [])].join("; ");
    const advice = marked.length ? [...(regenerate ? [regenerate] : []), ...marked.map((p) => p.advice)].join("; ") : "rewritten by `v2-bridge rewrite`";
    site.finding = addFinding(a, at, { operation: opKey, v1, v2, category, reason, advice, ...(opKey ? {} : { subject: "call" as const }) });
    if (marked.length) keepProblems(site.finding, marked);
    // Kept whole on v1, the reads its rewrite would have changed are the user's to change too (after its own problems, not in the mark).
    const changes = marked.length ? (site.readChanges ?? []).filter((c) => !marked.some((p) => p.reason === c.reason)) : [];
    if (changes.length) site.finding.problems = [...(site.finding.problems ?? []), ...changes];
    site.file = a.files.get(at.getSourceFile().getFilePath())!;
    site.complete = !problems.length;
    site.whole = true;
    // A chosen URL keeps v1 on its own only through a helper's base parameter (each branch's base is not rewritten apart).
    site.redirect = held || (chosen && http.lib !== "helper") ? undefined : withUrlObjects(a, redirectFor(a, http, url, chosen ? chosen.branches[0].parts : parts), objects);
    if (!held && !site.redirect && !site.complete) site.noRedirect = threadedBaseWhy(a, http) ?? factoryFormWhy(a, http, chosen ? chosen.branches[0].parts : parts) ?? (chosen ? undefined : heldBaseWhy(a, http, url, parts));
    a.sites.push(site);
  };
  if (url.problem) {
    problems.push({ reason: url.problem, advice: `build the URL from the v2 base ${V2_BASE} by hand` });
    return done();
  }
  // A full v1 URL after the helper's own base: it fails on v1 as written (double-base.ts).
  const doubled = doubleBase(url, http.method.kind !== "unknown" ? http.method.value : undefined);
  if (doubled) {
    if (doubled.operation) (opKey = doubled.operation.key), (v1 = doubled.operation.v1);
    problems.push(doubled.problem);
    return done();
  }
  // `/pods${query}`: the path is known; the query string built at run time is checked with the query.
  splitQueryHole(a, url);
  if (isDynamicPath(url) || url.path === "") {
    const method = http.method.kind !== "unknown" ? http.method.value : undefined;
    // Route literals in the call's own URL argument are this site's (one finding, naming the operation).
    const routes = url.path === "" ? [] : routeLiteralsIn(http.urlNode, method);
    routes.forEach((r) => a.consumed.add(r.node));
    const ops = [...new Set(routes.flatMap((r) => r.ops))];
    if (ops.length === 1) (opKey = ops[0]!.key), (v1 = { method: ops[0]!.v1.method, path: ops[0]!.v1.path }), (v2 = ops[0]!.v2 ? { method: ops[0]!.v2.method, path: ops[0]!.v2.path } : null);
    const finite = !routes.length && url.path !== "" ? finiteSite(plan, http, url, method) : undefined;
    if (finite) ({ opKey, v1, v2 } = finite);
    else if (!routes.length) opKey = possibleKeys(url, method);
    const read = finite || routes.length ? undefined : objectsRead(method);
    if (!finite) problems.push(read ?? (url.path === "" ? { reason: "call on the bare v1 base URL", advice: "check which v1 operation it calls and use its v2 path (see docs/mapping.md)" } : dynamicPathProblem(a, url, method, routes)));
    return done();
  }
  if (http.lib === "helper" && http.helper!.pathType) {
    // The operation is still this call's own path and method (the mark and the audit name it).
    const verb = http.method.kind !== "unknown" ? http.method.value : undefined;
    const own = verb ? matchV1(verb, url.path) : null;
    if (own) (opKey = own.operation.key), (v1 = { method: own.operation.v1.method, path: own.operation.v1.path });
    problems.push({ reason: `the helper's path parameter is typed ${http.helper!.pathType}, so the v1 path cannot be rewritten at this call`, advice: "map each value to its v2 path inside the helper (see docs/mapping.md), or widen the parameter type" });
    return done();
  }
  const known = http.method.kind !== "unknown" ? http.method.value : undefined;
  const candidates = known ? [matchV1(known, url.path)].filter((m): m is Match => m !== null) : uniqueMatches(url.path);
  if (!candidates.length && url.path.includes("\0") && !uniqueMatches(url.path).length) {
    const finite = finiteSite(plan, http, url, known);
    if (finite) ({ opKey, v1, v2 } = finite);
    else (opKey = possibleKeys(url, known)), problems.push(objectsRead(known) ?? dynamicPathProblem(a, url, known));
    return done();
  }
  if (!candidates.length) {
    const other = uniqueMatches(url.path);
    problems.push({
      reason: other.length ? `${known} is not a v1 method on ${url.path.replace(/\0/g, "{…}")} (v1 has ${other.map((m) => m.operation.v1.method).join(", ")})` : `${url.path.replace(/\0/g, "{…}")} is not a v1 operation path`,
      advice: "check the call against docs/mapping.md",
    });
    return done();
  }
  const first = candidates[0]!;
  const op = first.operation;
  opKey = candidates.length === 1 ? op.key : null;
  v1 = candidates.length === 1 ? { method: op.v1.method, path: op.v1.path } : null;
  v2 = candidates.length === 1 && op.v2 ? { method: op.v2.method, path: op.v2.path } : null;
  if (candidates.length > 1) {
    const paths = new Set(candidates.map((c) => newPathFor(c, url)));
    // The method a caller's options may set (helpers.ts): named, with the helper's fix.
    const carried = http.method.why ? `: ${http.method.why}` : "";
    const carriedAdvice = http.helper?.methodUnknown ? "give each verb method its own literal method (the v2 one: docs/mapping.md), or rewrite the call by hand" : http.method.why ? "have the helper spread the caller's options before its own method (`{ ...opts, method }`) so each verb decides it, or rewrite the call by hand" : undefined;
    const simple = candidates.every((c) => c.operation.v2 && c.operation.v2.method === c.operation.v1.method && !c.operation.request && c.operation.response.kind !== "list");
    if (paths.size === 1 && [...paths][0] !== null) {
      siteEdits(plan, rewriteUrl(url, [...paths][0]!) ?? []);
      if (!simple) problems.push({ reason: `HTTP method not known statically (v1 ${candidates.map((c) => c.operation.key).join(" / ")})${carried}`, advice: carriedAdvice ?? "check the method, request body and response shape against v2" });
    } else {
      problems.push({ reason: `HTTP method not known statically (v1 ${candidates.map((c) => c.operation.key).join(" / ")})${carried}`, advice: carriedAdvice ?? "pass the method as a literal or rewrite the call by hand" });
    }
    return done();
  }
  if (op.status === "no-equivalent") {
    category = "no-equivalent";
    problems.push({ reason: op.decision?.message ?? `${op.key} has no v2 equivalent`, advice: op.decision?.advice ?? "see docs/mapping.md", risk: "loss" });
    return done();
  }
  if (!op.v2) {
    problems.push({ reason: `${op.key} has no v2 operation (${op.summary})`, advice: op.decision?.advice ?? `use the v2 OpenAPI document at ${V2_OPENAPI_URL}` });
    return done();
  }
  planOperation(plan, http, url, first, op, undefined, chosen);
  return done();
}

/** A URL chosen at run time: marked (review), its bases followed so they can flip. */
function conditionalSite(a: Analysis, http: HttpCall, branches: Part[][], external: External | undefined, verdict?: ChosenVerdict): void {
  const at = http.call;
  const deps = new Set<Node>();
  for (const parts of branches) {
    for (const p of parts) a.consumed.add(p.node), a.accounted.add(p.node);
    addBaseDeps(a, http, locate(parts, external)!, deps);
  }
  for (const n of [...http.trail, at.getExpression(), ...(external?.node ? [external.node] : [])]) a.accounted.add(n);
  const paths = branches.map((parts) => locate(parts, external)!.path.replace(/\0/g, "{…}"));
  // `query ? \`/pods?${query}\` : "/pods"`: one path, with or without a query built at run time.
  const onePath = new Set(paths).size === 1;
  const held = a.holds?.sites.get(holdKey(at));
  const differ = verdict?.kind === "mark" ? verdict : undefined;
  const reason = (differ ? differ.reason : onePath ? `the query string of ${paths[0]} is built at run time, and v2 does not take v1's parameters as they are` : `the URL is chosen at run time between ${paths.join(" and ")}`) + (held ? `; kept on v1: ${held.why}` : "");
  const advice = (differ ? differ.advice : onePath ? "translate or drop each v1 parameter (docs/mapping.md), then call the v2 path" : "write each v1 call as its own v2 call (docs/mapping.md)") + (held ? `; ${held.advice}` : "");
  todo(a, at, differ?.opKey ?? "base", "review", reason, advice);
  const finding = addFinding(a, at, { operation: differ?.opKey ?? null, v1: null, v2: null, category: "review", reason, advice, subject: "call" });
  // It keeps v1 on its own where it can (a helper's base parameter), so the base may still flip for the others.
  const redirect = http.lib === "helper" && !held ? redirectFor(a, http, locate(branches[0]!, external)!, branches[0]!) : undefined;
  a.sites.push({ call: at, file: a.files.get(at.getSourceFile().getFilePath())!, deps, edits: [], finding, complete: false, whole: true, redirect, http });
}

/**
 * A path with segments from a finite set (`/pods/${id}/${action}`): rewritten once where every
 * value makes the same v2 call, else marked naming what each value calls. Undefined: no such segment.
 */
function finiteSite(plan: Plan, http: HttpCall, url: LocatedUrl, method: string | undefined): { opKey: string | null; v1: Finding["v1"]; v2: Finding["v2"] } | undefined {
  const fp = http.lib === "openapi-fetch" ? undefined : expandFinite(url, method, (n) => declaredStrings(plan.a, n));
  if (!fp) return undefined;
  const file = http.call.getSourceFile().getFilePath();
  const decision = decideFinite(fp, url, http.call, quoteOf(plan.a, http.call), isTypeScriptFile(file));
  const opKey = operationKeys(fp);
  if (decision.kind === "mark") {
    plan.problems.push({ reason: decision.reason, advice: decision.advice });
    return { opKey, v1: null, v2: null };
  }
  const op = decision.match.operation;
  planOperation(plan, http, url, decision.match, op, decision);
  return { opKey, v1: { method: op.v1.method, path: decision.v1Path }, v2: { method: op.v2!.method, path: op.v2!.path } };
}

/** Every operation a path computed at run time can call, for its finding's operation (a few; the reason lists them all). */
function possibleKeys(url: LocatedUrl, method: string | undefined): string | null {
  const ops = possibleOperations(url.path, method);
  return ops.length && ops.length <= 5 ? ops.map((o) => o.key).join("|") : null;
}
