// URL expressions as sequences of parts (literal text, holes, v1 base anchors) and where the v1
// path sits in them. Spreading a rewritten path back over the user's literals is url-rewrite.ts.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { resolveIdentifier, writesOf } from "./scope.ts";
import { V1_HOST, V2_BASE, V2_ORIGIN } from "../../mappings/bases.ts";
import { urlObjectMade, urlQueryWrites } from "./url-object.ts";
import { decideCondition, slashSafeJoin } from "./url-conditions.ts";
import { joinedParts } from "./array-joins.ts";

// The literal editors live in literal-edits.ts; many passes import them from here.
export { escapeFor, literalEdit, quoteString } from "./literal-edits.ts";

const HOST_PATTERN = V1_HOST.replace(/\./g, "\\.");
/** A v1 base on its own: origin, optionally `/v1`, optionally a trailing slash. */
export const BASE_ONLY = new RegExp(`^(?:https?:)?//${HOST_PATTERN}(/v1)?/?$`);
const ORIGIN_AT_START = new RegExp(`^(?:https?:)?//${HOST_PATTERN}(?=[/?#]|$)`);
const BASE_AT_START = new RegExp(`^(?:https?:)?//${HOST_PATTERN}(/v1)?`);
export const HOLE = "\u0000";

export type Part =
  /** `stripped`: leading text the code removes from the literal before use (`path.replace(/^\/+/, "")`); edits keep it. */
  /** `fixed`: a separator shared by several gaps (`[…].join("/")`): never edited. */
  | { kind: "text"; text: string; node: Node; stripped?: string; fixed?: boolean }
  /** `ctx`: where the hole sits inside an inlined URL builder, the call's arguments for its parameters. */
  | { kind: "hole"; node: Node; ctx?: UrlContext }
  /** `join: "url"`: the path is joined to it by `new URL(path, base)` (an absolute path drops the base's /v1). */
  | { kind: "base"; value: string; node: Node; join?: JoinMode };

export function isBaseOnly(value: string): boolean {
  return BASE_ONLY.test(value);
}

/** The v2 counterpart of a v1 base: `https://rest.runpod.io/v1/` → `https://api.runpod.io/v2/`. */
export function v2BaseFor(v1Base: string): string {
  return v1Base.replace(BASE_AT_START, (_m, v1?: string) => (v1 ? V2_BASE : V2_ORIGIN));
}

/** The expressions that only wrap another: `(x)`, `x as T`, `x!`, `x satisfies T`, `<T>x`. */
const WRAPPERS = new Set([SyntaxKind.ParenthesizedExpression, SyntaxKind.AsExpression, SyntaxKind.NonNullExpression, SyntaxKind.SatisfiesExpression, SyntaxKind.TypeAssertionExpression]);

/** Parentheses, `as`, `!`, `satisfies`, `<T>x`: the value inside passes through unchanged. */
export function isValueWrapper(node: Node): node is Node & { getExpression(): Node } {
  return WRAPPERS.has(node.getKind());
}

export function unwrapExpression(node: Node): Node {
  // One read of the kind per node (five `Node.is…` tests read it five times: on a large project this
  // function is called millions of times and ts-morph's getter was seconds of the run).
  let n = node;
  while (isValueWrapper(n)) n = n.getExpression();
  return n;
}

/** Through the value wrappers and `await` too: what a promise-returning call's awaited result holds. */
export function unwrapAwaited(node: Node): Node {
  let n = node;
  while (isValueWrapper(n) || Node.isAwaitExpression(n)) n = n.getExpression();
  return n;
}

export function literalText(node: Node): string | undefined {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  return undefined;
}

export interface UrlContext {
  /** The v1 base a (non-literal) expression stands for: local or imported constant, config property. */
  baseOf(node: Node): string | undefined;
  /** The expression a local name stands for (const/let initializer), to follow `const url = …`. */
  valueOf(node: Node): Node | undefined;
  /**
   * A call of a project function that only returns an expression (`this.url(route)`): that
   * expression, and the context in which its parameters stand for the call's arguments.
   */
  inline?(call: Node): { expr?: Node; returns: Node[]; ctx: UrlContext } | undefined;
  /** Inside an inlined builder, the call's argument a parameter stands for (its default when the call gives none). */
  argumentFor?(node: Node): Node | undefined;
  /** Inside an inlined builder, whether a parameter is given nothing at the call (and has no default): undefined. */
  absent?(node: Node): boolean;
  /** Whether an array element may be empty or absent at run time (`[base, path].filter(Boolean)`). */
  mayBeEmpty?(node: Node): boolean;
  /** `d.url` of a request descriptor a project function built (descriptors.ts): the key's expression there, with the builder's parameters bound. */
  member?(node: Node): { expr: Node; ctx: UrlContext } | undefined;
}

const ENVISH = /^(process\.env|import\.meta\.env|Deno\.env)/;

/** Flattens a string-valued expression into parts. */
export function resolveParts(input: Node, ctx: UrlContext, depth = 0): Part[] {
  const node = unwrapExpression(input);
  if (depth > 8) return [{ kind: "hole", node }];
  const lit = literalText(node);
  if (lit !== undefined) return isBaseOnly(lit) ? [{ kind: "base", value: lit, node }] : [{ kind: "text", text: lit, node }];
  if (Node.isTemplateExpression(node)) {
    const head = node.getHead();
    const parts: Part[] = [{ kind: "text", text: head.getLiteralText(), node: head }];
    for (const span of node.getTemplateSpans()) {
      parts.push(...resolveParts(span.getExpression(), ctx, depth + 1));
      const l = span.getLiteral();
      parts.push({ kind: "text", text: l.getLiteralText(), node: l });
    }
    return mergeBaseText(parts);
  }
  if (Node.isBinaryExpression(node)) {
    const op = node.getOperatorToken().getKind();
    if (op === SyntaxKind.PlusToken) return mergeBaseText([...resolveParts(node.getLeft(), ctx, depth + 1), ...resolveParts(node.getRight(), ctx, depth + 1)]);
    if (op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) {
      // By value first: the evaluator also learns what overrides the base here (`process.env[key]` for this call's key).
      const base = ctx.baseOf(node);
      if (base !== undefined) return [{ kind: "base", value: base, node }];
      const right = resolveParts(node.getRight(), ctx, depth + 1);
      if (right.length === 1 && right[0]!.kind === "base") return [{ kind: "base", value: right[0]!.value, node }];
      return [{ kind: "hole", node }];
    }
  }
  if (Node.isConditionalExpression(node)) {
    // A slash-safe join is the path; a test the known path decides takes its branch (url-conditions.ts).
    const path = slashSafeJoin(node);
    if (path) return resolveParts(path, ctx, depth + 1);
    const decided = decideCondition(node.getCondition(), ctx, (n) => resolveParts(n, ctx, depth + 1));
    if (decided !== undefined) return resolveParts(decided ? node.getWhenTrue() : node.getWhenFalse(), ctx, depth + 1);
    // `base.endsWith("/") ? base.slice(0, -1) : base`: a base by its value (the evaluator takes each candidate's branch).
    const base = ctx.baseOf(node);
    if (base !== undefined) return [{ kind: "base", value: base, node }];
  }
  if (Node.isNewExpression(node) && node.getExpression().getText() === "URL") {
    // `new URL(path, base)` inside a URL builder: a relative path on a base ending in `/` is appended
    // to it (an absolute one would drop the base's /v1: not followed).
    const [rel, base] = node.getArguments();
    if (rel && !base) return resolveParts(rel, ctx, depth + 1);
    const b = base ? resolveParts(base, ctx, depth + 1) : [];
    const r = rel ? resolveParts(rel, ctx, depth + 1) : [];
    if (b.length === 1 && b[0]!.kind === "base" && b[0]!.value.endsWith("/") && r[0]?.kind === "text" && r[0].text && !/^(\/|[a-z][a-z0-9+.-]*:)/i.test(r[0].text)) return [b[0]!, ...r];
    // A path not known here (a request helper's parameter): joined as `new URL` joins, so each
    // caller's path is read with that join (locate marks an absolute one dropping /v1).
    if (b.length === 1 && b[0]!.kind === "base" && b[0]!.value.endsWith("/") && r[0]?.kind === "hole") return [{ ...b[0]!, join: "url" }, ...r];
    return [{ kind: "hole", node }];
  }
  // `[BASE, "pods", id].join("/")`: the elements with the separator between them (array-joins.ts).
  const joined = joinedParts(node, (n) => resolveParts(n, ctx, depth + 1), ctx.mayBeEmpty);
  if (joined) return mergeBaseText(joined);
  if (Node.isCallExpression(node)) {
    const callee = node.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "toString" && node.getArguments().length === 0) return resolveParts(callee.getExpression(), ctx, depth + 1);
    if (Node.isIdentifier(callee) && callee.getText() === "String" && node.getArguments().length === 1) return resolveParts(node.getArguments()[0]!, ctx, depth + 1);
    // `path.replace(/^\/+/, "")`: the path without its leading slashes (to join it to a base ending in `/`).
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "replace" && node.getArguments().map((x) => x.getText().replace(/\s/g, "")).join(",").match(/^\/\^\\\/\+?\/,(""|'')$/)) {
      const inner = resolveParts(callee.getExpression(), ctx, depth + 1);
      const first = inner[0];
      if (first?.kind === "text" && first.text.startsWith("/") && !first.stripped) return [{ ...first, text: first.text.replace(/^\/+/, ""), stripped: /^\/+/.exec(first.text)![0] }, ...inner.slice(1)];
      if (first?.kind === "text" && first.text) return inner;
    }
    // Read through the project's URL builders when what they return carries a base.
    const inlined = ctx.inline?.(node);
    if (inlined?.expr) {
      const parts = resolveParts(inlined.expr, inlined.ctx, depth + 1);
      if (parts.some((p) => p.kind === "base")) return parts;
    }
    const withQuery = inlined && pathThenQuery(inlined.returns, inlined.ctx, depth);
    if (withQuery) return [...withQuery, { kind: "hole", node, ctx }];
  }
  const argument = ctx.argumentFor?.(node);
  if (argument) return resolveParts(argument, ctx, depth + 1);
  if (Node.isIdentifier(node)) {
    // `let path = "/pods"; if (q) path += \`?${q}\``: the first value, then what may be appended (holes).
    const b = resolveIdentifier(node);
    const w = b?.kind === "var" && b.init && !b.path.length ? writesOf(b.decl) : undefined;
    if (b?.kind === "var" && w && !w.other && !w.assigned.length && w.appended.length) return [...resolveParts(b.init!, ctx, depth + 1), ...w.appended.map((n): Part => ({ kind: "hole", node: n }))];
  }
  if (Node.isIdentifier(node)) {
    // `const url = new URL(…)` whose query is written later (`url.searchParams.set(…)`, `url.search = …`): that query is a hole.
    const b = resolveIdentifier(node);
    if (b?.kind === "var" && !b.path.length && urlQueryWrites(b.decl)) return [...resolveParts(urlObjectMade(b.decl)!, ctx, depth + 1), { kind: "hole", node, ctx }];
  }
  if (Node.isIdentifier(node) || Node.isPropertyAccessExpression(node)) {
    const base = ctx.baseOf(node);
    if (base !== undefined) return [{ kind: "base", value: base, node }];
    const value = ctx.valueOf(node);
    if (value) {
      const parts = resolveParts(value, ctx, depth + 1);
      // A followed name is a hole unless it carries v1 text: keeps `${id}` a hole.
      if (parts.some((p) => p.kind === "base" || (p.kind === "text" && p.text.includes(V1_HOST)))) return parts;
      if (parts.every((p) => p.kind === "text") && Node.isIdentifier(node)) return parts;
      // A name holding a path template (`const path = \`/pods/${id}/start\``): the path, as written there.
      if (Node.isIdentifier(node) && parts[0]?.kind === "text" && parts[0].text.startsWith("/") && Node.isTemplateExpression(unwrapExpression(value)) && isConstInitializer(value)) return parts;
    }
  }
  if (Node.isPropertyAccessExpression(node)) {
    // `d.url` of a descriptor `podAction(id, "stop")` built: the URL as written in the builder.
    const member = ctx.member?.(node);
    if (member) {
      const parts = resolveParts(member.expr, member.ctx, depth + 1);
      if (parts.some((p) => p.kind === "base" || (p.kind === "text" && p.text.includes(V1_HOST)))) return parts;
      // A descriptor's path (`API + op.path`, `{ path: \`/pods/${id}/start\` }`): the path, as written in its builder.
      if (parts[0]?.kind === "text" && parts[0].text.startsWith("/")) return parts;
    }
  }
  if (Node.isCallExpression(node) || Node.isElementAccessExpression(node)) {
    // `${getBaseUrl()}/pods`, `${cfg["baseUrl"]}/pods`: a base by its value.
    const base = ctx.baseOf(node);
    if (base !== undefined) return [{ kind: "base", value: base, node }];
  }
  return [{ kind: "hole", node, ctx }];
}

/**
 * A query helper (`q(path, query)` returning `path` or `${path}?${new URLSearchParams(query)}`):
 * every value it returns is the same path, some with a query after it. The path's parts, so the
 * call reads as the path followed by a hole for its query; undefined for anything else.
 */
function pathThenQuery(returns: Node[], ctx: UrlContext, depth: number): Part[] | undefined {
  const branches = (n: Node): Node[] => {
    const u = unwrapExpression(n);
    return Node.isConditionalExpression(u) ? [...branches(u.getWhenTrue()), ...branches(u.getWhenFalse())] : [u];
  };
  const all = returns.flatMap(branches).map((r) => resolveParts(r, ctx, depth + 1));
  const path = all.reduce<Part[] | undefined>((short, p) => (!short || p.length < short.length ? p : short), undefined);
  if (!path?.length || path.some((p) => p.kind === "base") || all.every((p) => p.length === path.length)) return undefined;
  const same = (x: Part, y: Part) => x.kind === y.kind && (x.kind === "text" ? x.text === (y as typeof x).text : x.node === y.node);
  for (const p of all) {
    if (!path.every((x, i) => same(x, p[i]!))) return undefined;
    const next = p[path.length];
    if (next && !(next.kind === "text" && next.text.startsWith("?"))) return undefined;
  }
  return path;
}

/** The initializer of a `const` (a `let` may be given another path later). */
function isConstInitializer(value: Node): boolean {
  const decl = value.getParent();
  const list = decl && Node.isVariableDeclaration(decl) ? decl.getParent() : undefined;
  return !!list && Node.isVariableDeclarationList(list) && list.getDeclarationKind() === "const";
}

/** `"https://rest.runpod.io" + "/v1"` style: keep as is; only a leading lone base part is an anchor. */
function mergeBaseText(parts: Part[]): Part[] {
  return parts.filter((p) => !(p.kind === "text" && p.text === "" && parts.length > 1));
}

export type JoinMode = "concat" | "slash" | "url";

export interface LocatedUrl {
  /** Parts after the anchor (or all parts when the base is inline text). */
  parts: Part[];
  anchor: { value: string; node: Node | null } | null;
  /** v1 base text inline at the start of the first text part (e.g. `https://rest.runpod.io/v1`). */
  inlineBase: string;
  /** Text between the base and the path (`/v1` when the base is origin-only), as written. */
  versionPrefix: string;
  /** v1 path with `\0` for holes, always starting with `/` (or "" for the base alone). */
  path: string;
  /** Whether the written path started with `/` (ky/got prefixUrl paths do not). */
  leadingSlash: boolean;
  /** Query / fragment remainder (may contain holes). */
  query: string;
  /** The path exactly as written (before a `/` is added for matching). */
  pathText: string;
  /** Set when the URL is on the v1 host but the path is not under /v1 (or a URL join drops /v1). */
  problem?: string;
}

/**
 * Finds the v1 base and path in parts. `external` is a base supplied outside the parts
 * (axios `baseURL`, got/ky `prefixUrl`, the second argument of `new URL`).
 */
export function locate(parts: Part[], external?: { value: string; node: Node | null; join: JoinMode }): LocatedUrl | null {
  let anchor: LocatedUrl["anchor"] = null;
  let rest = parts;
  let join: JoinMode = "concat";
  if (external) {
    anchor = { value: external.value, node: external.node };
    join = external.join;
  } else if (parts[0]?.kind === "base") {
    anchor = { value: parts[0].value, node: parts[0].node };
    join = parts[0].join ?? "concat";
    rest = parts.slice(1);
  }
  if (rest.some((p) => p.kind === "base")) return null;
  const s = rest.map((p) => (p.kind === "text" ? p.text : HOLE)).join("");
  let inlineBase = "";
  let baseHasV1: boolean;
  let after = s;
  if (anchor) {
    baseHasV1 = /\/v1\/?$/.test(anchor.value);
  } else {
    const m = ORIGIN_AT_START.exec(s);
    if (!m) return null;
    inlineBase = m[0];
    after = s.slice(m[0].length);
    const v1 = /^\/v1(?=[/?#\u0000]|$)/.exec(after);
    baseHasV1 = !!v1;
    if (v1) {
      inlineBase += v1[0];
      after = after.slice(v1[0].length);
    }
  }
  const result: LocatedUrl = { parts: rest, anchor, inlineBase, versionPrefix: "", path: "", leadingSlash: true, query: "", pathText: "" };
  let leadingSlash = after.startsWith("/");
  if (anchor && join === "url") {
    const anchorSlash = anchor.value.endsWith("/");
    // WHATWG resolution: the request goes outside /v1, to no v1 route (not a site of the path as written).
    const to = resolvedAgainst(after, anchor.value);
    const where = to ? ` (it requests ${to}, no v1 route)` : "";
    if (leadingSlash && baseHasV1 && !after.startsWith("/v1")) result.problem = `new URL() with an absolute path drops the /v1 of the base${where}`;
    else if (!leadingSlash && after && baseHasV1 && !anchorSlash) result.problem = `new URL() with a relative path and a base without a trailing slash drops /v1${where}`;
  }
  if (!leadingSlash && after && !after.startsWith("?") && !after.startsWith("#")) {
    if (anchor && join !== "concat") after = "/" + after;
    else if (anchor && join === "concat" && anchor.value.endsWith("/")) after = "/" + after;
    else if (!anchor && !after.startsWith(HOLE)) return null;
    else leadingSlash = true; // `${BASE}${path}`: a dynamic path, or text glued to the base
  }
  if (!baseHasV1 || (anchor && join === "url" && after.startsWith("/v1"))) {
    const v1 = /^\/v1(?=[/?#]|$)/.exec(after);
    if (v1) {
      result.versionPrefix = v1[0];
      after = after.slice(v1[0].length);
    } else if (!baseHasV1 && after !== "" && after !== "/") {
      result.problem ??= "URL on the v1 host outside /v1";
    }
  }
  const q = after.search(/[?#]/);
  result.path = q >= 0 ? after.slice(0, q) : after;
  result.pathText = !leadingSlash && result.path.startsWith("/") ? result.path.slice(1) : result.path;
  result.query = q >= 0 ? after.slice(q) : "";
  result.leadingSlash = leadingSlash;
  if (result.path === "/") result.path = "";
  return result;
}

/** `new URL(path, base)`'s text as WHATWG resolves it (holes shown as `{…}`), or undefined when the base is not absolute. */
function resolvedAgainst(path: string, base: string): string | undefined {
  try {
    return decodeURI(new URL(path.replace(/\0/g, "{…}"), base).href);
  } catch {
    return undefined;
  }
}

/** Whether the path is a single hole (or starts with one): a dynamic path, e.g. inside a request helper. */
export function isDynamicPath(url: LocatedUrl): boolean {
  return url.path.startsWith(HOLE) || url.path.startsWith("/" + HOLE) && url.path.length === 2;
}
