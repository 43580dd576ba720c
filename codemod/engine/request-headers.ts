// What a request's Content-Type is, followed by value: the options a transport call is given (an
// object literal, a variable, a caller's options bound through a request helper or wrapper), the
// spreads in them in order, their `headers` (a literal, a shared object, a function returning one,
// a Headers instance) and the spreads inside those. The answer is JSON, another type set
// explicitly, not known (with where knowledge stopped), or absent, with every place where the
// header could be written so that it reaches the request. Which of those places is sound for the
// site is the rewrite's decision (rewrites/json-type.ts).
import { Node, type CallExpression, type ObjectLiteralExpression } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { isUndefined, optionsOf, whyUnknown, type Frame, type Value } from "./evaluate/value.ts";
import { unwrapExpression } from "./urls.ts";
import { bind } from "./values.ts";
import { shortExpression } from "./expression-name.ts";
import { referencesOf } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";
import { writesInto } from "./header-writes.ts";

/** A place where `Content-Type: application/json` can be written so that the request carries it. */
export type Fix =
  /** Add the header to these headers. */
  | { kind: "append"; literal: ObjectLiteralExpression }
  /** `{ ...expr, "Content-Type": … }` in place of a headers expression whose values are plain objects. */
  | { kind: "wrap"; expr: Node }
  /** Add `headers: { "Content-Type": … }` to these options (nothing in them carries headers). */
  | { kind: "headers"; options: ObjectLiteralExpression }
  /** `{ ...expr, headers: { ...expr.headers, "Content-Type": … } }` in place of an options expression. */
  | { kind: "rebuild"; expr: Node }
  /** Add `headers: { ...spread.headers, "Content-Type": … }` to these options, after the spread that carries them. */
  | { kind: "respread"; options: ObjectLiteralExpression; spread: Node }
  /** The call gives no options in that argument: give it `{ headers: { "Content-Type": … } }`. */
  | { kind: "options"; call: CallExpression; index: number };

export type HeaderState =
  | { kind: "json" }
  | { kind: "other"; value: string; at: Node }
  | { kind: "unknown"; why: string; at: Node }
  /** No Content-Type. `plain`: the headers are plain objects (or none), so spreading them keeps them. */
  | { kind: "absent"; fixes: Fix[]; plain: boolean; why?: string };

const JSON_TYPE = /^\s*application\/(?:json|[\w.-]+\+json)\s*(?:;.*)?$/i;

export function isJsonType(value: string): boolean {
  return JSON_TYPE.test(value);
}

const absent = (fixes: Fix[] = [], plain = true, why?: string): HeaderState => ({ kind: "absent", fixes, plain, why });

/** Where the request's headers come from, per call: the frames bind each layer's parameters to its caller's arguments. */
export class HeaderWalk {
  /** The call a frame binds (its missing arguments can be given there). */
  readonly calls = new Map<Frame, CallExpression>();
  /** Literals being read (a literal that spreads itself, through a variable, is not followed forever). */
  private readonly open = new Set<Node>();

  constructor(private readonly a: Analysis) {}

  /** A frame binding `fn`'s parameters to the arguments of `call` (made in `caller`). */
  frame(fn: Node, call: CallExpression, caller: Frame | undefined): Frame {
    const args = new Map<Node, { arg: Node | undefined; frame: Frame | undefined }>();
    const given = call.getArguments();
    ((fn as any).getParameters?.() as Node[] | undefined)?.forEach((p, i) => args.set(p, { arg: given[i], frame: caller }));
    const f: Frame = { args, parent: undefined };
    this.calls.set(f, call);
    return f;
  }

  /** The Content-Type of options given as `expr` (absent: the call gives none; `missing` says where they could be added). */
  options(expr: Node | undefined, frame: Frame | undefined, missing?: Fix): HeaderState {
    if (!expr) return absent(missing ? [missing] : []);
    const u = unwrapExpression(expr);
    if (Node.isObjectLiteralExpression(u)) return this.optionsLiteral(u, frame).state;
    const notGiven = this.missingArgument(u, frame);
    if (notGiven) return absent(notGiven.fix ? [notGiven.fix] : []);
    const states = this.values(u, frame).map((o): HeaderState => {
      if (o.kind === "object" && Node.isObjectLiteralExpression(o.node)) return this.optionsLiteral(o.node, o.frame).state;
      if (isUndefined(o)) return absent();
      return { kind: "unknown", why: `the options come from ${shortExpression(u)}, which the codemod cannot read (${whyUnknown(o) || o.kind})`, at: u };
    });
    const state = combine(states, u);
    // Options held elsewhere: rebuilt where they are given, keeping what they carry.
    if (state.kind === "absent" && state.plain) state.fixes.push({ kind: "rebuild", expr: u });
    return state;
  }

  /** The options' headers, property by property: a later `headers` or spread replaces an earlier one. */
  optionsLiteral(lit: ObjectLiteralExpression, frame: Frame | undefined): { state: HeaderState; touched: boolean } {
    if (this.open.has(lit)) return { state: { kind: "unknown", why: "the options are built from themselves", at: lit }, touched: true };
    this.open.add(lit);
    try {
      return this.optionsProperties(lit, frame);
    } finally {
      this.open.delete(lit);
    }
  }

  private optionsProperties(lit: ObjectLiteralExpression, frame: Frame | undefined): { state: HeaderState; touched: boolean } {
    const writes = writesInto(lit, /^headers$/);
    if (writes.kind === "unknown") return { state: { kind: "unknown", why: writes.why, at: writes.at }, touched: true };
    if (writes.value) return { state: this.headers(writes.value, frame), touched: true };
    let state = absent([{ kind: "headers", options: lit }]);
    let touched = false;
    for (const p of lit.getProperties()) {
      if (Node.isSpreadAssignment(p)) {
        const e = unwrapExpression(p.getExpression());
        const notGiven = this.missingArgument(e, frame);
        if (notGiven) {
          if (!touched && notGiven.fix) state = absent([notGiven.fix, ...(state.kind === "absent" ? state.fixes : [])]);
          continue;
        }
        const parts = this.values(e, frame).map((o) => {
          if (o.kind === "object" && Node.isObjectLiteralExpression(o.node)) return { ...this.optionsLiteral(o.node, o.frame), lit: o.node };
          if (isUndefined(o)) return { state: absent(), touched: false, lit: undefined };
          return { state: { kind: "unknown", why: `the options spread from ${shortExpression(e)} may carry headers the codemod cannot read (${whyUnknown(o) || o.kind})`, at: e } as HeaderState, touched: true, lit: undefined };
        });
        if (parts.some((x) => x.touched)) {
          state = combine(parts.map((x) => x.state), e);
          // The spread's headers can be taken over by these options, with the header added.
          if (state.kind === "absent" && state.plain) state.fixes.push({ kind: "respread", options: lit, spread: e });
          touched = true;
        } else if (!touched && parts.length === 1 && parts[0]!.lit) {
          // The spread object is where headers would come from: adding them there reaches the request too.
          state = absent([{ kind: "headers", options: parts[0]!.lit as ObjectLiteralExpression }, ...(state.kind === "absent" ? state.fixes : [])]);
        }
        continue;
      }
      if (propertyName(p) !== "headers") continue;
      const value = Node.isPropertyAssignment(p) ? p.getInitializer()! : Node.isShorthandPropertyAssignment(p) ? p.getNameNode() : undefined;
      if (!value) {
        state = { kind: "unknown", why: "the headers are computed by a method", at: p };
      } else state = this.headers(value, frame);
      touched = true;
    }
    return { state, touched };
  }

  /** A `headers` value. */
  headers(expr: Node, frame: Frame | undefined): HeaderState {
    const u = unwrapExpression(expr);
    if (Node.isObjectLiteralExpression(u)) return this.headersLiteral(u, frame);
    if (Node.isArrayLiteralExpression(u)) return { kind: "unknown", why: "the headers are a list of pairs", at: u };
    if (Node.isNewExpression(u)) return this.headersInstance(u, frame, true);
    const notGiven = this.missingArgument(u, frame);
    if (notGiven) return absent();
    const options = this.values(u, frame);
    const states = options.map((o): HeaderState => {
      if (o.kind === "object" && Node.isObjectLiteralExpression(o.node)) return this.headersLiteral(o.node, o.frame);
      if (o.kind === "made" && Node.isNewExpression(o.call)) return this.headersInstance(o.call, o.frame, false, u);
      if (isUndefined(o)) return absent();
      return { kind: "unknown", why: `the headers come from ${shortExpression(u)}, which the codemod cannot read (${whyUnknown(o) || o.kind})`, at: u };
    });
    const state = combine(states, u);
    if (state.kind !== "absent") return state;
    // Held elsewhere (a shared object, a function's result): spread into a new literal where they are given.
    const fixes = options.length === 1 ? state.fixes : [];
    return absent(state.plain ? [...fixes, { kind: "wrap", expr: u }] : fixes, state.plain, state.why);
  }

  /** A headers object literal: its Content-Type (any casing), through its spreads in order. */
  private headersLiteral(lit: ObjectLiteralExpression, frame: Frame | undefined): HeaderState {
    if (this.open.has(lit)) return { kind: "unknown", why: "the headers are built from themselves", at: lit };
    this.open.add(lit);
    try {
      return this.headerProperties(lit, frame);
    } finally {
      this.open.delete(lit);
    }
  }

  private headerProperties(lit: ObjectLiteralExpression, frame: Frame | undefined): HeaderState {
    const writes = writesInto(lit, /^content-type$/i);
    if (writes.kind === "unknown") return { kind: "unknown", why: writes.why, at: writes.at };
    let state: HeaderState = absent([]);
    for (const p of lit.getProperties()) {
      if (Node.isSpreadAssignment(p)) {
        const inner = this.headersSpread(unwrapExpression(p.getExpression()), frame);
        if (inner.kind !== "absent") state = inner;
        else if (state.kind === "absent") state = absent([...inner.fixes, ...state.fixes], state.plain && inner.plain, inner.why ?? state.why);
        continue;
      }
      const name = propertyName(p);
      if (name === undefined) {
        state = { kind: "unknown", why: "a header's name is computed", at: p };
        continue;
      }
      if (!/^content-type$/i.test(name)) continue;
      const value = Node.isPropertyAssignment(p) ? p.getInitializer()! : Node.isShorthandPropertyAssignment(p) ? p.getNameNode() : p;
      state = this.contentType(value, frame);
    }
    // Set on the object after it is built (`h["Content-Type"] = …`, on some path): that value.
    if (writes.value) state = this.contentType(writes.value, frame);
    if (state.kind === "absent") state.fixes.push({ kind: "append", literal: lit });
    return state;
  }

  /**
   * A spread inside headers: `...init.headers` is the headers of the options `init` (the caller's,
   * through a helper); `...(json ? { "Content-Type": … } : {})` says JSON where the author chose to.
   */
  private headersSpread(e: Node, frame: Frame | undefined): HeaderState {
    let inner = e;
    while (Node.isBinaryExpression(inner) && ["??", "||"].includes(inner.getOperatorToken().getText())) inner = unwrapExpression(inner.getLeft());
    if (Node.isPropertyAccessExpression(inner) && inner.getName() === "headers") {
      const state = this.options(inner.getExpression(), frame);
      // Rebuilding the options is not a place for their headers' header: the spread reads the headers.
      if (state.kind === "absent") return absent(state.fixes.filter((f) => f.kind !== "rebuild"), state.plain, state.why);
      return state;
    }
    if (this.missingArgument(e, frame)) return absent();
    const states = this.values(e, frame).map((o): HeaderState => {
      if (o.kind === "object" && Node.isObjectLiteralExpression(o.node)) return this.headersLiteral(o.node, o.frame);
      if (isUndefined(o)) return absent();
      return { kind: "unknown", why: `the headers spread from ${shortExpression(e)} cannot be read (${whyUnknown(o) || o.kind})`, at: e };
    });
    // A conditional spread that says JSON on one branch and nothing on the other: the author's choice.
    if (states.some((s) => s.kind === "json") && states.every((s) => s.kind === "json" || s.kind === "absent")) return { kind: "json" };
    const state = combine(states, e);
    // Its own literals are not the place (the spread may serve other requests): the headers around it are.
    return state.kind === "absent" ? absent([], state.plain, state.why) : state;
  }

  /** `new Headers(init)`: what it is made from, and `.set` / `.append` of Content-Type on the variable holding it. */
  private headersInstance(made: Node, frame: Frame | undefined, inline: boolean, holder?: Node): HeaderState {
    if (!Node.isNewExpression(made) || made.getExpression().getText() !== "Headers") {
      return { kind: "unknown", why: `the headers come from ${shortExpression(holder ?? made)}, which the codemod cannot read`, at: holder ?? made };
    }
    const set = holder ? this.setOn(holder, frame) : undefined;
    if (set) return set;
    const arg = made.getArguments()[0];
    const from = arg ? this.headers(arg, frame) : absent();
    if (from.kind !== "absent") return from;
    const argLit = arg && unwrapExpression(arg);
    // Written right here, it can take the header among its entries; held in a variable, it may change before the call.
    const fixes: Fix[] = inline && argLit && Node.isObjectLiteralExpression(argLit) ? [{ kind: "append", literal: argLit }] : [];
    return absent(fixes, false, `the headers are a Headers instance (${shortExpression(holder ?? made)}) the codemod does not add to`);
  }

  /** `h.set("Content-Type", …)` / `h.append(…)` on the variable a Headers instance is held in. */
  private setOn(holder: Node, frame: Frame | undefined): HeaderState | undefined {
    if (!Node.isIdentifier(holder)) return undefined;
    const b = bind(this.a, holder);
    if (b?.kind !== "var") return undefined;
    const name = Node.isVariableDeclaration(b.decl) ? b.decl.getNameNode() : undefined;
    if (!name || !Node.isIdentifier(name)) return undefined;
    let found: HeaderState | undefined;
    for (const r of referencesOf(enclosingFunction(b.decl), name)) {
      const access = r.getParent();
      const call = access?.getParent();
      if (!access || !Node.isPropertyAccessExpression(access) || !call || !Node.isCallExpression(call) || !["set", "append"].includes(access.getName())) continue;
      const [key, value] = call.getArguments();
      const k = key && unwrapExpression(key);
      if (!k || !(Node.isStringLiteral(k) || Node.isNoSubstitutionTemplateLiteral(k)) || !/^content-type$/i.test(k.getLiteralValue())) continue;
      found = value ? this.contentType(value, frame) : undefined;
    }
    return found;
  }

  /** The value given for Content-Type. */
  private contentType(value: Node, frame: Frame | undefined): HeaderState {
    const strings = this.values(unwrapExpression(value), frame);
    if (strings.length && strings.every((s) => s.kind === "string" && isJsonType(s.text))) return { kind: "json" };
    const other = strings.find((s) => s.kind === "string" && !isJsonType(s.text));
    if (other && other.kind === "string") return { kind: "other", value: other.text, at: value };
    return { kind: "unknown", why: `Content-Type is set from ${shortExpression(value)}, which the codemod cannot read`, at: value };
  }

  /** A parameter (or a property of one) that the call bound by `frame` does not give: where it could be given. */
  private missingArgument(e: Node, frame: Frame | undefined): { fix?: Fix } | undefined {
    let n = unwrapExpression(e);
    while (Node.isPropertyAccessExpression(n) || Node.isElementAccessExpression(n)) n = unwrapExpression(n.getExpression());
    if (!Node.isIdentifier(n) || !frame) return undefined;
    const b = bind(this.a, n);
    if (b?.kind !== "param") return undefined;
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      const bound = f.args.get(b.decl);
      if (!bound) continue;
      if (bound.arg) return undefined;
      const call = this.calls.get(f);
      return { fix: call && b.path.length === 0 && n === unwrapExpression(e) ? { kind: "options", call, index: b.index } : undefined };
    }
    return undefined;
  }

  /**
   * What an expression can hold. A parameter the call gives is what it is given (the evaluator also
   * adds the parameter's default, which applies only when nothing is given).
   */
  private values(e: Node, frame: Frame | undefined): Value[] {
    try {
      return optionsOf(this.given(unwrapExpression(e), frame) ?? this.a.evaluator.evaluate(e, frame)).flatMap(withoutRest);
    } catch {
      return [{ kind: "dynamic", node: e, why: "not followed" }];
    }
  }

  private given(e: Node, frame: Frame | undefined): Value | undefined {
    if (Node.isPropertyAccessExpression(e)) {
      const inner = this.given(unwrapExpression(e.getExpression()), frame);
      return inner && this.a.evaluator.property(e, inner, e.getName());
    }
    if (!Node.isIdentifier(e) || !frame) return undefined;
    const b = bind(this.a, e);
    if (b?.kind !== "param") return undefined;
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      const bound = f.args.get(b.decl);
      if (!bound?.arg) continue;
      let v = this.a.evaluator.evaluate(bound.arg, bound.frame);
      for (const key of b.path) v = key === "..." || key === "[computed]" ? { kind: "dynamic", node: e, why: "a rest element" } : this.a.evaluator.property(e, v, key);
      return v;
    }
    return undefined;
  }
}

/** The states of a value's options together: one unknown or other decides; all absent stay absent (a place only when there is one). */
function combine(states: HeaderState[], at: Node): HeaderState {
  if (states.length === 1) return states[0]!;
  const other = states.find((s) => s.kind === "other");
  if (other) return other;
  const unknown = states.find((s) => s.kind === "unknown");
  if (unknown) return unknown;
  if (states.every((s) => s.kind === "json")) return { kind: "json" };
  if (states.some((s) => s.kind === "json")) return { kind: "unknown", why: `the headers from ${shortExpression(at)} say JSON on some paths only`, at };
  const plain = states.every((s) => s.kind === "absent" && s.plain);
  const why = states.map((s) => (s.kind === "absent" ? s.why : undefined)).find((w) => w);
  return absent([], plain, why);
}

/**
 * The rest of an object (`const { json, ...rest } = init`) carries its headers as they are unless
 * it leaves them out: read it as the object it is the rest of.
 */
function withoutRest(v: Value): Value[] {
  // A copy of an object's own entries (`out[k.toLowerCase()] = v` over `Object.entries(h)`) carries
  // the same headers (names compare in any casing; a null value left out was no header).
  if (v.kind === "copy") return optionsOf(v.of).flatMap(withoutRest);
  if (v.kind !== "rest" || v.omit.some((k) => /^(headers|content-type)$/i.test(k))) return [v];
  return optionsOf(v.of).flatMap(withoutRest);
}

function propertyName(p: Node): string | undefined {
  if (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) || Node.isMethodDeclaration(p) || Node.isGetAccessorDeclaration(p)) {
    const nameNode = (p as any).getNameNode() as Node;
    if (Node.isComputedPropertyName(nameNode)) {
      const inner = unwrapExpression(nameNode.getExpression());
      return Node.isStringLiteral(inner) || Node.isNoSubstitutionTemplateLiteral(inner) ? inner.getLiteralValue() : undefined;
    }
    if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) return nameNode.getLiteralValue();
    return nameNode.getText();
  }
  return "";
}
