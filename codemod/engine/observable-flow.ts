// Where the values of an HTTP call's Observable go (observable-answer.ts says what it emits): through
// the RxJS operators whose callbacks receive the emitted value (`map`, `filter`, `tap`, the
// flattening operators, `first`, `take`, `catchError`…), into `.subscribe(cb)` / `.subscribe({ next })`,
// into `firstValueFrom` / `lastValueFrom` (a promise of the value), back to the callers of a
// function that returns the stream, and on in the outer pipe when the call is the inner stream of
// `switchMap(() => …)`. The callbacks' parameters are where the body is read (body-sites.ts hands
// them to the record and list passes); anything else is where the value leaves the codemod's sight.
// The stream's failure is followed along the same way (also past where the value leaves sight) to
// the error handlers it reaches; observable-errors.ts reads them for the error flow.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { passesValueOn, referencesOf } from "./nodes.ts";
import { returnedTo } from "./answer-flow.ts";
import { bare, flatteningInner, rxjsName, type Emits } from "./observable-answer.ts";

/** A read of the emitted body: a reference to a callback's parameter (`p` in `p.status`), axios's `r.data`, or a destructuring parameter. */
export interface StreamSite {
  kind: "value" | "binding";
  node: Node;
  /** The callback parameter holding the body (its annotation types the body). */
  param?: Node;
}

export interface StreamFlow {
  sites: StreamSite[];
  /** `firstValueFrom(…)` / `lastValueFrom(…)`: a promise of what the stream emits there. */
  promises: { node: Node; emits: Emits }[];
  /** The first place the value goes that is not followed. */
  leaves?: { node: Node; why: string };
  /** The declared return types of the functions that return the stream (`Observable<Pod[]>`): the type they give its values, if they name it. */
  returnTypes: { declared: Node; value?: Node }[];
  /**
   * The error handlers the failed request's error reaches, as written (`catchError(h)`, a
   * subscriber's `error`, `subscribe`'s second argument): error-flow.ts follows them to the body's
   * reads. One after a `catchError` whose handler visibly throws something else is not listed.
   */
  errorHandlers: Node[];
}

/** Operators that pass each value on untouched and never read it. */
const PASS = new Set(["take", "takeLast", "skip", "takeUntil", "retry", "delay", "debounceTime", "throttleTime", "auditTime", "sampleTime", "share", "shareReplay", "finalize", "observeOn", "subscribeOn", "timeout"]);
/** Operators whose callback reads each value and passes it on (their callback's result is a test or ignored). */
const READS = new Set(["filter", "tap", "takeWhile", "skipWhile", "first", "last", "find", "distinctUntilChanged"]);
const FLATTENING = new Set(["switchMap", "mergeMap", "concatMap", "exhaustMap", "flatMap"]);
/** What a `catchError` handler may give instead of the failed stream without putting a value of its own in it. */
const NO_VALUE = /^(EMPTY|NEVER|throwError\([\s\S]*\)|of\(\s*(null|undefined)?\s*\))$/;
/** The axios response's members other than its body. */
const RESPONSE_META = new Set(["status", "statusText", "headers", "config", "request"]);

type Fn = Node & { getParameters(): Node[] };
const isFn = (n: Node | undefined): n is Fn => !!n && (Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isMethodDeclaration(n));

export function observableFlow(call: Node, emits: Emits): StreamFlow {
  const flow: StreamFlow = { sites: [], promises: [], returnTypes: [], errorHandlers: [] };
  const leave = (node: Node, why: string): undefined => {
    flow.leaves ??= { node, why };
    return undefined;
  };
  const seen = new Set<Node>();

  /** The expressions a callback returns (its expression body, or its own return statements'). */
  const returned = (fn: Fn): Node[] => {
    const body = (fn as any).getBody?.() as Node | undefined;
    if (body && !Node.isBlock(body)) return [body];
    return fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn).map((r) => r.getExpression()).filter((e): e is NonNullable<typeof e> => !!e).map((e) => bare(e));
  };

  /**
   * The emitted value enters a callback's parameter. `mode`: "read" (the result is a test or
   * ignored), "map" (the result is the next value: the state it carries is returned), "inner" (the
   * result is another stream: the value is not passed on).
   */
  const enter = (fn: Fn, index: number, state: Emits, mode: "read" | "map" | "inner"): Emits | undefined => {
    const param = fn.getParameters()[index];
    if (!param || !Node.isParameterDeclaration(param)) return mode === "read" ? state : undefined;
    const name = param.getNameNode();
    const returns = returned(fn);
    const isReturned = (n: Node) => returns.includes(bare(n));
    if (state === "unknown") {
      if (!Node.isIdentifier(name) || referencesOf(fn, name).length) leave(param, "is read in a callback, and what the observable emits is not known");
      return undefined;
    }
    if (Node.isObjectBindingPattern(name)) {
      if (state === "body") {
        flow.sites.push({ kind: "binding", node: param, param });
        return mode === "read" ? state : undefined;
      }
      // axios's response destructured: `({ data }) => …`, the bound name is the body.
      for (const el of name.getElements()) {
        const key = el.getPropertyNameNode()?.getText() ?? el.getName();
        if (el.getDotDotDotToken()) return leave(el, "is taken apart with a rest element");
        if (key !== "data") continue;
        const local = el.getNameNode();
        if (mode === "map" && Node.isIdentifier(local) && returns.length && returns.every((r) => r.getText() === local.getText())) {
          if (referencesOf(fn, local).every((r) => isReturned(r))) return "body";
        }
        flow.sites.push({ kind: "binding", node: el });
      }
      return mode === "read" ? state : undefined;
    }
    if (!Node.isIdentifier(name)) return leave(param, "is taken apart in a callback's parameter");
    let passes = 0;
    let toBody = 0;
    for (const r of referencesOf(fn, name)) {
      const outer = bare(r);
      if (state === "response") {
        const up = outer.getParent();
        if (up && Node.isPropertyAccessExpression(up) && up.getExpression() === outer) {
          if (up.getName() === "data") {
            if (mode === "map" && isReturned(up)) toBody++;
            else flow.sites.push({ kind: "value", node: up });
            continue;
          }
          if (RESPONSE_META.has(up.getName())) continue;
        }
        if (mode === "map" && isReturned(r)) passes++;
        else if (!isReturned(r) || mode !== "read") leave(r, "(the axios response) is used where the codemod does not follow it");
        continue;
      }
      if (isReturned(r) && mode === "map") passes++;
      else if (!(isReturned(r) && mode === "read")) flow.sites.push({ kind: "value", node: r, param });
    }
    if (mode !== "map") return mode === "read" ? state : undefined;
    if (returns.length && passes === returns.length) return state;
    if (returns.length && toBody === returns.length) return "body";
    if (passes || toBody) return leave(fn, "is given on by some of the callback's returns and not others");
    return undefined;
  };

  /** An error handler the call's error reaches (`errs`: no earlier `catchError` turned it into another error). */
  const errorHandler = (handler: Node | undefined, errs: boolean): void => {
    if (handler && errs) flow.errorHandlers.push(handler);
  };

  /** `tap({ next, error })`, `.subscribe({ next, error })`: the observer's `next` takes each value, its `error` the failure. */
  const observer = (obj: Node, state: Emits | undefined, errs: boolean): void => {
    if (!Node.isObjectLiteralExpression(obj)) return void (state && leave(obj, `is handed to ${obj.getText().slice(0, 40)}`));
    const error = obj.getProperty("error");
    if (error) errorHandler(Node.isPropertyAssignment(error) ? error.getInitializerOrThrow() : Node.isShorthandPropertyAssignment(error) ? error.getNameNode() : error, errs);
    const next = obj.getProperty("next");
    if (!next || !state) return;
    const fn = Node.isPropertyAssignment(next) ? bare(next.getInitializerOrThrow()) : next;
    if (isFn(fn)) enter(fn, 0, state, "read");
    else leave(next, `is handed to ${next.getText().slice(0, 40)}`);
  };

  /** The handler's fallback puts no value of its own in the stream (rethrows, `EMPTY`, `throwError(…)`, `of(null)`). */
  const noFallbackValue = (handler: Node | undefined): boolean => {
    const fns = handler ? handlerFunctions(bare(handler), returned) : [];
    return fns.length > 0 && fns.every((fn) => {
      const body = (fn as any).getBody() as Node;
      const returns = returned(fn);
      if (Node.isBlock(body) && !returns.length) return true;
      return returns.every((r) => NO_VALUE.test(r.getText().replace(/\s+/g, " ").trim()));
    });
  };

  /**
   * Whether the failure after a `catchError` may still be the call's error: a handler written here
   * that visibly throws or gives something else (`throwError(() => new Error(…))`, `EMPTY`) ends
   * it; one that rethrows its own parameter (`throw e`, `throwError(() => e)`), or one written
   * elsewhere, may pass it on.
   */
  const passesError = (handler: Node | undefined): boolean => {
    const fn = handler && bare(handler);
    if (!isFn(fn)) return true;
    const param = fn.getParameters()[0];
    const name = param && Node.isParameterDeclaration(param) && Node.isIdentifier(param.getNameNode()) ? param.getNameNode().getText() : undefined;
    if (!name) return false;
    const same = (n: Node | undefined) => !!n && bare(n).getText() === name;
    const throws = fn.getDescendantsOfKind(SyntaxKind.ThrowStatement).filter((t) => enclosingFunction(t) === fn);
    const rethrown = returned(fn).some((r) => Node.isCallExpression(r) && rxjsName(r.getExpression()) === "throwError" && rethrowsArg(r.getArguments()[0], same));
    return rethrown || throws.some((t) => same(t.getExpression()));
  };
  const rethrowsArg = (arg: Node | undefined, same: (n: Node | undefined) => boolean): boolean => {
    const a = arg && bare(arg);
    if (same(a)) return true;
    const body = a && (Node.isArrowFunction(a) || Node.isFunctionExpression(a)) ? a.getBody() : undefined;
    return !!body && !Node.isBlock(body) && same(body);
  };

  /** One operator of a pipe: the state of the stream after it (undefined: the value is no longer in it; its failure still flows on). */
  const operator = (arg: Node, state: Emits | undefined, errs: boolean): { state: Emits | undefined; errs: boolean } => {
    const op = bare(arg);
    const name = Node.isCallExpression(op) ? rxjsName(op.getExpression()) : undefined;
    const args = Node.isCallExpression(op) ? op.getArguments() : [];
    const cb = args[0] && bare(args[0]);
    if (name === "catchError") {
      errorHandler(cb, errs);
      const after = passesError(cb) && errs;
      return { state: !state || noFallbackValue(cb) ? state : leave(op, "meets a catchError fallback that may give a value in v1 shape"), errs: after };
    }
    if (name === "tap" && cb && Node.isObjectLiteralExpression(cb)) return observer(cb, state, errs), { state, errs };
    return { state: state && valueOperator(op, name, args, cb, state), errs };
  };

  /** What an operator does to the stream's value. */
  const valueOperator = (op: Node, name: string | undefined, args: Node[], cb: Node | undefined, state: Emits): Emits | undefined => {
    if (!name || !Node.isCallExpression(op)) return leave(op, `goes through ${op.getText().slice(0, 40)}, which the codemod does not follow`);
    if (PASS.has(name) && !args.some((x) => Node.isObjectLiteralExpression(bare(x)))) return state;
    if (name === "distinctUntilChanged" && !args.length) return state;
    if (READS.has(name)) {
      // `first(pred, default)`: the default joins the stream in v1 shape.
      if ((name === "first" || name === "last") && args.length > 1) return leave(op, `gets a default value from ${name}(…)`);
      if (!cb) return state;
      if (!isFn(cb)) return leave(cb, `is handed to ${cb.getText().slice(0, 40)}`);
      enter(cb, 0, state, "read");
      if (name === "distinctUntilChanged") enter(cb, 1, state, "read");
      return state;
    }
    if (name === "map") return isFn(cb) ? enter(cb, 0, state, "map") : leave(op, `goes through map(${cb?.getText().slice(0, 30) ?? ""}), which the codemod does not follow`);
    if (FLATTENING.has(name)) return isFn(cb) ? enter(cb, 0, state, "inner") : leave(op, `goes through ${name}(…), which the codemod does not follow`);
    return leave(op, `goes through ${name}(…), which the codemod does not follow`);
  };

  const pipe = (call: Node & { getArguments(): Node[] }, from: number, state: Emits | undefined, errs: boolean, depth: number): void => {
    let at = { state, errs };
    const ops = call.getArguments();
    for (let i = from; i < ops.length && (at.state || at.errs); i++) at = operator(ops[i]!, at.state, at.errs);
    if (at.state || at.errs) stream(call, at.state, at.errs, depth);
  };

  /** Where an expression holding the stream goes: its values (`state`, while they are the call's) and its failure (`errs`, while it is the call's error). */
  const stream = (value: Node, state: Emits | undefined, errs: boolean, depth: number): void => {
    const outer = bare(value);
    if (seen.has(outer)) return;
    seen.add(outer);
    // Where only the failure is still followed, the value leaving is no finding.
    const lost = (node: Node, why: string): void => void (state && leave(node, why));
    if (depth > 4) return lost(outer, "is followed further than the codemod goes");
    const p = outer.getParent();
    if (!p || Node.isExpressionStatement(p) || Node.isVoidExpression(p)) return;
    if (Node.isCallExpression(p) && passesValueOn(p, outer)) {
      if (p.getExpression().getText() === "from") return stream(p, state, errs, depth);
      return void (state && flow.promises.push({ node: p, emits: state }));
    }
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      const call = p.getParent();
      if (!call || !Node.isCallExpression(call) || call.getExpression() !== p) return lost(p, `is read as .${p.getName()}`);
      if (p.getName() === "pipe") return pipe(call, 0, state, errs, depth);
      if (p.getName() === "toPromise") return void (state && flow.promises.push({ node: call, emits: state }));
      if (p.getName() === "subscribe") {
        const [cb, onError] = call.getArguments();
        errorHandler(onError, errs);
        if (!cb) return;
        const fn = bare(cb);
        if (!isFn(fn)) return observer(fn, state, errs);
        if (state) enter(fn, 0, state, "read");
        return;
      }
      return lost(call, `goes through .${p.getName()}(…)`);
    }
    const inner = flatteningInner(outer);
    if (inner) return pipe(inner.pipe, inner.index + 1, state, errs, depth + 1);
    const to = returnedTo(outer);
    if (to === "escapes") return lost(outer, "is returned to callers the codemod cannot list (outside the run, or the function passed on)");
    if (to) {
      const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : p;
      const declared = (fn as any).getReturnTypeNode?.() as Node | undefined;
      if (declared && state) flow.returnTypes.push({ declared, value: Node.isTypeReference(declared) && declared.getTypeArguments().length === 1 ? declared.getTypeArguments()[0] : undefined });
      return void to.forEach((c) => stream(c, state, errs, depth + 1));
    }
    if (Node.isVariableDeclaration(p) && p.getInitializer() === outer && Node.isIdentifier(p.getNameNode())) {
      for (const r of referencesOf(enclosingFunction(p), p.getNameNode())) stream(r, state, errs, depth);
      return;
    }
    if (Node.isCallExpression(p) || Node.isNewExpression(p)) return lost(outer, `is handed to ${p.getExpression().getText()}`);
    lost(outer, "is kept where its values are not followed");
  };

  stream(call, emits, true, 0);
  return flow;
}

/**
 * The functions a `catchError` handler is: written there, named (`catchError(rethrow)`, a function
 * of the project), or made by a factory of the project (`catchError(toHttpError("op"))`: each
 * function the factory returns). None when it cannot be read.
 */
function handlerFunctions(handler: Node, returned: (fn: Fn) => Node[]): Fn[] {
  if (isFn(handler)) return [handler];
  const declared = (id: Node): Fn | undefined => {
    if (!Node.isIdentifier(id)) return undefined;
    const decls = id.getSymbol()?.getAliasedSymbol()?.getDeclarations() ?? id.getSymbol()?.getDeclarations() ?? [];
    if (decls.length !== 1) return undefined;
    const d = decls[0]!;
    if (Node.isFunctionDeclaration(d) && d.getBody()) return d as Fn;
    const init = Node.isVariableDeclaration(d) && d.getInitializer() ? bare(d.getInitializer()!) : undefined;
    return isFn(init) ? init : undefined;
  };
  const named = declared(handler);
  if (named) return [named];
  const factory = Node.isCallExpression(handler) ? declared(bare(handler.getExpression())) : undefined;
  const made = factory ? returned(factory) : [];
  return made.length && made.every((m) => isFn(m)) ? (made as Fn[]) : [];
}
