// One visitor over expressions: which strings and objects an expression can hold. It sees through
// variables and destructuring, returns of functions in any module (parameters bound per call),
// object properties and spreads, class fields, getters and constructor options, default
// parameters, `??` / `||` / conditionals, and environment defaults (schema libraries'
// `.default(…)`, `{ default: … }`). Where knowledge stops it answers a dynamic value saying where
// and why. Bases are found by their value wherever they flow, not by the shape of the code.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { bindAcross, classOfThis, importedBinding, membersNamed, objectOfThis, thisAssignments, type ModuleResolver } from "../symbols.ts";
import { elementDefault, isFunctionLike, restOmits, writesOf, type Binding } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import { absentKey, dynamic, isAbsent, noArgument, notFollowed, undefinedValue, optionsOf, union, type Frame, type Value } from "./value.ts";
import { givesDeclaredV1Base, HELPER_BASE_PARAM } from "../v1-redirect.ts";
import { regexLiteral, stringMethodValue } from "./string-methods.ts";
import { shortExpression } from "../expression-name.ts";
import { injectedInstance } from "./injected.ts";
import { settingValue } from "./config-calls.ts";
import { madeProperty } from "./made-options.ts";
import { factoryClient } from "./factory-client.ts";
import { exportedOutward } from "../outside-callers.ts";
import { copyLoopInto, copyProperty } from "./copies.ts";
import { handsOnOwn } from "./recursion.ts";
import { conditionalValue, guardedValue } from "./string-tests.ts";
import { callersOf } from "./callers.ts";

const MAX_DEPTH = 24;
const ENV_ROOTS = new Set(["process.env", "import.meta.env", "Bun.env"]);

export class Evaluator {
  private readonly memo = new Map<Node, Value>();
  private readonly active = new Set<Node>();
  /** Object keys being read, per literal and frame: a spread of a value that holds the literal itself loops through the memo. */
  private readonly reading = new Map<Node, Map<Frame | undefined, Set<string>>>();
  private depth = 0;
  /** Expressions read as one candidate of a tested string inside a branch (string-tests.ts): `scope` is the branch. */
  private readonly narrowings: { scope: Node; text: string; as: Value }[] = [];

  /** Readings stopped by a cycle or the depth limit so far (memo-cuts.ts: a memo above keeps only uncut results). */
  cuts = 0;

  constructor(private readonly resolve: ModuleResolver | undefined) {}

  /** Whether a narrowed reading is under way (its values hold inside that branch alone). */
  get narrowed(): boolean {
    return this.narrowings.length > 0;
  }

  /** What `node` can hold, in `frame` (the arguments of the call being evaluated, if any). */
  evaluate(input: Node, frame?: Frame): Value {
    const node = unwrapExpression(input);
    const narrowed = this.narrowings.length ? this.narrowedAt(node) : undefined;
    if (narrowed && narrowed !== "inside") return narrowed;
    const memo = !frame && !narrowed;
    if (memo && this.memo.has(node)) return this.memo.get(node)!;
    if (this.active.has(node) || this.depth > MAX_DEPTH) {
      this.cuts++;
      return dynamic(node, "the value depends on itself or is too deep to follow");
    }
    this.active.add(node);
    this.depth++;
    let v: Value;
    try {
      v = this.visit(node, frame);
    } finally {
      this.depth--;
      this.active.delete(node);
    }
    if (memo) this.memo.set(node, v);
    return v;
  }

  /** `node` inside a narrowed branch: the candidate when it is the tested expression, else "inside" (its value must not be memoised). */
  private narrowedAt(node: Node): Value | "inside" | undefined {
    let inside = false;
    for (let i = this.narrowings.length - 1; i >= 0; i--) {
      const n = this.narrowings[i]!;
      if (node.getSourceFile() !== n.scope.getSourceFile() || node.getPos() < n.scope.getPos() || node.getEnd() > n.scope.getEnd()) continue;
      if ((Node.isIdentifier(node) || Node.isPropertyAccessExpression(node)) && node.getText().replace(/\s/g, "") === n.text && !isNameOfAccess(node)) return n.as;
      inside = true;
    }
    return inside ? "inside" : undefined;
  }

  /** `node` with every occurrence of `text` inside it read as `as` (string-tests.ts). */
  private readonly read = (n: Node, f: Frame | undefined) => this.evaluate(n, f);
  private readonly readNarrowed = (n: Node, f: Frame | undefined, text: string, as: Value) => this.evaluateNarrowed(n, f, text, as);

  private evaluateNarrowed(node: Node, frame: Frame | undefined, text: string, as: Value): Value {
    this.narrowings.push({ scope: node, text, as });
    try {
      return this.evaluate(node, frame);
    } finally {
      this.narrowings.pop();
    }
  }

  private visit(node: Node, frame: Frame | undefined): Value {
    if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return { kind: "string", text: node.getLiteralValue(), node };
    if (Node.isRegularExpressionLiteral(node)) return regexLiteral(node);
    if (Node.isAwaitExpression(node)) return this.evaluate(node.getExpression(), frame);
    if (Node.isObjectLiteralExpression(node)) return { kind: "object", node, frame };
    // `this` in a method of an object literal: that object.
    const self = node.getKind() === SyntaxKind.ThisKeyword ? objectOfThis(node) : undefined;
    if (self) return { kind: "object", node: self, frame: undefined };
    if (isFunctionLike(node) || Node.isClassExpression(node)) return { kind: "function", node };
    if (Node.isConditionalExpression(node)) {
      // `base.endsWith("/") ? base.slice(0, -1) : base`: the branch each string the test reads takes.
      const tested = conditionalValue(node, frame, this.read, this.readNarrowed);
      return tested ?? union(node, [this.evaluate(node.getWhenTrue(), frame), this.evaluate(node.getWhenFalse(), frame)]);
    }
    if (Node.isBinaryExpression(node)) {
      const op = node.getOperatorToken().getKind();
      if (op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) return union(node, [this.evaluate(node.getLeft(), frame), this.evaluate(node.getRight(), frame)]);
      return dynamic(node, `the result of ${node.getOperatorToken().getText()} is computed at run time`);
    }
    if (Node.isIdentifier(node)) return this.identifier(node, frame);
    if (Node.isPropertyAccessExpression(node)) return this.member(node, node.getName(), node.getExpression(), frame);
    if (Node.isElementAccessExpression(node)) return this.element(node, frame);
    if (Node.isCallExpression(node)) return this.call(node, frame);
    if (Node.isNewExpression(node)) {
      const callee = this.evaluate(node.getExpression(), frame);
      if (callee.kind === "function" && (Node.isClassDeclaration(callee.node) || Node.isClassExpression(callee.node))) return { kind: "instance", cls: callee.node, call: node, frame };
      return { kind: "made", call: node, frame };
    }
    return notFollowed(node);
  }

  private identifier(id: Node, frame: Frame | undefined): Value {
    if (id.getText() === "undefined") return undefinedValue(id);
    const b = bindAcross(id, this.resolve);
    if (!b) return dynamic(id, `${id.getText()} is a global`);
    return this.binding(id, b, frame);
  }

  private binding(id: Node, b: Binding, frame: Frame | undefined): Value {
    switch (b.kind) {
      case "function":
        return { kind: "function", node: b.decl };
      case "import":
        return { kind: "module", module: b.module, name: b.name, node: id };
      case "catch":
        return dynamic(id, "a caught error");
      case "var": {
        // A `let` given other values later holds any of them (appended to, or written otherwise: unknown).
        const writes = writesOf(b.decl);
        // `let cached;` filled later (`cached = { … }` in a loader): it holds what is assigned (undefined before).
        if (!b.init && (!writes.assigned.length || writes.other || writes.appended.length)) return dynamic(id, `${id.getText()} has no initializer`);
        if (!b.init) return union(id, writes.assigned.map((v) => this.evaluate(v, frame)));
        if (writes.other || writes.appended.length) return dynamic(id, `${id.getText()} is changed after its declaration`);
        // `if (base.endsWith("/")) base = base.slice(0, -1)`: each candidate through the tests.
        const guarded = writes.assigned.length ? guardedValue(id, b.decl, b.init, frame, this.read, this.readNarrowed) : undefined;
        if (guarded) return guarded;
        if (writes.assigned.length) return union(id, [b.init, ...writes.assigned].map((v) => this.evaluate(v, frame)));
        // `const out = {}` then `for (const [k, v] of Object.entries(h)) out[k] = v`: a copy of `h`.
        const copy = copyLoopInto(b.decl);
        if (copy && "unknown" in copy) return dynamic(copy.unknown, `${id.getText()} is written under a computed name (${shortExpression(copy.unknown)})`);
        if (copy) return { kind: "copy", of: this.evaluate(copy.source, frame), lower: copy.lower, node: copy.write };
        // `const { restBaseUrl = DEFAULT } = getConfig()`: the property path, then the element's default.
        const whole = Node.isVariableDeclaration(b.decl) && !Node.isIdentifier(b.decl.getNameNode()) ? this.evaluate(b.init, frame) : undefined;
        if (!whole) return this.evaluate(b.init, frame);
        return this.withDefault(id, this.path(b.decl, whole, b.path, b.decl, id), frame, b.decl);
      }
      case "param":
        return this.parameter(id, b, frame);
    }
  }

  /**
   * A destructured name's element default (`{ baseUrl = DEFAULT } = {}`): it stands in for an
   * option that is certainly absent (an object literal without the key), and is added beside the others.
   */
  private withDefault(id: Node, v: Value, frame: Frame | undefined, decl?: Node): Value {
    const def = elementDefault(id, decl);
    if (!def) return v;
    const fallback = this.evaluate(def, frame);
    const present = optionsOf(v).filter((o) => !isAbsent(o));
    return union(id, [...present, fallback]);
  }

  private path(at: Node, v: Value, path: string[], decl?: Node, id: Node = at): Value {
    let cur = v;
    for (const [i, key] of path.entries()) {
      // The rest of an object, last on the path: the keys named beside it are not in it.
      const omit = key === "..." && i === path.length - 1 && decl ? restOmits(decl, id) : undefined;
      if (omit) return { kind: "rest", of: cur, omit, node: at };
      if (key === "..." || key === "[computed]") return dynamic(at, "a rest or computed element");
      cur = /^\d+$/.test(key) ? dynamic(at, "an array element") : this.property(at, cur, key);
    }
    return cur;
  }

  /** A parameter: the argument of the call being evaluated, else the arguments of every caller, plus its default. */
  private parameter(id: Node, b: Binding & { kind: "param" }, frame: Frame | undefined): Value {
    const def = (b.decl as any).getInitializer?.() as Node | undefined;
    for (let f = frame; f; f = f.parent) {
      const bound = f.args.get(b.decl);
      if (!bound) continue;
      const given = bound.arg ? this.path(id, this.evaluate(bound.arg, bound.frame), b.path, b.decl) : undefined;
      const options = [given, def ? this.path(id, this.evaluate(def, frame), b.path, b.decl) : undefined].filter((x): x is Value => !!x);
      return options.length ? this.withDefault(id, union(id, options), frame, b.decl) : noArgument(id);
    }
    // The base parameter the codemod gave a helper for its marked calls: the helper's own base is its default.
    if (def && id.getText() === HELPER_BASE_PARAM) return this.evaluate(def, frame);
    const options: Value[] = [];
    const callers = this.callers(b.fn);
    // Typed as the client the package's own factory makes, with callers the run cannot all see (an SDK's users).
    const client = b.path.length === 0 && (!callers?.length || exportedOutward(b.fn)) ? factoryClient(this, b.decl, this.resolve) : undefined;
    if (client && !callers?.length) return client;
    if (client) options.push(client);
    // A constructor parameter typed by a package class that the project never fills (dependency injection).
    const injected = b.path.length === 0 && !callers?.length ? injectedInstance(b.decl, this.resolve) : undefined;
    if (injected) return injected;
    if (callers) {
      for (const call of callers) {
        const arg = (call as any).getArguments()[b.index] as Node | undefined;
        // A marked call an earlier run kept on v1 gives the declared v1 base here: that is its own
        // base, not one the helper holds for its other callers (helper-redirect.ts).
        if (arg && givesDeclaredV1Base(arg)) continue;
        // A recursion (a retry) handing on what the function was given adds no value of its own.
        if (arg && b.path.length === 0 && handsOnOwn(call, b.fn, b.index)) continue;
        if (arg) options.push(this.path(id, this.evaluate(arg), b.path, b.decl));
        else if (!def) options.push(dynamic(call, `${id.getText()} is not given here`));
      }
    } else options.push(dynamic(id, `${id.getText()} is a parameter whose callers are not all seen`));
    // The whole parameter's default (`= {}`), read at the destructured path.
    if (def) options.push(this.path(id, this.evaluate(def, frame), b.path, b.decl));
    return this.withDefault(id, union(id, options.length ? options : [dynamic(id, `${id.getText()} is never given`)]), frame, b.decl);
  }

  /** The call and `new` expressions of a function or class, when all of its uses are calls (else undefined). */
  callers(fn: Node): Node[] | undefined {
    return callersOf(fn);
  }

  /**
   * `obj[key]`: the member for each string the key can hold, in this call's frame (`DEFAULTS[key]`
   * and `process.env[key]` inside `get(key)`, called as `get("RUNPOD_API_URL")`). A key known only at
   * run time stops here.
   */
  private element(node: Node & { getArgumentExpression(): Node | undefined; getExpression(): Node }, frame: Frame | undefined): Value {
    const arg = node.getArgumentExpression();
    const key = arg ? this.evaluate(arg, frame) : undefined;
    const keys = key ? optionsOf(key) : [];
    if (!keys.length || keys.some((k) => k.kind !== "string")) return dynamic(node, "a member whose key is computed at run time", key);
    return union(node, keys.map((k) => this.member(node, (k as Value & { kind: "string" }).text, node.getExpression(), frame)));
  }

  private member(node: Node, key: string, objExpr: Node, frame: Frame | undefined): Value {
    const objText = objExpr.getText().replace(/\s/g, "");
    if (ENV_ROOTS.has(objText)) return { kind: "env", name: key, node };
    if (objExpr.getKind() === SyntaxKind.ThisKeyword) {
      // `this.rest` in a sibling method of an object literal: that object's property.
      const obj = objectOfThis(objExpr);
      if (obj) return this.objectProperty(node, obj, key, undefined);
      const cls = classOfThis(node);
      return cls ? this.classMember(node, cls, key, frame) : dynamic(node, "`this` outside a class");
    }
    return this.property(node, this.evaluate(objExpr, frame), key);
  }

  /** Reads `key` of a value. */
  property(at: Node, v: Value, key: string): Value {
    switch (v.kind) {
      case "object":
        return this.objectProperty(at, v.node, key, v.frame);
      case "union":
        return union(at, v.options.map((o) => this.property(at, o, key)));
      case "rest":
        return v.omit.includes(key) ? absentKey(at, key) : this.property(at, v.of, key);
      case "instance":
        return this.classMember(at, v.cls, key, this.frameOf(v));
      case "made":
        return madeProperty(this, at, v, key);
      case "copy":
        return copyProperty(this, at, v, key);
      case "dynamic":
        return dynamic(at, `.${key} of an unknown value`, v);
      case "module": {
        // `const config = require("./config")` then `config.baseUrl`: the module's export of that name.
        const target = v.name === "*" ? this.resolve?.(v.node.getSourceFile().getFilePath(), v.module) : undefined;
        const b = target ? importedBinding(target, key, this.resolve) : undefined;
        return b ? this.binding(at, b, undefined) : dynamic(at, `.${key} of module ${v.module}`);
      }
      case "function": {
        // `RunpodClient.API_BASE`: a static field's initializer (`static readonly API_BASE = "…"`).
        const field = Node.isClassDeclaration(v.node) ? v.node.getStaticProperty(key) : undefined;
        const init = field && Node.isPropertyDeclaration(field) ? field.getInitializer() : undefined;
        return init ? this.evaluate(init) : dynamic(at, `.${key} of a function`);
      }
      default:
        return dynamic(at, `.${key} of a ${v.kind}`);
    }
  }

  private objectProperty(at: Node, obj: Node, key: string, frame: Frame | undefined): Value {
    if (!Node.isObjectLiteralExpression(obj)) return dynamic(at, "not an object literal");
    // `make({ ...state })` inside `make(state)`: the spread holds this very literal again; its key
    // is whatever the other values give, so this reading stops here instead of going round.
    const byFrame = this.reading.get(obj) ?? this.reading.set(obj, new Map()).get(obj)!;
    const keys = byFrame.get(frame) ?? byFrame.set(frame, new Set()).get(frame)!;
    if (keys.has(key) || this.depth > MAX_DEPTH) return this.cuts++, dynamic(obj, `${key} of ${shortExpression(obj)} depends on itself (a spread of a value holding this object) or is too deep to follow`);
    keys.add(key), this.depth++;
    try {
      return this.ownProperty(at, obj, key, frame);
    } finally {
      this.depth--, keys.delete(key);
    }
  }

  private ownProperty(at: Node, obj: Node & { getProperties(): Node[] }, key: string, frame: Frame | undefined): Value {
    let found: Value | undefined;
    for (const p of obj.getProperties()) {
      if (Node.isSpreadAssignment(p)) {
        const spread = this.property(at, this.evaluate(p.getExpression(), frame), key);
        if (spread.kind !== "dynamic") found = spread;
        else if (!found) found = spread;
        continue;
      }
      const name = (p as any).getName?.() as string | undefined;
      if (name !== key) continue;
      if (Node.isPropertyAssignment(p)) found = this.evaluate(p.getInitializer()!, frame);
      else if (Node.isShorthandPropertyAssignment(p)) found = this.evaluate(p.getNameNode(), frame);
      else if (Node.isGetAccessorDeclaration(p)) found = this.returns(p, frame);
      else found = { kind: "function", node: p };
    }
    return found ?? absentKey(at, key);
  }

  /** A member of a project class: field initializers, parameter properties, `this.key = …` anywhere in the class, getters, methods. */
  private classMember(at: Node, cls: Node, key: string, frame: Frame | undefined): Value {
    const options: Value[] = [];
    for (const m of membersNamed(cls, key)) {
      const name = (m as any).getName?.();
      if (Node.isPropertyDeclaration(m) && name === key && m.getInitializer()) options.push(this.evaluate(m.getInitializer()!, frame));
      if (Node.isGetAccessorDeclaration(m) && name === key) options.push(this.returns(m, frame));
      if (Node.isMethodDeclaration(m) && name === key) options.push({ kind: "function", node: m });
      if (Node.isConstructorDeclaration(m)) {
        for (const p of m.getParameters()) if (p.isParameterProperty() && p.getName() === key) options.push(this.evaluate(p.getNameNode(), frame));
      }
    }
    for (const right of thisAssignments(cls, key)) options.push(this.evaluate(right, frame));
    return options.length ? union(at, options) : dynamic(at, `the class has no ${key} the codemod can see`);
  }

  /** The frame of a `new C(args)`: the constructor's parameters bound to its arguments. */
  private frameOf(v: Value & { kind: "instance" }): Frame | undefined {
    const ctor = (v.cls as any).getConstructors?.()[0] as Node | undefined;
    if (!ctor) return v.frame;
    return this.bindArgs(ctor, (v.call as any).getArguments() as Node[], v.frame);
  }

  private bindArgs(fn: Node, args: Node[], caller: Frame | undefined): Frame {
    const map = new Map<Node, { arg: Node | undefined; frame: Frame | undefined }>();
    ((fn as any).getParameters?.() as Node[] | undefined)?.forEach((p, i) => map.set(p, { arg: args[i], frame: caller }));
    return { args: map, parent: undefined };
  }

  private call(node: Node & { getExpression(): Node; getArguments(): Node[] }, frame: Frame | undefined): Value {
    // `base.replace(/\/$/, "")`, `base.trim()`, `String(base)`: the method applied to each known string.
    const str = stringMethodValue(node, frame, (n, f) => this.evaluate(n, f));
    if (str) return str;
    const callee = this.evaluate(node.getExpression(), frame);
    if (callee.kind === "function" && isFunctionLike(callee.node) && !Node.isClassDeclaration(callee.node)) {
      const bound = this.bindArgs(callee.node, node.getArguments(), frame);
      return this.returns(callee.node, bound);
    }
    const setting = settingValue(this, node, frame);
    if (setting) return setting;
    return { kind: "made", call: node, frame };
  }

  /** What a function returns: its expression body, or every `return` of its own body. */
  returns(fn: Node, frame: Frame | undefined): Value {
    if (Node.isArrowFunction(fn) && !Node.isBlock(fn.getBody())) return this.evaluate(fn.getBody() as Node, frame);
    const options: Value[] = [];
    for (const r of fn.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
      let owner: Node | undefined = r.getParent();
      while (owner && !isFunctionLike(owner)) owner = owner.getParent();
      if (owner !== fn) continue;
      const e = r.getExpression();
      if (e) options.push(this.evaluate(e, frame));
    }
    return options.length ? union(fn, options) : dynamic(fn, "the function returns nothing the codemod can see");
  }
}

/** The name of `x.name` (not an expression of its own). */
function isNameOfAccess(n: Node): boolean {
  const p = n.getParent();
  return !!p && Node.isPropertyAccessExpression(p) && p.getNameNode() === n;
}
