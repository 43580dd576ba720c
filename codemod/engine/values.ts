// What an expression stands for, without running it: a name's initializer (in this file or an
// imported one), a const object's property, a class member's assigned values, and above all
// which v1 base a URL part carries and which literal that base comes from.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { computing, readCached } from "./memo-cuts.ts";
import { bindAcross, soleOverride } from "./symbols.ts";
import { isRewritten, returnedExpressions, type Binding } from "./scope.ts";

// (Moved to scope.ts, where descriptors.ts reads it without a cycle; many passes import it from here.)
export { returnedExpressions };
import { resolveParts, unwrapExpression, type JoinMode, type UrlContext } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { baseIn } from "./evaluate/bases.ts";
import type { Frame } from "./evaluate/value.ts";
import { functionNamed } from "./record-callees.ts";
import { fieldValue } from "./field-value.ts";
import { mayBeEmpty } from "./array-joins.ts";
import { descriptorMember } from "./descriptors.ts";

export interface External {
  value: string;
  node: Node | null;
  join: JoinMode;
}

export function bind(a: Analysis, id: Node): Binding | undefined {
  return bindAcross(id, a.resolve);
}

export function urlContext(a: Analysis, args = new Map<Node, Node>(), inside: Node[] = [], absent = new Set<Node>()): UrlContext {
  const param = (node: Node) => {
    const n = unwrapExpression(node);
    const b = (args.size || absent.size) && Node.isIdentifier(n) ? bind(a, n) : undefined;
    return b?.kind === "param" && b.path.length === 0 ? b.decl : undefined;
  };
  return {
    // Inside an inlined builder, with the call's arguments bound (`DEFAULTS[key]` for this call's key).
    baseOf: (node) => baseOf(a, node, args.size ? frameOf(args) : undefined),
    valueOf: (node) => valueOf(a, node),
    argumentFor: (node) => {
      const decl = param(node);
      return decl && args.get(decl);
    },
    mayBeEmpty: (node) => mayBeEmpty(node, (n) => a.evaluator.evaluate(n)),
    absent: (node) => {
      const decl = param(node);
      return !!decl && absent.has(decl);
    },
    member: (node) => {
      if (inside.length >= 3) return undefined;
      const m = descriptorMember(a, node);
      const inlined = m && urlContext(a, args, inside, absent).inline!(m.call);
      return m && inlined ? { expr: m.value, ctx: inlined.ctx } : undefined;
    },
    inline: (call) => {
      if (!Node.isCallExpression(call) || inside.length >= 3) return undefined;
      const fn = functionNamed(a, call.getExpression()) ?? soleOverride(call.getExpression());
      const returns = fn && !inside.includes(fn) ? returnedExpressions(fn) : [];
      if (!fn || !returns.length) return undefined;
      const inner = new Map(args);
      const none = new Set(absent);
      const given = call.getArguments();
      const spread = given.some((g) => Node.isSpreadElement(g));
      (fn as any).getParameters().forEach((p: Node, i: number) => {
        if (!Node.isParameterDeclaration(p) || p.getDotDotDotToken() || !Node.isIdentifier(p.getNameNode())) return;
        if (given[i]) inner.set(p, given[i]!);
        // Given nothing at this call: the parameter's default, or undefined.
        else if (!spread && p.getInitializer()) inner.set(p, p.getInitializer()!);
        else if (!spread) none.add(p);
      });
      return { expr: returns.length === 1 ? returns[0] : undefined, returns, ctx: urlContext(a, inner, [...inside, fn], none) };
    },
  };
}

/** The literal a base part comes from (`"…/v1"`, the right of `env ?? "…/v1"`, a followed name's literal). */
export function sourceLiteral(a: Analysis, node: Node): Node | undefined {
  const n = unwrapExpression(node);
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n;
  if (a.baseSource.has(n)) return a.baseSource.get(n);
  if (Node.isBinaryExpression(n) && [SyntaxKind.QuestionQuestionToken, SyntaxKind.BarBarToken].includes(n.getOperatorToken().getKind())) return sourceLiteral(a, n.getRight());
  // A part whose base was found through a builder it called (`get("RUNPOD_API_URL")`): asked by value, with the call's arguments.
  if (Node.isCallExpression(n) && baseOf(a, n) !== undefined) return a.baseSource.get(n);
  return undefined;
}

/** Every literal a base part can come from (several callers may each give a v1 base): all must flip. */
export function sourceLiterals(a: Analysis, node: Node): Node[] {
  const first = sourceLiteral(a, node);
  if (!first) return [];
  const n = unwrapExpression(node);
  return [first, ...(a.moreBaseSources.get(n) ?? []).filter((x) => x !== first)];
}

/** The evaluator's frame for an inlined call: each parameter bound to its argument (an argument naming an outer parameter reads the same frame). */
function frameOf(args: Map<Node, Node>): Frame {
  const frame: Frame = { args: new Map(), parent: undefined };
  for (const [param, arg] of args) frame.args.set(param, { arg, frame });
  return frame;
}

/** The v1 base an identifier or member access stands for (in a call's frame: that call's arguments). */
export function baseOf(a: Analysis, node: Node, frame?: Frame): string | undefined {
  const n = unwrapExpression(node);
  if (frame) return newBaseOf(a, n, frame);
  if (a.baseCache.has(n)) {
    readCached(a, "base", n);
    return a.baseCache.get(n) ?? undefined;
  }
  return computing(a, "base", n, () => newBaseOf(a, n, undefined));
}

function newBaseOf(a: Analysis, n: Node, frame: Frame | undefined): string | undefined {
  if (!frame) a.baseCache.set(n, null);
  let found: { value: string; source?: Node; sources?: Node[] } | undefined;
  if (Node.isIdentifier(n) || Node.isPropertyAccessExpression(n) || Node.isElementAccessExpression(n) || Node.isCallExpression(n) || Node.isBinaryExpression(n) || Node.isConditionalExpression(n)) {
    // By value, wherever it flows: variables, imports, config returns, class members, constructor options, schema defaults.
    const b = baseIn(a.evaluator.evaluate(n, frame));
    if (b) {
      found = { value: b.value, source: b.source, sources: b.sources };
      if (b.overrides.length) a.overrides.set(b.source, new Set([...(a.overrides.get(b.source) ?? []), ...b.overrides]));
    }
  }
  if (found?.source) a.baseSource.set(n, found.source);
  if (found?.sources && found.sources.length > 1) a.moreBaseSources.set(n, found.sources.slice(1));
  if (!frame) a.baseCache.set(n, found?.value ?? null);
  return found?.value;
}

export function baseValueOf(a: Analysis, expr: Node): string | undefined {
  const parts = resolveParts(expr, urlContext(a));
  return parts.length === 1 && parts[0]!.kind === "base" ? parts[0]!.value : undefined;
}

/** What a name stands for: a variable's initializer, or a property of a const object literal. */
export function valueOf(a: Analysis, node: Node): Node | undefined {
  const n = unwrapExpression(node);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    // A `let` given another value later does not stand for its initializer.
    if (b?.kind === "var" && b.init && b.path.length === 0 && !isRewritten(b.decl)) return b.init;
    return undefined;
  }
  if (Node.isPropertyAccessExpression(n)) {
    // `this.base` of a field written once (field-value.ts).
    const field = fieldValue(n);
    if (field) return field;
    const obj = valueOf(a, n.getExpression());
    const target = obj && unwrapExpression(obj);
    if (target && Node.isObjectLiteralExpression(target)) {
      const prop = target.getProperty(n.getName());
      if (prop && Node.isPropertyAssignment(prop)) return prop.getInitializer();
    }
  }
  return undefined;
}

export function objectLiteral(a: Analysis, node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  const n = unwrapExpression(node);
  if (Node.isObjectLiteralExpression(n)) return n;
  if (Node.isIdentifier(n)) {
    const v = valueOf(a, n);
    const u = v && unwrapExpression(v);
    if (u && Node.isObjectLiteralExpression(u)) return u;
  }
  return undefined;
}

export function prop(obj: Node | undefined, name: string): Node | undefined {
  if (!obj || !Node.isObjectLiteralExpression(obj)) return undefined;
  const p = obj.getProperty(name);
  if (p && Node.isPropertyAssignment(p)) return p.getInitializer();
  if (p && Node.isShorthandPropertyAssignment(p)) return p.getNameNode();
  return undefined;
}

/** The object literal options are written as, here or where the evaluator finds them (a helper's return: `rpOpts()`); read it, never edit it. */
export function seenOptions(a: Analysis, node: Node | undefined): Node | undefined {
  const here = objectLiteral(a, node);
  if (here || !node) return here;
  const v = a.evaluator.evaluate(node);
  const lit = v.kind === "object" ? unwrapExpression(v.node) : undefined;
  return lit && Node.isObjectLiteralExpression(lit) ? lit : undefined;
}

/**
 * A key of an options object, looking through its spreads (`{ ...runpodOpts(), method: "DELETE" }`)
 * into the object literal a spread holds (a helper's return, a constant), the last writer winning:
 * the node written for the key, or undefined when no part of the object names it. `unknown` is set
 * when a spread holds something the evaluator cannot see into (it may carry the key).
 */
export function optionProp(a: Analysis, obj: Node | undefined, name: string, seen = new Set<Node>()): { node?: Node; unknown?: boolean } {
  if (!obj || !Node.isObjectLiteralExpression(obj) || seen.has(obj)) return obj && seen.has(obj) ? { unknown: true } : {};
  seen.add(obj);
  let unknown = false;
  for (const p of [...obj.getProperties()].reverse()) {
    if (Node.isSpreadAssignment(p)) {
      const v = a.evaluator.evaluate(p.getExpression());
      const lit = v.kind === "object" ? unwrapExpression(v.node) : undefined;
      if (!lit || !Node.isObjectLiteralExpression(lit)) {
        unknown = true;
        continue;
      }
      const inner = optionProp(a, lit, name, seen);
      if (inner.node) return { node: inner.node, unknown };
      unknown ||= !!inner.unknown;
      continue;
    }
    const own = (p as any).getName?.() === name ? prop(obj, name) : undefined;
    if (own) return { node: own, unknown };
  }
  return { unknown };
}

/** A base supplied outside the URL (axios `baseURL`, got/ky `prefixUrl`, openapi-fetch `baseUrl`). */
export function external(a: Analysis, obj: Node | undefined, keys: string[], join: JoinMode): External | undefined {
  for (const key of keys) {
    const v = prop(obj, key);
    if (!v) continue;
    const parts = resolveParts(v, urlContext(a));
    if (parts.length === 1 && parts[0]!.kind === "base") return { value: parts[0]!.value, node: v, join };
  }
  return undefined;
}
