// Calls moved to v2 by hand (the v2 base and path written in, the mark deleted) whose answer is
// still read in v1 shape: a wrapped list used as a bare array (`all.filter(…)` on `{ pods: […] }`),
// a field only v1 records have (`p.desiredStatus`, `p.costPerHr`); or whose body is still v1's flat
// body, whose query carries a v1-only flag, or whose error branch reads v1's `{ message }`. Such a
// call is no v1 site (its URL is v2), so nothing else looks at it: it would pass the audit while
// failing at run time. Each is planned as the engine plans a v1 site, its URL and method already
// v2's (hand-moved-site.ts): migrated where the engine would migrate the same reads, else one
// finding and one mark at the call naming what still speaks v1.
// Followed here: `fetch` on the v2 base (its body from `await res.json()`), and a project function
// that fetches the v2 base joined to one of its parameters and returns the parsed body, called with
// a literal path (read as a request helper's call, helpers.ts). The answer is followed through
// variables, conditionals and array methods. Other libraries' calls on the v2 base are not looked at.
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { operations, type OperationMapping } from "../../mappings/index.ts";
import { V2_BASE } from "../../mappings/bases.ts";
import { clientAnswer } from "../../mappings/client-answer.ts";
import { lensNamed } from "../../mappings/data/lenses/index.ts";
import { literalText, resolveParts, unwrapExpression } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { urlContext } from "./values.ts";
import { references } from "./references.ts";
import { readCall as httpCall } from "./call-reader.ts";
import type { HttpCall } from "./transports/transport.ts";
import { handMovedSite, type AnswerReads } from "./hand-moved-site.ts";
import { helperCall } from "./helpers.ts";
import type { HelperSignature } from "../types.ts";

const ARRAY_METHODS = new Set(["filter", "map", "forEach", "find", "findIndex", "some", "every", "reduce", "flatMap", "slice", "sort", "length", "at", "includes", "indexOf", "join", "concat", "reverse", "entries", "values", "keys"]);
/** Methods whose result is again the list (its records followed on). */
const LIST_RESULTS = new Set(["filter", "slice", "sort", "reverse", "concat"]);
const RECORD_CALLBACKS = new Set(["filter", "map", "forEach", "find", "findIndex", "some", "every", "flatMap"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Pass (before the error reads are registered: a migrated call's are settled with the v1 sites'). */
export function handMovedCalls(a: Analysis, sf: SourceFile): void {
  const sites = new Set(a.sites.map((s) => s.call));
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    if (sites.has(call)) continue;
    const found = v2Call(a, call);
    if (!found) continue;
    const reads = found.answer ? v1Reads(found.answer, found.op) : { speaks: [], v2: false };
    handMovedSite(a, call, found.op, found.http, reads);
  }
}

/** The v2 operation a call makes, the expression holding its parsed answer (when found), and the call as read (fetch's); undefined for any other call. */
function v2Call(a: Analysis, call: Node & { getArguments(): Node[]; getExpression(): Node }): { op: OperationMapping; answer?: Node; http?: HttpCall } | undefined {
  const http = httpCall(a, call as never);
  if (http?.lib === "fetch" && http.urlNode) {
    const path = v2PathOf(a, http.urlNode);
    const method = http.method.kind !== "unknown" ? http.method.value : undefined;
    const op = path !== undefined && method ? v2Operation(method, path) : undefined;
    return op ? { op, answer: parsedBody(call), http } : undefined;
  }
  // A project function over fetch on the v2 base, returning the parsed body.
  const callee = unwrapExpression(call.getExpression());
  const decl = Node.isIdentifier(callee) ? callee.getSymbol()?.getDeclarations()[0] : undefined;
  const fn = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
  if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  const pathIndex = v2HelperPath(a, fn);
  if (pathIndex === undefined) return undefined;
  const path = literalText(unwrapExpression(call.getArguments()[pathIndex] ?? call));
  const verbs = call.getArguments().map((x) => literalText(unwrapExpression(x))?.toUpperCase()).filter((x): x is string => !!x && METHODS.includes(x));
  const op = path?.startsWith("/") ? v2Operation(verbs[0] ?? "GET", path) : undefined;
  if (!op) return undefined;
  // Read as a v1 helper's call is (helpers.ts), its base v2's: the awaited call is the parsed body.
  const sig: HelperSignature = { kind: "helper", base: V2_BASE, pathIndex, returnsBody: true, serialisesBody: false, fn, defaultMethod: verbs[0] ?? "GET" };
  return { op, answer: call, http: helperCall(a, call as never, sig, []) };
}

/** The path after the v2 base of a URL whose text is all known, query left out. */
function v2PathOf(a: Analysis, url: Node): string | undefined {
  const parts = resolveParts(url, urlContext(a));
  if (parts[0]?.kind !== "text" || parts.some((p) => p.kind === "base")) return undefined;
  // A hole stands for one path segment (`/pods/${id}`); one spanning more is not matched.
  const text = parts.map((p) => (p.kind === "text" ? p.text : "\0")).join("");
  const path = text.startsWith(V2_BASE + "/") ? text.slice(V2_BASE.length).split(/[?#]/)[0]! : undefined;
  return path?.split("/").every((seg) => !seg.includes("\0") || seg === "\0") ? path : undefined;
}

/** The index of the path parameter of a function that fetches `<v2 base> + path` and returns `res.json()`. */
function v2HelperPath(a: Analysis, fn: Node): number | undefined {
  const params = (fn as unknown as { getParameters(): Node[] }).getParameters();
  for (const inner of fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const http = httpCall(a, inner);
    if (http?.lib !== "fetch" || !http.urlNode) continue;
    const parts = resolveParts(http.urlNode, urlContext(a));
    if (parts.length !== 2) continue;
    const [base, path] = parts;
    const baseText = base!.kind === "text" ? base!.text : holeStrings(a, base!.node).find((s) => s === V2_BASE);
    if (baseText !== V2_BASE || path!.kind !== "hole" || !Node.isIdentifier(path!.node)) continue;
    const index = params.findIndex((p) => (p as unknown as { getName(): string }).getName() === path!.node.getText());
    if (index >= 0 && returnsParsedBody(fn)) return index;
  }
  return undefined;
}

/** The strings a name can hold (a parameter's default included). */
function holeStrings(a: Analysis, node: Node): string[] {
  const v = a.evaluator.evaluate(node);
  const options = v.kind === "union" ? v.options : [v];
  return options.flatMap((o) => (o.kind === "string" ? [o.text] : []));
}

/** Every return of the function is the response's parsed body (`return res.json()`, `(await res.json()) as T`). */
function returnsParsedBody(fn: Node): boolean {
  const body = (fn as unknown as { getBody(): Node | undefined }).getBody();
  const returns = body && Node.isBlock(body) ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((x) => x === fn || Node.isFunctionLikeDeclaration(x)) === fn) : [];
  const values = body && !Node.isBlock(body) ? [body] : returns.map((r) => r.getExpression());
  return values.length > 0 && values.every((v) => !!v && isJsonCall(unwrapAwait(v)));
}

const unwrapAwait = (n: Node): Node => {
  const u = unwrapExpression(n);
  return Node.isAwaitExpression(u) ? unwrapAwait(u.getExpression()) : u;
};
const isJsonCall = (n: Node) => Node.isCallExpression(n) && Node.isPropertyAccessExpression(n.getExpression()) && (n.getExpression() as unknown as { getName(): string }).getName() === "json";

/** `const res = await fetch(…)`: the `await res.json()` that reads its body (the only one). */
function parsedBody(call: Node): Node | undefined {
  const awaited = call.getParent();
  const decl = awaited && Node.isAwaitExpression(awaited) ? awaited.getParent() : undefined;
  const name = decl && Node.isVariableDeclaration(decl) ? decl.getNameNode() : undefined;
  if (!name || !Node.isIdentifier(name)) return undefined;
  const reads = references(name).map((r) => r.getParent()).filter((p): p is Node => !!p && Node.isPropertyAccessExpression(p) && (p as unknown as { getName(): string }).getName() === "json");
  return reads.length === 1 ? reads[0]!.getParent() : undefined;
}

/** The v2 operation of a method and a v2 path (`/pods/abc` for GET /v2/pods/{id}). */
function v2Operation(method: string, path: string): OperationMapping | undefined {
  const segs = ("/v2" + path).split("/").filter(Boolean);
  const hits = operations.filter((op) => {
    if (!op.v2 || op.v2.method !== method.toUpperCase() || op.status === "no-equivalent") return false;
    const t = op.v2.path.split("/").filter(Boolean);
    return t.length === segs.length && t.every((s, i) => /^\{\w+\}$/.test(s) || s === segs[i]);
  });
  // A literal segment beats a parameter (`/pods/{id}` vs a fixed sibling): the most literal match.
  hits.sort((x, y) => y.v2!.path.replace(/\{\w+\}/g, "").length - x.v2!.path.replace(/\{\w+\}/g, "").length);
  return hits[0];
}

/** The names at the top of the operation's records only v1 has (`desiredStatus`, `costPerHr`, `machine`), and only v2. */
function onlyFields(op: OperationMapping): { v1: Set<string>; v2: Set<string> } {
  const shape = clientAnswer(op);
  const lens = shape.kind === "list" || shape.kind === "record" ? lensNamed(shape.lens) : undefined;
  if (!lens) return { v1: new Set(), v2: new Set() };
  const top = (p: string) => p.split(".")[0]!;
  const v2 = new Set(lens.fields.flatMap((f) => f.v2.map(top)));
  const v1 = new Set([...lens.fields.filter((f) => f.only !== "toV2").flatMap((f) => f.v1.map(top)), ...(lens.v1Lost ?? []).map((l) => top(l.v1))]);
  const allV1 = new Set(lens.fields.flatMap((f) => f.v1.map(top)));
  return { v1: new Set([...v1].filter((n) => !v2.has(n))), v2: new Set([...v2].filter((n) => !allV1.has(n) && !v1.has(n))) };
}

/**
 * What of the answer's reads speaks v1, each named with where it is (`bot.js:13`); `v2`: some read
 * speaks v2 (the list read at its wrapper key, a field only v2 records have).
 */
function v1Reads(answer: Node, op: OperationMapping): AnswerReads {
  const shape = clientAnswer(op);
  if (shape.kind !== "list" && shape.kind !== "record") return { speaks: [], v2: false };
  const only = onlyFields(op);
  const fields = only.v1;
  let v2 = false;
  const out = new Set<string>();
  const seen = new Set<Node>();
  const named = new Set<string>();
  const at = (n: Node) => `${n.getSourceFile().getBaseName()}:${n.getStartLineNumber()}`;
  const wrapper = shape.kind === "list" ? shape.wrapper : undefined;
  // Every place the value of `n` goes: a variable's reads, a conditional's, an `await`'s.
  const uses = (n: Node): Node[] => {
    if (seen.has(n)) return [];
    seen.add(n);
    const p = n.getParent();
    if (!p) return [];
    if (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isAwaitExpression(p) || Node.isNonNullExpression(p)) return uses(p);
    if (Node.isConditionalExpression(p) && p.getCondition() !== n) return uses(p);
    if (Node.isBinaryExpression(p) && ["??", "||"].includes(p.getOperatorToken().getText())) return uses(p);
    if (Node.isVariableDeclaration(p) && p.getInitializer() === n) {
      const name = p.getNameNode();
      return Node.isIdentifier(name) ? references(name).filter((r) => r !== name).flatMap((r) => [r, ...uses(r)]) : [n];
    }
    return [n];
  };
  const record = (n: Node) => {
    for (const u of [n, ...uses(n)]) {
      const p = u.getParent();
      if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === u && only.v2.has(p.getName())) v2 = true;
      if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === u && fields.has(p.getName()) && !named.has(p.getName())) {
        named.add(p.getName());
        out.add(`reads v1 record field ${p.getName()} (${at(p)})`);
      }
    }
  };
  const list = (n: Node, bare: boolean, reached = [n, ...uses(n)]) => {
    for (const u of reached) {
      const p = u.getParent();
      if (!p) continue;
      if (Node.isPropertyAccessExpression(p) && p.getExpression() === u) {
        const name = p.getName();
        if (!ARRAY_METHODS.has(name)) continue;
        if (bare) out.add(`uses the v2 {${wrapper}} answer as a bare list (${u.getText().slice(0, 30)}.${name}, ${at(p)})`);
        const c = p.getParent();
        if (!c || !Node.isCallExpression(c)) continue;
        const cb = c.getArguments()[0];
        if (RECORD_CALLBACKS.has(name) && cb && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb))) {
          const param = cb.getParameters()[0]?.getNameNode();
          if (param && Node.isIdentifier(param)) for (const r of references(param)) if (r !== param) record(r);
        }
        if (LIST_RESULTS.has(name)) list(c, false);
        if (name === "find") record(c);
      } else if (Node.isForOfStatement(p) && p.getExpression() === u) {
        const init = p.getInitializer();
        const d = Node.isVariableDeclarationList(init) ? init.getDeclarations()[0]?.getNameNode() : undefined;
        if (bare) out.add(`iterates the v2 {${wrapper}} answer as a bare list (${at(p)})`);
        if (d && Node.isIdentifier(d)) for (const r of references(d)) if (r !== d) record(r);
      } else if (Node.isElementAccessExpression(p) && p.getExpression() === u) {
        if (bare) out.add(`indexes the v2 {${wrapper}} answer as a bare list (${at(p)})`);
        record(p);
      }
    }
  };
  if (shape.kind === "record") record(answer);
  else {
    const reached = [answer, ...uses(answer)];
    list(answer, true, reached);
    // The list read as v2 has it (`.pods`): its records are still v2's.
    for (const u of reached) {
      const p = u.getParent();
      if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === u && p.getName() === wrapper) (v2 = true), list(p, false);
    }
  }
  return { speaks: [...out], v2 };
}
