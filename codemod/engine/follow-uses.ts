// Following a base's uses forward, for the do-no-harm check: from the literal through variables,
// `??`/`||`, class fields, constructor assignments, config-object properties (with the property
// path the value sits under, so `return { base }` reaches `const { base } = getConfig()` and a
// schema entry's `.default(…)` reaches `env.KEY`), library instances, exports/imports and request
// helpers. A use is followed when it reaches a node a planned site accounts for. The uses of a
// client made from the base are client-uses.ts's; which calls cannot return it, call-results.ts's;
// which request helpers have every call planned, planned-helpers.ts's; where the value goes into a
// project class, a destructuring or a function's callers, follow-into.ts's.
import { tidiedReceiver } from "./evaluate/tidy.ts";
import { stringMethodReceiver } from "./evaluate/string-methods.ts";
import { untakenFor } from "./evaluate/string-tests.ts";
import { testedUse } from "./tested-uses.ts";
import { isBaseOnly, isValueWrapper, unwrapExpression } from "./urls.ts";
import { configDefault } from "./evaluate/config-default.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import type { Analysis } from "./state.ts";
import { references } from "./references.ts";
import { defaultImportUses, importerUses } from "./module-exports.ts";
import { optionsOf } from "./evaluate/value.ts";
import { overrideSources } from "./override-sources.ts";
import { CallResults } from "./call-results.ts";
import { PlannedHelpers } from "./planned-helpers.ts";
import { callers, destructured, intoCallee, type FollowSteps } from "./follow-into.ts";
import { inheritedFieldReads } from "./inherited-field-reads.ts";
import { chainTop, referencesOf } from "./nodes.ts";
import { wretchBuilder, wretchUnfollowed } from "./transports/wretch.ts";
import { argumentCallee, functionNamed } from "./record-callees.ts";
import { returnedArgument } from "./returned-argument.ts";
import { makesObjects } from "./called-functions.ts";
import { parameterPropertyReads } from "./parameter-properties.ts";
import { clientKey, clientStep, clientUse, handedOnWhy, insideClient, makesClient, ProjectClients, REQUEST_METHODS } from "./client-uses.ts";

/** `x = v`, and `x ??= v` / `x ||= v`, which give x the value v too. */
const ASSIGNS = new Set([SyntaxKind.EqualsToken, SyntaxKind.QuestionQuestionEqualsToken, SyntaxKind.BarBarEqualsToken]);

export class Follower implements FollowSteps {
  /** Expressions that take precedence over the followed value (`opts.baseUrl ?? BASE`). */
  overrides = new Set<string>();
  /** The expressions written beside the value that take precedence over it (`opts.baseUrl` of `opts.baseUrl ?? BASE`). */
  setters: Node[] = [];
  /** The base literal being followed: a call of a function returning strings that cannot be it is not its use. */
  literal: Node | undefined;
  /** Values this base gives as an option to a client or function (`new Client({ baseUrl })`). */
  passedOptions: { holder: Node; key: string; at: Node }[] = [];
  /** Tests of URLs against the base (`url.startsWith(BASE)`): not uses, but they miss calls kept on v1. */
  tests: Node[] = [];
  /** Why a use cannot be followed, where the node alone does not say it (shown in the base's mark). */
  readonly why = new Map<Node, string>();
  /** Request helpers whose every call was planned, and those called only from outside the run. */
  private readonly helpers: PlannedHelpers;
  /** Which calls of a function returning the value cannot give back this base. */
  readonly results: CallResults;
  /** Clients the project made from the base's option (their own methods' calls are not uses). */
  readonly projectClients = new ProjectClients();

  constructor(readonly a: Analysis) {
    this.results = new CallResults(a);
    this.helpers = new PlannedHelpers(a, (use, out) => this.follow(use, out, new Set<string>(), 0), () => this.literal);
  }

  accounted(node: Node): boolean {
    if (this.a.accounted.has(node)) return true;
    if (this.helpers.closes(node)) return true;
    // A part of a helper only code outside the run calls: the mark says so at the base.
    const outside = this.helpers.outsideName(node);
    if (outside) this.why.set(node, `${outside}, exported with no caller in the project: its callers outside it send v1 paths`);
    return false;
  }

  /**
   * `receiver.replace(/\/$/u, "")`, `String(receiver)`: a string method the evaluator applies, whose
   * result still holds the followed literal as a base it can flip (evaluate/string-methods.ts).
   */
  private keepsBase(call: Node, receiver: Node): boolean {
    if (tidiedReceiver(call) === receiver) return true;
    if (!stringMethodReceiver(call) || unwrapExpression(stringMethodReceiver(call)!) !== unwrapExpression(receiver)) return false;
    return this.holdsBase(call);
  }

  /** The call's value can be this base literal, still a bare base (a string method may have run on it). */
  private holdsBase(call: Node): boolean {
    return !!this.literal && optionsOf(this.a.evaluator.evaluate(call)).some((o) => o.kind === "string" && o.node === this.literal && isBaseOnly(o.text));
  }

  /** The uses of a helper that are not planned calls (planned-helpers.ts). */
  helperUses(fn: Node): Node[] {
    return this.helpers.uses(fn);
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
    // In a branch a test on the string never takes for this literal (`if (b.endsWith("/")) b = b.slice(0, -1)`).
    if (this.literal && untakenFor(value, this.literal, (n) => this.a.evaluator.evaluate(n))) return;
    // A type written with it (`keyof typeof DEFAULTS`) holds no value.
    if (value.getFirstAncestor((x) => Node.isTypeNode(x))) return;
    if (depth > 14) return void out.push(value);
    let outer = value;
    for (;;) {
      const p = outer.getParent();
      if (!p) break;
      if (isValueWrapper(p) || Node.isAwaitExpression(p)) outer = p;
      else if (Node.isBinaryExpression(p) && ["??", "||"].includes(p.getOperatorToken().getText())) {
        if (p.getRight() === outer) this.overrideBy(p.getLeft()), this.setters.push(p.getLeft());
        outer = p;
      }
      else if (Node.isConditionalExpression(p) && p.getCondition() !== outer) outer = p;
      else if (Node.isPropertyAccessExpression(p) && p.getParent() && this.keepsBase(p.getParent()!, outer)) outer = p.getParent()!;
      else if (Node.isCallExpression(p) && this.keepsBase(p, outer)) outer = p;
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
      return destructured(this, name, out, seen, depth, path);
    }
    if ((Node.isPropertyDeclaration(p) || Node.isParameterDeclaration(p)) && p.getInitializer() === outer) {
      if (Node.isPropertyDeclaration(p)) this.inheritedReads(p, p.getName(), out);
      return each(references(p.getNameNode()));
    }
    // `const { runpod } = require("./config")` (a reference to an exported property): the name it declares.
    if (Node.isBindingElement(p) && (p.getPropertyNameNode() ?? p.getNameNode()) === outer && Node.isIdentifier(p.getNameNode()) && p.getNameNode() !== outer) return each(references(p.getNameNode()));
    if (Node.isBindingElement(p) && !p.getPropertyNameNode() && p.getNameNode() === outer && Node.isIdentifier(outer)) return each(references(outer));
    // A destructured element's default (`{ baseUrl = BASE } = {}`): the name it declares.
    if (Node.isBindingElement(p) && p.getInitializer() === outer && Node.isIdentifier(p.getNameNode())) return each(references(p.getNameNode()));
    if (Node.isBinaryExpression(p) && ASSIGNS.has(p.getOperatorToken().getKind()) && p.getRight() === outer) {
      const left = p.getLeft();
      const nameNode = Node.isPropertyAccessExpression(left) ? left.getNameNode() : Node.isIdentifier(left) ? left : undefined;
      if (Node.isPropertyAccessExpression(left) && left.getExpression().getKind() === SyntaxKind.ThisKeyword) this.inheritedReads(p, left.getName(), out);
      const text = left.getText().replace(/\s/g, "");
      // `exports.base = …`: the compiler binds CommonJS exports in JavaScript, so its importers' reads are references.
      // `module.exports = value`: the importers' uses of the module's value.
      if (/^(module\.)?exports(\.|$)/.test(text)) {
        const refs = !nameNode ? [] : /^(module\.)?exports\.\w+$/.test(text) ? references(nameNode) : importerUses(nameNode);
        return refs.length ? each(refs) : void out.push(outer);
      }
      return nameNode ? each(references(nameNode)) : void out.push(outer);
    }
    // A wretch builder's base (`wretch(BASE).auth(…)`): its uses are the chains built on the builder.
    const builder = Node.isCallExpression(p) && p.getArguments()[0] === outer ? wretchBuilder(this.a, p) : undefined;
    if (builder) return this.follow(builder, out, seen, depth + 1);
    // A schema entry's default (`z.string().default(BASE)`): the entry stands for the value.
    if (Node.isCallExpression(p) && p.getArguments().includes(outer as any) && Node.isPropertyAccessExpression(p.getExpression()) && (p.getExpression() as any).getName() === "default") {
      return this.follow(chainTop(p), out, seen, depth + 1, path);
    }
    // A configuration read's default (`config.get("KEY", BASE)`): the read stands for the value.
    // (A project function's own `get(key, fallback)` is not: below, only where it hands the argument back.)
    if (Node.isCallExpression(p) && configDefault(p)?.fallback === outer && !functionNamed(this.a, p.getExpression())) return this.follow(p, out, seen, depth + 1, path);
    // A project function handing it back as its value (`optional("KEY", BASE)`): the call holds it, after what takes precedence there.
    const before = Node.isCallExpression(p) ? returnedArgument(this.a, p, outer) : undefined;
    // Changed by a string method on the way (`normalize(base)`): only while the call still holds the bare base.
    if (before && (!before.changed || this.holdsBase(p))) return before.forEach((b) => this.overrideBy(b)), this.follow(p, out, seen, depth + 1, path);
    if ((Node.isPropertyAssignment(p) && p.getInitializer() === outer) || (Node.isShorthandPropertyAssignment(p) && p.getNameNode() === outer)) {
      // The object literal, through `as const` / `satisfies` / parentheses, to what holds it.
      let obj: Node | undefined = p.getParent();
      while (obj && obj.getParent() && (isValueWrapper(obj.getParent()!) || Node.isAwaitExpression(obj.getParent()!))) obj = obj.getParent();
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
        const intoProject = intoCallee(this, holder, obj!, [...path, name], out, seen, depth);
        // `super({ baseURL })`: the parent's fields are the instance's; their reads were followed there.
        if (intoProject && holder.getExpression().getKind() === SyntaxKind.SuperKeyword) return;
        if (!intoProject) {
          // A client handed to outside code (`createApi({ baseQuery: fetchBaseQuery(…) })`): not followed.
          if (insideClient(path)) {
            this.why.set(p, handedOnWhy(holder));
            return void out.push(p);
          }
          // The base given to outside code under a base-like key makes a client: its uses must be planned calls.
          if (makesClient(holder, name, outer, path)) return this.follow(holder, out, seen, depth + 1, [clientStep(name)]);
        }
        // An object made from options (a schema, a config factory) still exposes them by name.
        return this.follow(holder, out, seen, depth + 1, [...path, name]);
      }
      // `cached = { …, apiUrl }` (a loader filling a module variable): that variable's reads, along the path.
      const assigned = holder && Node.isBinaryExpression(holder) && holder.getRight() === obj && ASSIGNS.has(holder.getOperatorToken().getKind()) && Node.isIdentifier(holder.getLeft());
      if (obj && (assigned || Node.isReturnStatement(holder!) || (holder && Node.isArrowFunction(holder)) || (holder && Node.isPropertyAssignment(holder)))) return this.follow(obj, out, seen, depth + 1, [...path, name]);
      // `export default { providers: { … } }`: the importers' reads, along the path.
      if (obj && holder && Node.isExportAssignment(holder) && !holder.isExportEquals()) return this.follow(obj, out, seen, depth + 1, [...path, name]);
      // `module.exports = { baseUrl }`: its importers' reads (`config.baseUrl`, `const { runpod } = require(…)`).
      if (holder && Node.isBinaryExpression(holder) && /^(module\.)?exports$/.test(holder.getLeft().getText().replace(/\s/g, ""))) {
        const refs = references(p.getNameNode());
        if (refs.length) return each(refs);
      }
      return void out.push(outer);
    }
    // An object spread into another (`{ ...state, token }`): the copy carries the same keys on.
    if (Node.isSpreadAssignment(p) && path.length) {
      const copy = p.getParent();
      return copy && Node.isObjectLiteralExpression(copy) ? this.follow(copy, out, seen, depth + 1, path) : void out.push(outer);
    }
    if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) {
      const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : p;
      return callers(this, fn, out, seen, depth, path);
    }
    // `export default defineNuxtConfig({ … })`: its importers' default imports (`import config from "./nuxt.config"`).
    if (Node.isExportAssignment(p) && !p.isExportEquals()) {
      const refs = defaultImportUses(p.getSourceFile(), this.a.resolve);
      return refs.length ? each(refs) : void out.push(outer);
    }
    if (Node.isExportAssignment(p)) return void out.push(outer);
    // A use that only tests the value (tested-uses.ts); a URL tested against it is checked with the calls kept on v1.
    const tested = testedUse(this.a, outer, path);
    if (tested === "none") return;
    if (tested) return void this.tests.push(tested.urlTest);
    // A method of a class the base was followed into, called on an instance of it (`this.api.list()`).
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer && !path.length) {
      const call = p.getParent();
      const method = call && Node.isCallExpression(call) && call.getExpression() === p ? functionNamed(this.a, p) : undefined;
      if (method && this.projectClients.declares(method)) return;
    }
    // A method handed to a class of the project as its constructor's parameter property
    // (`new Pods(this.request.bind(this))`): its uses are that class's `this.request(…)` calls.
    if (!path.length && this.injected(outer, out, seen, depth)) return;
    // A base given positionally to a class of the project (`new Client(key, BASE)`) is followed into
    // its constructor the same way (its uses are the class's own members).
    if (Node.isNewExpression(p) && (p.getArguments() as Node[]).includes(outer) && intoCallee(this, p, outer, path, out, seen, depth)) return this.follow(p, out, seen, depth + 1, path);
    if (Node.isCallExpression(p) && p.getExpression().getKind() === SyntaxKind.SuperKeyword && (p.getArguments() as Node[]).includes(outer) && intoCallee(this, p, outer, path, out, seen, depth)) return;
    // Options carrying the base given to a planned request (`$fetch(path, rpOpts())`, `{ ...rpOpts() }`): that request is the use.
    if (path.length === 1 && Node.isCallExpression(p) && p.getArguments().includes(outer as any) && this.accounted(p.getExpression())) return;
    // A bare base handed to a factory of the project (`const http = makeClient(BASE)`): followed inside,
    // where each use of the parameter must lead to a planned call, as for `new Client(BASE)` above.
    // (Only a factory, whose every return is an object: a function returning data is not followed so.)
    if (!path.length && Node.isCallExpression(p) && (p.getArguments() as Node[]).includes(outer) && makesObjects(this.a, p) && intoCallee(this, p, outer, path, out, seen, depth)) return this.follow(p, out, seen, depth + 1, path);
    // An object carrying the base (a client the project made) handed to a function of the project:
    // followed where its parameter is used. A bare base string handed on is not: the function
    // may build URLs from it that no planned site accounts for.
    if (path.length && Node.isCallExpression(p) && p.getArguments().includes(outer as any)) {
      const callee = argumentCallee(this.a, outer);
      const name = callee && (callee.param as any).getNameNode();
      if (callee && name && Node.isIdentifier(name)) return each(referencesOf(callee.fn, name));
    }
    const chainWhy = wretchUnfollowed(this.a, outer);
    if (chainWhy) this.why.set(outer, chainWhy);
    out.push(outer);
  }

  /** A field an outside base class's inherited methods may read (inherited-field-reads.ts): its unplanned reads are uses. */
  private inheritedReads(at: Node, name: string, out: Node[]): void {
    for (const use of inheritedFieldReads(this.a, at, name, (n) => this.accounted(n))) this.why.set(use.node, use.why), out.push(use.node);
  }

  /** What takes precedence over the value (`x ?? value`): an environment read by its variable's name (`process.env[key]` in `get(key)`), else its text. */
  overrideBy(left: Node): void {
    for (const o of overrideSources(this.a.evaluator, left)) this.overrides.add(o);
  }

  /** `new Client(BASE)` into a constructor parameter property: its `this.<name>` reads. True when handled. */
  private injected(outer: Node, out: Node[], seen: Set<string>, depth: number): boolean {
    const reads = parameterPropertyReads(this.a, outer);
    reads?.forEach((r) => this.follow(r, out, seen, depth + 1));
    return !!reads;
  }

  /** With a path: `x.key` reads the value, `x.method(…)` of a made object keeps exposing it. True when handled. */
  private alongPath(outer: Node, p: Node, out: Node[], seen: Set<string>, depth: number, path: string[]): boolean {
    const want = path[path.length - 1]!;
    const client = clientKey(want);
    if (client !== undefined) {
      return clientUse(outer, p, client, {
        accounted: (n) => this.accounted(n),
        readBack: (n) => this.follow(n, out, seen, depth + 1),
        unfollowed: (n, why) => {
          if (why) this.why.set(n, why);
          out.push(n);
        },
      });
    }
    if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
      if (p.getName() === want) return this.follow(p, out, seen, depth + 1, path.slice(0, -1)), true;
      const call = p.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === p) {
        // A method of a class or factory of the project the option was followed into: its uses are inside.
        const method = functionNamed(this.a, p);
        if (method && (this.projectClients.holds(outer) || this.projectClients.declares(method))) return true;
        // A request method of an object made with the base (`client.get(…)`) is a use: only a
        // planned site accounts for it. Other methods (`Schema.parse(env)`) keep exposing the option.
        // (A planned site's own call, `http.get(…)` over a verb method of the made object, is accounted for.)
        if (REQUEST_METHODS.test(p.getName())) return this.accounted(p) || out.push(call), true;
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
          this.results.noteKeyedRead(p, want);
          this.follow(p, out, seen, depth + 1, path.slice(0, -1));
        }
        return true;
      }
      // A key known only at run time may be this one: the read is the use that cannot be followed.
      return out.push(p), true;
    }
    return false;
  }
}
