// Where the parsed response body of a call is read: `await res.json()`, `JSON.parse(await
// res.text())`, axios `res.data`, got/ky `.json()`, undici `body.json()`, `.then(r => r.json())`,
// and the awaited result of a helper that returns the body.
import { Node } from "../ts-morph.ts";
import { enclosingFunction, runningFunction } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { parsedBy } from "./json-parsers.ts";
import { responseHandedTo, thenHandlerTakes, type Handed } from "./response-handed.ts";
import { returnedTo } from "./answer-flow.ts";
import { openapiAnswer } from "./openapi-answer.ts";
import { observableFlow } from "./observable-flow.ts";
import { recordTypeOf } from "./declared-types.ts";
import { hookDataSites } from "./hook-data.ts";
import { resultPlaceReads } from "./result-reads.ts";
import { assignedDeclaration, isWriteTarget, writtenValues } from "./reassigned-records.ts";

/**
 * `handed`: the Response is handed to a function of the project that uses it in a way not
 * followed (the node is that call): where the body goes there is not known.
 */
export type BodySite = {
  kind: "value" | "promise" | "binding" | "handed";
  node: Node;
  why?: string;
  /** The record type the code declares the body through where the read does not say it (an observable's `get<T>(…)`, its callback's annotation). */
  declared?: Node;
  /** A read inside an Observable's operator or subscriber (observable-flow.ts): no single place to wrap the record in the adapter. */
  observable?: boolean;
  /** The callback parameter holding the body there. */
  param?: Node;
  /** A read of a helper's own result (result-reads.ts: `r.value`, `const [e, pod] = …`), where the body may be absent (its failure side). */
  inResult?: boolean;
  /** A "handed" site that says itself where the body leaves sight (result-reads.ts), in place of "handed to <callee>, which <why>". */
  said?: string;
};

/**
 * `text.then(cb)` where `cb` returns `JSON.parse` of its parameter (alone, or on one side of a
 * conditional, `??` or `||`, the other side a literal such as `null`): the then call.
 */
function textParsedInThen(text: Node): Node | undefined {
  const access = skipParens(text).getParent();
  const then = access && Node.isPropertyAccessExpression(access) && access.getName() === "then" ? access.getParent() : undefined;
  const cb = then && Node.isCallExpression(then) && then.getExpression() === access ? then.getArguments()[0] : undefined;
  if (!cb || !(Node.isArrowFunction(cb) || Node.isFunctionExpression(cb))) return undefined;
  const param = cb.getParameters()[0]?.getNameNode();
  if (!param || !Node.isIdentifier(param)) return undefined;
  const body = cb.getBody();
  const returned = Node.isBlock(body) ? body.getStatements().filter((st) => Node.isReturnStatement(st)).map((st) => (st as any).getExpression() as Node | undefined) : [body];
  const parses = (e: Node | undefined): boolean => {
    if (!e) return false;
    const u = unwrapExpression(e);
    if (Node.isConditionalExpression(u)) return [u.getWhenTrue(), u.getWhenFalse()].some(parses) && [u.getWhenTrue(), u.getWhenFalse()].every((x) => parses(x) || isLiteral(x));
    if (Node.isBinaryExpression(u) && ["??", "||"].includes(u.getOperatorToken().getText())) return parses(u.getLeft()) && isLiteral(u.getRight());
    return Node.isCallExpression(u) && u.getExpression().getText() === "JSON.parse" && unwrapExpression(u.getArguments()[0] ?? u).getText() === param.getText();
  };
  // Every statement of a block callback is a return (nothing else is done with the text).
  if (Node.isBlock(body) && returned.length !== body.getStatements().length) return undefined;
  return returned.length && returned.every(parses) ? then : undefined;
}

function isLiteral(e: Node): boolean {
  const u = unwrapExpression(e);
  return Node.isNullLiteral(u) || Node.isStringLiteral(u) || Node.isNumericLiteral(u) || Node.isObjectLiteralExpression(u) && u.getProperties().length === 0 || Node.isArrayLiteralExpression(u) && u.getElements().length === 0 || u.getText() === "undefined";
}

export function bodySites(a: Analysis, http: HttpCall, depth = 0): BodySite[] {
  // A data-fetching hook: what its fetcher resolves to is the hook's `data`.
  if (http.hook) return http.helper?.returnsBody || http.wrapper?.returnsBody ? hookDataSites(http.call) : [];
  // An Observable's values, where its operators and subscribers read them.
  if ((http.lib === "convention" || http.lib === "helper") && http.observable) return streamSites(a, http, depth);
  // A call by convention reads its answer the way the code around it does.
  if (http.lib === "convention") {
    if (http.style === "body") return bodySites(a, { ...http, lib: "helper", helper: { kind: "helper", base: "", pathIndex: 0, returnsBody: true, serialisesBody: true } });
    if (!http.style) return [];
    return bodySites(a, { ...http, lib: http.style === "data" ? "axios" : "fetch" });
  }
  // axios through a response interceptor: `(r) => r.data` makes the awaited value the body; another form is not read.
  if (http.lib === "axios" && http.interceptor) {
    if (http.interceptor.form === "unknown") return [];
    return bodySites(a, { ...http, lib: "helper", interceptor: undefined, helper: { kind: "helper", base: "", pathIndex: 0, returnsBody: true, serialisesBody: true } }, depth);
  }
  // openapi-fetch's `{ data, error }` held in a variable or handed to an unwrapping function (its destructuring is read where it is planned).
  if (http.lib === "openapi-fetch") return openapiAnswer(a, http.call).bodies;
  if (http.lib === "wretch") return wretchSites(a, http, depth);
  const sites: BodySite[] = [];
  const addPromise = (promise: Node, parsesText = false) => {
    let p = promise;
    // `res.json().catch(() => null)`: the body (or the fallback) is the awaited value.
    for (let up = skipParens(p).getParent(); up && Node.isPropertyAccessExpression(up) && up.getName() === "catch" && Node.isCallExpression(up.getParent()); up = skipParens(p).getParent()) p = up.getParent()!;
    const parent = skipParens(p).getParent();
    if (parent && Node.isAwaitExpression(parent)) {
      // `JSON.parse(await res.text())`: the value is the parse.
      if (parsesText) {
        const parse = parsedBy(a, parent);
        if (parse) sites.push({ kind: "value", node: parse });
        // `const raw = await res.text(); … JSON.parse(raw)`: each parse of the text is the body.
        const decl = skipParens(parent).getParent();
        if (!parse && decl && Node.isVariableDeclaration(decl) && Node.isIdentifier(decl.getNameNode())) {
          for (const ref of referencesOf(enclosingFunction(decl), decl.getNameNode())) {
            const p = parsedBy(a, ref);
            if (p) sites.push({ kind: "value", node: p });
          }
        }
        return;
      }
      sites.push({ kind: "value", node: parent });
    } else if (!parsesText) sites.push({ kind: "promise", node: p });
    else {
      // `res.text().then((t) => (t ? JSON.parse(t) : null))`: the then's promise is the body.
      const then = textParsedInThen(p);
      if (then) sites.push({ kind: "promise", node: then });
    }
  };
  const call = http.call;
  // A helper that returns its transport's answer: its callers read the body as that library's do.
  if (http.lib === "helper" && http.helper?.returnsResponse) return bodySites(a, { ...http, lib: http.helper.answerLib ?? "fetch", helper: undefined }, depth);
  if (http.lib === "helper" || http.wrapper?.returnsBody) {
    if (http.helper?.returnsBody || http.wrapper?.returnsBody) addPromise(call);
    const h = http.helper;
    if (h && (h.resultBodyKey || h.resultBodyIndex !== undefined)) resultPlaceReads(call, { key: h.resultBodyKey, index: h.resultBodyIndex, success: h.resultSuccess }, sites);
    return sites;
  }
  // A wrapper that returns neither the body nor the transport's answer (`return handle(res)`): where the body is is not known.
  if (http.wrapper && !http.wrapper.returnsResponse) return sites;
  const outer = skipParens(call);
  const parent = outer.getParent();
  // The answer returned from a function of the project: its callers read it as they would the
  // call. Not from a request helper's own transport call (its callers are sites of their own).
  const follows = depth < 3 && !a.helperParts.has(runningFunction(call));
  const callers = (answer: Node) => {
    const to = follows ? returnedTo(answer) : undefined;
    if (!Array.isArray(to)) return false;
    for (const c of to) sites.push(...bodySites(a, { ...http, call: c as HttpCall["call"] }, depth + 1));
    return true;
  };
  if (callers(outer)) return sites;
  if ((http.lib === "got" || http.lib === "ky") && parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "json") {
    const c = parent.getParent();
    if (c && Node.isCallExpression(c)) addPromise(c);
    return sites;
  }
  // What a function of the project the Response is handed to makes of it: its body, or the same Response.
  const takenBy = (h: Handed | undefined) => {
    if (h?.kind === "body") addPromise(h.call);
    // `await raiseForStatus(await fetch(…))` answering the same Response: read on from that call.
    else if (h?.kind === "same" && depth < 3) sites.push(...bodySites(a, { ...http, call: h.call as HttpCall["call"] }, depth + 1));
    else if (h?.kind === "unfollowed") sites.push({ kind: "handed", node: h.call, why: h.why });
  };
  // A fetch Response handed to a function of the project (`unwrap<Pod[]>(await fetch(…))`).
  const handed = (response: Node) => takenBy(http.lib === "fetch" ? responseHandedTo(a, response) : undefined);
  /** A reference to the awaited answer (a variable, a then callback's parameter): its body members, the Response handed on, or returned. */
  const answerRef = (ref: Node) => {
    const p = ref.getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === ref) responseMember(p, http.lib, addPromise, sites, answerKeyOf(http), http.textReader);
    else if (p && Node.isCallExpression(p)) handed(ref);
    else callers(ref);
  };
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "then") {
    const thenCall = parent.getParent();
    const cb = thenCall && Node.isCallExpression(thenCall) ? thenCall.getArguments()[0] : undefined;
    if (cb && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb))) {
      const body = Node.isArrowFunction(cb) ? unwrapExpression(cb.getBody()) : undefined;
      const pn = cb.getParameters()[0]?.getNameNode();
      if (pn && Node.isIdentifier(pn)) {
        // `.then((r) => r.json())`: the then's promise is the body; else the callback reads the answer as a variable would.
        if (body && readsBody(body, pn.getText(), http.lib, answerKeyOf(http))) addPromise(thenCall!);
        else for (const ref of referencesOf(cb, pn)) answerRef(ref);
      } else if (pn && Node.isObjectBindingPattern(pn)) {
        // `.then(({ data }) => data)`: the then's promise is the body; `({ data }) => data.map(…)` reads it.
        const els = pn.getElements();
        const only = els.length === 1 && !!answerKeyOf(http) && bodyKey(els[0]!, answerKeyOf(http)!) && body?.getText() === els[0]!.getNameNode().getText();
        if (only) addPromise(thenCall!);
        else bindings(pn, http.lib, cb, addPromise, sites, answerKeyOf(http));
      }
    } else if (cb && http.lib === "fetch") {
      // `.then(parse)`: a named function of the project that returns the parsed body makes the then's promise the body.
      takenBy(thenHandlerTakes(a, thenCall!, cb));
    }
    return sites;
  }
  const awaited = parent && Node.isAwaitExpression(parent) ? parent : undefined;
  if (!awaited) return sites;
  const up = skipParens(awaited).getParent();
  if (!up || callers(awaited)) return sites;
  if (Node.isPropertyAccessExpression(up)) {
    responseMember(up, http.lib, addPromise, sites, answerKeyOf(http), http.textReader);
    return sites;
  }
  if (Node.isCallExpression(up)) handed(awaited);
  if (Node.isVariableDeclaration(up)) {
    const name = up.getNameNode();
    const scope = enclosingFunction(up);
    if (Node.isIdentifier(name)) for (const ref of referencesOf(scope, name)) answerRef(ref);
    else if (Node.isObjectBindingPattern(name)) bindings(name, http.lib, scope, addPromise, sites, answerKeyOf(http));
  }
  // `let res: Response; try { res = await fetch(…) } catch …`: the variable's reads (not its writes), written this once.
  const held = assignedDeclaration(awaited);
  if (held && writtenValues(held).length === 1) for (const ref of referencesOf(enclosingFunction(held), held.getNameNode())) if (!isWriteTarget(ref)) answerRef(ref);
  return sites;
}


/**
 * wretch: the link reading the answer. `.json()` is a promise of the body, `.json((body) => …)`
 * hands it to its callback, `.res()` is a promise of the fetch Response; `.text()` (and a
 * callback the codemod cannot read) takes the body out of sight.
 */
function wretchSites(a: Analysis, http: HttpCall, depth: number): BodySite[] {
  const reader = http.wretch?.reader;
  if (!reader) return [];
  const on = { ...http, wretch: undefined, call: reader.call };
  if (reader.name === "res" && !reader.call.getArguments().length) return bodySites(a, { ...on, lib: "fetch" }, depth);
  if (reader.name !== "json") return [{ kind: "handed", node: reader.call, why: reader.name === "text" ? "reads it as text" : "reads it in a callback" }];
  const cb = reader.call.getArguments()[0];
  if (!cb) return bodySites(a, { ...on, lib: "helper", helper: { kind: "helper", base: "", pathIndex: 0, returnsBody: true, serialisesBody: true } }, depth);
  const fn = unwrapExpression(cb);
  const param = Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) ? fn.getParameters()[0] : undefined;
  if (!param) return [{ kind: "handed", node: reader.call, why: "takes the body in a callback the codemod cannot read" }];
  return [{ kind: "binding", node: param, param }];
}

/** The member of the awaited answer that holds the parsed body: axios `data`, superagent `body`. */
const ANSWER_KEY: Partial<Record<HttpCall["lib"], string>> = { axios: "data", superagent: "body" };

/** That member for this call: a library's declared one (`result`: declared-answer.ts), else its library's. */
function answerKeyOf(http: HttpCall): string | undefined {
  return http.answerKey ?? ANSWER_KEY[http.lib];
}

function bodyKey(el: Node, key: string): boolean {
  return Node.isBindingElement(el) && (el.getPropertyNameNode()?.getText() ?? el.getName()) === key;
}

/** `const { data, status } = await api.get(…)`, `({ data }) => …`: axios `data` is the body; undici `body.json()` parses it. */
function bindings(pattern: Node & { getElements(): Node[] }, lib: HttpCall["lib"], scope: Node, addPromise: (p: Node, parsesText?: boolean) => void, sites: BodySite[], answerKey: string | undefined): void {
  for (const el of pattern.getElements()) {
    if (!Node.isBindingElement(el)) continue;
    const key = el.getPropertyNameNode()?.getText() ?? el.getName();
    if (answerKey === key) sites.push({ kind: "binding", node: el });
    if (lib === "undici-request" && key === "body" && Node.isIdentifier(el.getNameNode())) {
      for (const ref of referencesOf(scope, el.getNameNode())) {
        const p = ref.getParent();
        if (p && Node.isPropertyAccessExpression(p) && p.getName() === "json" && Node.isCallExpression(p.getParent())) addPromise(p.getParent()!);
        // `const text = await body.text(); … JSON.parse(text)`: each parse of the text is the body.
        if (p && Node.isPropertyAccessExpression(p) && p.getName() === "text" && Node.isCallExpression(p.getParent())) addPromise(p.getParent()!, true);
      }
    }
  }
}

function readsBody(expr: Node, name: string, lib: HttpCall["lib"], answerKey: string | undefined): boolean {
  const t = expr.getText().replace(/\s/g, "");
  if (answerKey) return t === `${name}.${answerKey}`;
  if (lib === "undici-request") return t === `${name}.body.json()`;
  return t === `${name}.json()`;
}

function responseMember(access: Node & { getName(): string; getParent(): Node | undefined }, lib: HttpCall["lib"], addPromise: (p: Node, parsesText?: boolean) => void, sites: BodySite[], answerKey: string | undefined, textReader?: string): void {
  const name = access.getName();
  const parent = access.getParent();
  if ((lib === "fetch" || lib === "got" || lib === "ky") && name === "json" && parent && Node.isCallExpression(parent)) addPromise(parent);
  else if ((lib === "fetch" || lib === "got" || lib === "ky") && (name === "text" || name === textReader) && parent && Node.isCallExpression(parent)) addPromise(parent, true);
  else if (answerKey === name) sites.push({ kind: "value", node: access });
  else if (lib === "undici-request" && name === "body" && parent && Node.isPropertyAccessExpression(parent) && (parent.getName() === "json" || parent.getName() === "text")) {
    const c = parent.getParent();
    if (c && Node.isCallExpression(c)) addPromise(c, parent.getName() === "text");
  }
}

/** The body reads of an Observable's values (observable-flow.ts), with the type the call or the callback declares them by. */
function streamSites(a: Analysis, http: HttpCall, depth: number): BodySite[] {
  const flow = observableFlow(http.call, http.observable!);
  const typeArg = http.call.getTypeArguments().length === 1 ? http.call.getTypeArguments()[0] : undefined;
  const out: BodySite[] = flow.sites.map((s) => {
    const annotated = s.param && Node.isParameterDeclaration(s.param) ? s.param.getTypeNode() : undefined;
    return { kind: s.kind, node: s.node, declared: recordTypeOf(annotated ?? typeArg), observable: true, param: s.param };
  });
  for (const p of flow.promises) {
    if (p.emits === "unknown") continue;
    const onPromise: HttpCall = { ...http, observable: undefined, call: p.node as HttpCall["call"] };
    const got = p.emits === "response" ? bodySites(a, { ...onPromise, lib: "axios" }, depth) : bodySites(a, { ...onPromise, lib: "helper", helper: { kind: "helper", base: "", pathIndex: 0, returnsBody: true, serialisesBody: true } }, depth);
    for (const s of got) s.declared ??= recordTypeOf(typeArg);
    out.push(...got);
  }
  return out;
}
