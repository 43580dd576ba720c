// Following a base's uses forward, for the do-no-harm check: from the literal through variables,
// `??`/`||`, class fields, constructor assignments, config-object properties (with the property
// path the value sits under, so `return { base }` reaches `const { base } = getConfig()` and a
// schema entry's `.default(…)` reaches `env.KEY`), library instances, exports/imports and request
// helpers. A use is followed when it reaches a node a planned site accounts for.
import { tidiedReceiver } from "./evaluate/tidy.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import type { Analysis } from "./state.ts";
import { functionName, references } from "./references.ts";
import { commonJsExports, importerUses } from "./module-exports.ts";
import { optionsOf, type Frame } from "./evaluate/value.ts";
import { receiverHolds } from "./receiver-base.ts";
import { unwrapExpression } from "./urls.ts";
import { referencesOf } from "./nodes.ts";
import { argumentCallee, classNamed, functionNamed } from "./record-callees.ts";
import { BASE_KEYS } from "./transports/convention.ts";
import { shortExpression } from "./expression-name.ts";

const REQUEST_METHODS = /^(get|post|put|patch|delete|del|head|options|request|fetch|send|call)$/i;

/**
 * The path marker of a client that outside code made from the base (`fetchBaseQuery({ baseUrl })`,
 * an SDK's `new Client({ baseUrl })`): the engine cannot see what the client does with the base,
 * so each of its uses must be a planned call; any other use (handed on, a member other than a
 * request method) is a use that cannot be followed.
 */
const CLIENT = "\0client:";
const isClient = (step: string | undefined) => !!step?.startsWith(CLIENT);
/** Members of a client that configure it rather than send a request (`api.interceptors.request.use`). */
const CLIENT_CONFIG = new Set(["interceptors", "defaults", "hooks"]);

const WRAPPERS = new Set([SyntaxKind.ParenthesizedExpression, SyntaxKind.AsExpression, SyntaxKind.NonNullExpression, SyntaxKind.SatisfiesExpression, SyntaxKind.TypeAssertionExpression, SyntaxKind.AwaitExpression]);

export class Follower {
  private readonly helperMemo = new Map<Node, boolean>();
  /** Expressions that take precedence over the followed value (`opts.baseUrl ?? BASE`). */
  overrides = new Set<string>();
  /** The base literal being followed: a call of a function returning strings that cannot be it is not its use. */
  literal: Node | undefined;
  /** Values this base gives as an option to a client or function (`new Client({ baseUrl })`). */
  passedOptions: { holder: Node; key: string; at: Node }[] = [];
  /** Why a use cannot be followed, where the node alone does not say it (shown in the base's mark). */
  readonly why = new Map<Node, string>();
  /** Each URL part inside a request helper → the helpers it belongs to (indexed once: looked up per followed use). */
  private readonly helperOf = new Map<Node, Node[]>();

  constructor(private readonly a: Analysis) {
    for (const [fn, parts] of a.helperParts) for (const part of parts) this.helperOf.set(part, [...(this.helperOf.get(part) ?? []), fn]);
  }

  accounted(node: Node): boolean {
    if (this.a.accounted.has(node)) return true;
    return (this.helperOf.get(node) ?? []).some((fn) => this.helperClosed(fn));
  }

  /** Every call of a helper was planned (its callers are the sites). */
  helperClosed(fn: Node): boolean {
    const memo = this.helperMemo.get(fn);
    if (memo !== undefined) return memo;
    this.helperMemo.set(fn, false);
    const closed = this.helperUses(fn).length === 0;
    this.helperMemo.set(fn, closed);
    return closed;
  }

  /** The uses of a helper that are not planned calls. */
  helperUses(fn: Node): Node[] {
    const out: Node[] = [];
    const named = (fn as any).getNameNode?.() as Node | undefined;
    if ((Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) && named) {
      // A method called on an instance that cannot hold this base (another API's) does not use it.
      const key = this.a.helperCache.get(fn)?.receiverKey;
      for (const r of references(named)) {
        if (key && Node.isPropertyAccessExpression(r) && !receiverHolds(this.a, unwrapExpression(r.getExpression()), key, this.literal)) continue;
        this.follow(r, out, new Set<string>(), 0);
      }
    } else this.follow(fn, out, new Set<string>(), 0);
    return out;
  }

  /**
   * Collects the uses of a value that no planned site accounts for. `path` is the property path
   * the followed value sits under inside the current expression (innermost key last).
   */
  follow(value: Node, out: Node[], seen: Set<string>, depth: number, path: string[] = []): void {
    const key = `${value.getSourceFile().getFilePath()}:${value.getStart()}:${value.getKind()}:${path.join(".")}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (this.accounted(value)) return;
    // A type written with it (`keyof typeof DEFAULTS`) holds no value.
    if (value.getFirstAncestor((x) => Node.isTypeNode(x))) return;
    if (depth > 14) return void out.push(value);
    let outer = value;
    for (;;) {
      const p = outer.getParent();
      if (!p) break;
      if (WRAPPERS.has(p.getKind())) outer = p;
      else if (Node.isBinaryExpression(p) && ["??", "||"].includes(p.getOperatorToken().getText())) {
        if (p.getRight() === outer) this.overrideBy(p.getLeft());
        outer = p;
      }
      else if (Node.isConditionalExpression(p) && p.getCondition() !== outer) outer = p;
      else if (Node.isPropertyAccessExpression(p) && p.getParent() && tidiedReceiver(p.getParent()!) === outer) outer = p.getParent()!;
      else break;
      if (this.accounted(outer)) return;
    }
    const p = outer.getParent();
    if (!p) return void out.push(value);
    const each = (refs: Node[], at = path) => refs.forEach((r) => this.follow(r, out, seen, depth + 1, at));
    if (path.length && this.alongPath(outer, p, out, seen, depth, path)) return;
    if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) {
      const name = p.getNameNode();
      if (Node.isIdentifier(name)) return each(references(name));
      return this.destructured(name, out, seen, depth, path);
    }
    if ((Node.isPropertyDeclaration(p) || Node.isParameterDeclaration(p)) && p.getInitializer() === outer) return each(references(p.getNameNode()));
    // `const { runpod } = require("./config")` (a reference to an exported property): the name it declares.
    if (Node.isBindingElement(p) && (p.getPropertyNameNode() ?? p.getNameNode()) === outer && Node.isIdentifier(p.getNameNode()) && p.getNameNode() !== outer) return each(references(p.getNameNode()));
    if (Node.isBindingElement(p) && !p.getPropertyNameNode() && p.getNameNode() === outer && Node.isIdentifier(outer)) return each(references(outer));
    // A destructured element's default (`{ baseUrl = BASE } = {}`): the name it declares.
    if (Node.isBindingElement(p) && p.getInitializer() === outer && Node.isIdentifier(p.getNameNode())) return each(references(p.getNameNode()));
    if (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.EqualsToken && p.getRight() === outer) {
      const left = p.getLeft();
      const nameNode = Node.isPropertyAccessExpression(left) ? left.getNameNode() : Node.isIdentifier(left) ? left : undefined;
      const text = left.getText().replace(/\s/g, "");
      // `exports.base = …`: the compiler binds CommonJS exports in JavaScript, so its importers' reads are references.
      // `module.exports = value`: the importers' uses of the module's value.
      if (/^(module\.)?exports(\.|$)/.test(text)) {
        const refs = !nameNode ? [] : /^(module\.)?exports\.\w+$/.test(text) ? references(nameNode) : importerUses(nameNode);
        return refs.length ? each(refs) : void out.push(outer);
      }
      return nameNode ? each(references(nameNode)) : void out.push(outer);
    }
    // A schema entry's default (`z.string().default(BASE)`): the entry stands for the value.
    if (Node.isCallExpression(p) && p.getArguments().includes(outer as any) && Node.isPropertyAccessExpression(p.getExpression()) && (p.getExpression() as any).getName() === "default") {
      return this.follow(chainTop(p), out, seen, depth + 1, path);
    }
    if ((Node.isPropertyAssignment(p) && p.getInitializer() === outer) || (Node.isShorthandPropertyAssignment(p) && p.getNameNode() === outer)) {
      // The object literal, through `as const` / `satisfies` / parentheses, to what holds it.
      let obj: Node | undefined = p.getParent();
      while (obj && obj.getParent() && WRAPPERS.has(obj.getParent()!.getKind())) obj = obj.getParent();
      const holder = obj && obj.getParent();
      const name = p.getName();
      if (holder && Node.isVariableDeclaration(holder) && holder.getInitializer() === obj) {
        const refs = references(p.getNameNode());
        return refs.length ? each(refs) : this.follow(obj!, out, seen, depth + 1, [...path, name]);
      }
      // A library instance's config (`axios.create({ baseURL })`): the instance's uses.
      if (holder && (Node.isCallExpression(holder) || Node.isNewExpression(holder)) && this.accounted(outer)) return this.follow(holder, out, seen, depth + 1);
      // `{ default: BASE }` given to a schema entry (`str({ default })`): the entry stands for it.
      if (holder && Node.isCallExpression(holder) && name === "default") return this.follow(chainTop(holder), out, seen, depth + 1, path);
      // The base in a planned request's own options (`$fetch(path, { baseURL: BASE })`): that request is the use.
      if (holder && Node.isCallExpression(holder) && this.accounted(holder.getExpression())) return;
      if (holder && (Node.isCallExpression(holder) || Node.isNewExpression(holder))) {
        // An option given to a client (`new Client({ baseUrl: "…/v1" })`): the client's own default
        // for that option (`opts.baseUrl ?? DEFAULT`) must not flip while this value stays v1.
        this.passedOptions.push({ holder, key: name, at: outer });
        // A class or factory of the project: the option is followed where it takes it (its uses
        // are inside), so calling the made object's own methods is not a use of it.
        const intoProject = this.intoCallee(holder, obj!, [...path, name], out, seen, depth);
        if (!intoProject) {
          // A client handed to outside code (`createApi({ baseQuery: fetchBaseQuery(…) })`): not followed.
          if (path.some(isClient)) {
            this.why.set(p, `a client made from the base, handed to ${shortExpression((holder as any).getExpression(), 24)}(…)`);
            return void out.push(p);
          }
          // The base given to outside code under a base-like key makes a client: its uses must be planned calls.
          // (Not a schema entry built around it, `z.string().default(BASE)`, nor a plain object of the language's, `Object.freeze({ baseURL })`.)
          const maker = unwrapExpression((holder as any).getExpression()).getText();
          if (!path.length && BASE_KEYS.includes(name) && !Node.isCallExpression(unwrapExpression(outer)) && !/^(Object|Reflect|JSON)\./.test(maker)) return this.follow(holder, out, seen, depth + 1, [CLIENT + name]);
        }
        // An object made from options (a schema, a config factory) still exposes them by name.
        return this.follow(holder, out, seen, depth + 1, [...path, name]);
      }
      if (obj && (Node.isReturnStatement(holder!) || (holder && Node.isArrowFunction(holder)) || (holder && Node.isPropertyAssignment(holder)))) return this.follow(obj, out, seen, depth + 1, [...path, name]);
      // `module.exports = { baseUrl }`: its importers' reads (`config.baseUrl`, `const { runpod } = require(…)`).
      if (holder && Node.isBinaryExpression(holder) && /^(module\.)?exports$/.test(holder.getLeft().getText().replace(/\s/g, ""))) {
        const refs = references(p.getNameNode());
        if (refs.length) return each(refs);
      }
      return void out.push(outer);
    }
    if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) {
      const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : p;
      return this.callers(fn, out, seen, depth, path);
    }
    if (Node.isExportAssignment(p)) return void out.push(outer);
    // Only tested (`if (!client)`, `client === null`): the value goes nowhere.
    if ((Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken) || ((Node.isIfStatement(p) || Node.isWhileStatement(p)) && p.getExpression() === outer)) return;
    if (Node.isBinaryExpression(p) && ["===", "!==", "==", "!="].includes(p.getOperatorToken().getText())) return;
    // `typeof DEFAULTS[key] === "number"`, `Number(raw)`: a type test or a number holds no URL.
    if (Node.isTypeOfExpression(p)) return;
    if (Node.isCallExpression(p) && p.getArguments()[0] === outer && NUMERIC.test(p.getExpression().getText())) return;
    // A method of a class the base was followed into, called on an instance of it (`this.api.list()`).
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer && !path.length) {
      const call = p.getParent();
      const method = call && Node.isCallExpression(call) && call.getExpression() === p ? functionNamed(this.a, p) : undefined;
      if (method && this.insideFollowed(method)) return;
    }
    // A method handed to a class of the project as its constructor's parameter property
    // (`new Pods(this.request.bind(this))`): its uses are that class's `this.request(…)` calls.
    if (!path.length && this.injected(outer, out, seen, depth)) return;
    // A base given positionally to a class of the project (`new Client(key, BASE)`) is followed into
    // its constructor the same way (its uses are the class's own members).
    if (Node.isNewExpression(p) && (p.getArguments() as Node[]).includes(outer) && this.intoCallee(p, outer, path, out, seen, depth)) return this.follow(p, out, seen, depth + 1, path);
    // An object carrying the base (a client the project made) handed to a function of the project:
    // followed where its parameter is used. A bare base string handed on is not: the function
    // may build URLs from it that no planned site accounts for.
    if (path.length && Node.isCallExpression(p) && p.getArguments().includes(outer as any)) {
      const callee = argumentCallee(this.a, outer);
      const name = callee && (callee.param as any).getNameNode();
      if (callee && name && Node.isIdentifier(name)) return each(referencesOf(callee.fn, name));
    }
    out.push(outer);
  }

  /**
   * A call whose every possible result is known and none is the followed literal: with its own
   * arguments bound (`get("SLACK_URL")` of `get(key)` reading `DEFAULTS[key]`), it does not return this base.
   */
  private cannotHold(call: Node): boolean {
    if (!this.literal) return false;
    const options = optionsOf(this.a.evaluator.evaluate(call));
    if (options.every((o) => o.kind === "env" || (o.kind === "string" && o.node !== this.literal))) return true;
    return this.otherKey(call);
  }

  /** Keyed reads the value was followed through (`DEFAULTS[key]` for the key `RUNPOD_API_URL`). */
  private readonly keyedReads: { read: Node; want: string }[] = [];

  /**
   * `config.get("DEFAULT_DATA_CENTER")` of `get(key)` whose value was followed in through
   * `DEFAULTS[key]`: with this call's arguments bound, the key is known and is another key, so the
   * read gives another value here (whatever else the function returns never held this one).
   */
  private otherKey(call: Node): boolean {
    const fn = Node.isCallExpression(call) ? functionNamed(this.a, call.getExpression()) : undefined;
    if (!fn || !Node.isCallExpression(call)) return false;
    const reads = this.keyedReads.filter((k) => k.read.getSourceFile() === fn.getSourceFile() && k.read.getStart() >= fn.getStart() && k.read.getEnd() <= fn.getEnd());
    if (!reads.length) return false;
    const params = ((fn as any).getParameters?.() ?? []) as Node[];
    const frame: Frame = { args: new Map(), parent: undefined };
    call.getArguments().forEach((arg, i) => params[i] && frame.args.set(params[i]!, { arg, frame: undefined }));
    return reads.every(({ read, want }) => {
      const arg = Node.isElementAccessExpression(read) ? read.getArgumentExpression() : undefined;
      const keys = arg ? optionsOf(this.a.evaluator.evaluate(arg, frame)) : [];
      return keys.length > 0 && keys.every((k) => k.kind === "string" && k.text !== want);
    });
  }

  /** What takes precedence over the value (`x ?? value`): an environment read by its variable's name (`process.env[key]` in `get(key)`), else its text. */
  private overrideBy(left: Node): void {
    const options = optionsOf(this.a.evaluator.evaluate(left));
    if (options.length && options.every((o) => o.kind === "env")) for (const o of options) this.overrides.add(`the environment variable ${(o as { name: string }).name}`);
    else this.overrides.add(left.getText().replace(/\s+/g, " "));
  }

  private injected(outer: Node, out: Node[], seen: Set<string>, depth: number): boolean {
    let arg: Node = outer;
    const bind = outer.getParent();
    if (bind && Node.isPropertyAccessExpression(bind) && bind.getName() === "bind" && bind.getParent() && Node.isCallExpression(bind.getParent()!)) arg = bind.getParent()!;
    const made = arg.getParent();
    if (!made || !Node.isNewExpression(made) || !made.getArguments().includes(arg as never)) return false;
    const cls = classNamed(this.a, made.getExpression());
    const param = cls?.getConstructors()[0]?.getParameters()[made.getArguments().indexOf(arg as never)];
    if (!cls || !param || !param.isParameterProperty()) return false;
    for (const access of cls.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
      if (access.getName() === param.getName() && Node.isThisExpression(access.getExpression())) this.follow(access, out, seen, depth + 1);
    }
    return true;
  }

  /** With a path: `x.key` reads the value, `x.method(…)` of a made object keeps exposing it. True when handled. */
  private alongPath(outer: Node, p: Node, out: Node[], seen: Set<string>, depth: number, path: string[]): boolean {
    const want = path[path.length - 1]!;
    if (isClient(want)) return this.clientUse(outer, p, want.slice(CLIENT.length), out, seen, depth);
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      if (p.getName() === want) return this.follow(p, out, seen, depth + 1, path.slice(0, -1)), true;
      const call = p.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === p) {
        // A method of a class or factory of the project the option was followed into: its uses are inside.
        const method = functionNamed(this.a, p);
        if (method && (this.madeOf(outer) || this.insideFollowed(method))) return true;
        // A request method of an object made with the base (`client.get(…)`) is a use: only a
        // planned site accounts for it. Other methods (`Schema.parse(env)`) keep exposing the option.
        if (REQUEST_METHODS.test(p.getName())) return out.push(call), true;
        return this.follow(call, out, seen, depth + 1, path), true;
      }
      // Another key of the same object is not a use of this value.
      return true;
    }
    if (Node.isElementAccessExpression(p) && p.getExpression() === outer) {
      // `DEFAULTS[key]`: a use when the key can be this one (every string it can hold, over its callers).
      const arg = p.getArgumentExpression();
      const keys = arg ? optionsOf(this.a.evaluator.evaluate(arg)) : [];
      if (keys.length && keys.every((k) => k.kind === "string")) {
        if (keys.some((k) => k.kind === "string" && k.text === want)) {
          this.keyedReads.push({ read: p, want });
          this.follow(p, out, seen, depth + 1, path.slice(0, -1));
        }
        return true;
      }
      // A key known only at run time may be this one: the read is the use that cannot be followed.
      return out.push(p), true;
    }
    return false;
  }

  /**
   * A use of a client outside code made from the base: a planned request call is accounted for (the
   * reference is in its trail); a request method's call no site planned, or any other member, is a
   * use that cannot be followed. Variables, fields, returns and arguments are left to `follow`. True when handled.
   */
  private clientUse(outer: Node, p: Node, key: string, out: Node[], seen: Set<string>, depth: number): boolean {
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      // The option read back (`Object.freeze({ baseURL })` then `CONFIG.baseURL`): the value itself.
      if (p.getName() === key) return this.follow(p, out, seen, depth + 1), true;
      if (CLIENT_CONFIG.has(p.getName()) || this.accounted(p)) return true;
      const call = p.getParent();
      // Another option read as a value (`config.timeoutMs`) sends nothing; a member called or reached through (`sdk.pods.list()`) may.
      const through = call && ((Node.isCallExpression(call) && call.getExpression() === p) || ((Node.isPropertyAccessExpression(call) || Node.isElementAccessExpression(call)) && call.getExpression() === p));
      if (!through && !REQUEST_METHODS.test(p.getName())) return true;
      if (call && Node.isCallExpression(call) && call.getExpression() === p && this.accounted(call)) return true;
      const use = call && Node.isCallExpression(call) && call.getExpression() === p ? call : p;
      this.why.set(use, "not a request the codemod knows, on a client made from the base");
      return out.push(use), true;
    }
    if (Node.isElementAccessExpression(p) && p.getExpression() === outer) return out.push(p), true;
    return false;
  }

  /** Objects made by a class or factory of the project whose option was followed inside it. */
  private readonly madeByProject = new Set<Node>();
  /** The classes and factory functions an option was followed into. */
  private readonly followedInto = new Set<Node>();
  /** A method declared inside a class or factory the option was followed into. */
  private insideFollowed(method: Node): boolean {
    for (let n: Node | undefined = method; n; n = n.getParent()) if (this.followedInto.has(n)) return true;
    return false;
  }
  /** The made value a reference stands for (`client` declared as `new Client(…)`), when the project made it. */
  private madeOf(ref: Node): boolean {
    if (this.madeByProject.has(ref)) return true;
    if (!Node.isIdentifier(ref) && !Node.isPropertyAccessExpression(ref)) return false;
    try {
      for (const d of ref.getSymbol()?.getDeclarations() ?? []) {
        const init = (Node.isVariableDeclaration(d) || Node.isPropertyDeclaration(d)) ? d.getInitializer() : undefined;
        if (init && this.madeByProject.has(unwrapAwait(init))) return true;
      }
    } catch {
      return false;
    }
    return false;
  }

  /**
   * `podsClient({ baseUrl })`, `new Client({ baseUrl })` of the project: the parameter that takes
   * the options object is followed inside with the option's path (`opts.baseUrl`, `this.opts.baseUrl`,
   * `this.config = config`). The made object and the class or factory are remembered (its methods'
   * calls are not uses). False when the callee is not the project's.
   */
  private intoCallee(holder: Node, obj: Node, path: string[], out: Node[], seen: Set<string>, depth: number): boolean {
    const callee = (holder as any).getExpression() as Node;
    const fn = functionNamed(this.a, callee);
    const cls = !fn && Node.isNewExpression(holder) ? classNamed(this.a, callee) : undefined;
    const body = fn ?? cls?.getConstructors()[0];
    if (!body) return false;
    const index = (holder as any).getArguments().indexOf(obj);
    const param = (body as any).getParameters?.()[index] as Node | undefined;
    if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken()) return false;
    const name = param.getNameNode();
    if (!Node.isIdentifier(name)) return false;
    const local = referencesOf(body, name);
    for (const r of local) this.follow(r, out, seen, depth + 1, path);
    // A parameter property (`constructor(private opts: Options)`): its uses are `this.opts`.
    if (param.getScope() || param.isReadonly()) for (const r of references(name)) if (!local.includes(r)) this.follow(r, out, seen, depth + 1, path);
    this.madeByProject.add(holder);
    this.followedInto.add(cls ?? fn!);
    return true;
  }

  /** `const { base, key } = getConfig()`: the element that takes the path's key. */
  private destructured(name: Node, out: Node[], seen: Set<string>, depth: number, path: string[]): void {
    if (!path.length || !Node.isObjectBindingPattern(name)) return void out.push(name);
    const step = path[path.length - 1]!;
    // A client's members taken out (`const { get } = client`) are uses not followed; its base option read back is the value.
    const want = isClient(step) ? step.slice(CLIENT.length) : step;
    if (isClient(step)) for (const el of name.getElements()) if ((el.getPropertyNameNode()?.getText() ?? el.getName()) !== want) out.push(el);
    for (const el of name.getElements()) {
      if (el.getDotDotDotToken()) return void out.push(el);
      const key = el.getPropertyNameNode()?.getText() ?? el.getName();
      if (key !== want) continue;
      const local = el.getNameNode();
      if (Node.isIdentifier(local)) referencesOf(enclosingFunction(el), local).forEach((r) => this.follow(r, out, seen, depth + 1, path.slice(0, -1)));
      else this.destructured(local, out, seen, depth + 1, path.slice(0, -1));
    }
  }

  /** The value a function returns goes to each of its call expressions. */
  private callers(fn: Node, out: Node[], seen: Set<string>, depth: number, path: string[] = []): void {
    if (!isFunctionLike(fn)) return void out.push(fn);
    const holder = fn.getParent();
    if (holder && Node.isArrowFunction(holder) && holder.getBody() === fn) return this.callers(holder, out, seen, depth + 1, path);
    const name = functionName(fn);
    if (!name) return void out.push(fn);
    for (const r of references(name)) {
      const call = r.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === r) {
        if (!path.length && this.cannotHold(call)) continue;
        this.follow(call, out, seen, depth + 1, path);
      } else if (!commonJsExports(r.getSourceFile()).has(r)) out.push(r);
      // (Exported the CommonJS way: the importers' calls are among the references.)
    }
  }
}

const NUMERIC = /^(Number|parseInt|parseFloat|Boolean|Number\.parseInt|Number\.parseFloat)$/;

/** The outermost call of a method chain a call sits in (`z.string().default(x).describe(…)`). */
function chainTop(call: Node): Node {
  let top = call;
  for (;;) {
    const access = top.getParent();
    const next = access?.getParent();
    if (access && Node.isPropertyAccessExpression(access) && access.getExpression() === top && next && Node.isCallExpression(next) && next.getExpression() === access) top = next;
    else return top;
  }
}

function unwrapAwait(n: Node): Node {
  let x = n;
  while (Node.isAwaitExpression(x) || Node.isParenthesizedExpression(x)) x = x.getExpression();
  return x;
}
