// Where a site writes each v1 query parameter, and what value it gives it: the URL's literal text
// (`?computeType=GPU`), an options object (axios `params`), a `URLSearchParams` built for the
// call (`new URLSearchParams({ … })`, `qs.append(name, v)`, also under `if (v)`). query-moves.ts
// moves a parameter only when every place it is written is one of these and can be removed
// without touching another request.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import type { OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression, type LocatedUrl } from "../urls.ts";
import type { Analysis } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { objectLiteral } from "../values.ts";
import { runtimeQueryNames } from "../query-holes.ts";
import { references } from "../references.ts";
import { queryObject } from "./query.ts";
import { queryLiteral } from "./harmless-query.ts";

/** How v1 put a written value in the URL: as text (`String(v)`), or as axios does (null and undefined left out). */
export type Serialised = "text" | "axios";

export interface Written {
  /** Where it is written: undefined for the URL's literal text (rewriteUrl leaves the pair out). */
  node?: Node;
  /** In the URL's text, a value that is one template hole (`?gpuTypeId=${gpu}`): the hole, left out with its pair. */
  hole?: Node;
  /** What removes it: the property, the setter statement, or the `if` around it. */
  remove?: Node;
  /** The value: literal text, or the expression (and the `if` condition it is written under). */
  literal?: string;
  value?: Node;
  condition?: Node;
  /** A URL chosen between two of one operation (rewrites/chosen-query.ts): what each branch writes (none: not sent). */
  chosen?: { condition: Node; whenTrue?: Written; whenFalse?: Written };
  serialised: Serialised;
}

/** Every place each parameter of the site is written, or undefined for a name written in a way not listed here. */
export type WrittenQuery = Map<string, Written[] | undefined>;

function add(out: WrittenQuery, name: string, w: Written | undefined): void {
  const list = out.get(name);
  if (out.has(name) && list === undefined) return;
  out.set(name, w ? [...(list ?? []), w] : undefined);
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

export function writtenQuery(a: Analysis, http: HttpCall, url: LocatedUrl): WrittenQuery {
  const out: WrittenQuery = new Map();
  if (url.query) {
    const holes = url.parts.filter((p) => p.kind === "hole");
    let next = holes.length - (url.query.match(/\0/g) ?? []).length;
    for (const pair of url.query.split("#")[0]!.replace(/^\?/, "").split("&")) {
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      const inName = (name!.match(/\0/g) ?? []).length;
      if (inName) {
        for (const h of holes.slice(next, next + inName)) fromHole(a, h.node, h.kind === "hole" ? h.ctx : undefined, http.call, out);
      } else if (name && value === "\0") {
        const hole = holes[next]!;
        add(out, name, { hole: hole.node, value: encodedValue(hole.node), serialised: "text" });
      } else if (name) add(out, name, value.includes("\0") || !rest.length ? undefined : { literal: decoded(value), serialised: "text" });
      next += inName + (value.match(/\0/g) ?? []).length;
    }
  }
  const q = queryObject(a, http);
  const obj = q && objectLiteral(a, q);
  // A `URLSearchParams` given as the query option (`{ searchParams: qs }`): its names where they are set.
  if (q && !obj) fromHole(a, q, undefined, http.call, out);
  if (obj && Node.isObjectLiteralExpression(obj)) {
    // got and ky put an object's values in as text and leave undefined ones out, as axios does with scalars.
    const serialised: Serialised | undefined = ["axios", "convention", "got", "ky"].includes(http.lib) ? "axios" : undefined;
    for (const p of obj.getProperties()) {
      if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) continue;
      const name = p.getName().replace(/^["']|["']$/g, "");
      const own = p.getAncestors().includes(http.call) || onlyThisRequest(p.getFirstAncestorByKind(SyntaxKind.VariableDeclaration), http.call);
      // A request helper's own query option: how it serialises a value is its own, but a literal reads the same in any.
      const literal = http.lib === "helper" && Node.isPropertyAssignment(p) ? queryLiteral(p.getInitializer()) : undefined;
      if (literal !== undefined) add(out, name, own ? { node: p, remove: p, literal, serialised: "text" } : undefined);
      else add(out, name, serialised && own ? property(p, serialised) : undefined);
    }
  }
  return out;
}

/** `${encodeURIComponent(v)}` put `v` in the URL as the server reads it back; any other hole is its own value. */
function encodedValue(hole: Node): Node {
  const e = unwrapExpression(hole);
  if (Node.isCallExpression(e) && e.getArguments().length === 1 && ["encodeURIComponent", "String"].includes(e.getExpression().getText())) return e.getArguments()[0]!;
  return e;
}

function property(p: Node, serialised: Serialised): Written {
  const value = Node.isPropertyAssignment(p) ? p.getInitializer() : Node.isShorthandPropertyAssignment(p) ? p.getNameNode() : undefined;
  return { node: p, remove: p, value, serialised };
}

/** `?${qs}`: the names runtimeQueryNames finds, each with its value, where the `URLSearchParams` serves this request only. */
function fromHole(a: Analysis, hole: Node, ctx: Parameters<typeof runtimeQueryNames>[2], call: Node, out: WrittenQuery): void {
  const names = runtimeQueryNames(a, hole, ctx);
  if (!names) return;
  for (const [name, places] of names) {
    for (const at of places) {
      // A name inside a literal's text (`?endpointId=…` in a nested template) cannot be moved alone.
      if (!Node.isNode(at)) {
        add(out, name, undefined);
        continue;
      }
      if (Node.isPropertyAssignment(at) || Node.isShorthandPropertyAssignment(at)) {
        const created = at.getFirstAncestorByKind(SyntaxKind.NewExpression);
        const own = at.getAncestors().includes(call) || onlyThisRequest(created?.getFirstAncestorByKind(SyntaxKind.VariableDeclaration), call);
        add(out, name, own ? property(at, "text") : undefined);
        continue;
      }
      add(out, name, setter(at, call));
    }
  }
}

/** `qs.append("name", v);` alone in a block, or alone under `if (cond)` (no else): the statement to remove and the value. */
function setter(key: Node, call: Node): Written | undefined {
  const setCall = key.getParent();
  if (!setCall || !Node.isCallExpression(setCall) || setCall.getArguments()[0] !== key || setCall.getArguments().length !== 2) return undefined;
  const access = setCall.getExpression();
  const receiver = Node.isPropertyAccessExpression(access) ? unwrapExpression(access.getExpression()) : undefined;
  const decl = receiver && Node.isIdentifier(receiver) ? receiver.getSymbol()?.getDeclarations()[0] : undefined;
  if (!decl || !Node.isVariableDeclaration(decl) || !onlyThisRequest(decl, call)) return undefined;
  const statement = setCall.getParent();
  if (!statement || !Node.isExpressionStatement(statement)) return undefined;
  const value = setCall.getArguments()[1]!;
  let holder = statement.getParent();
  let guarded: Node = statement;
  if (holder && Node.isBlock(holder) && holder.getStatements().length === 1 && holder.getParent() && Node.isIfStatement(holder.getParent()!)) {
    guarded = holder;
    holder = holder.getParent();
  }
  if (holder && Node.isIfStatement(holder) && holder.getThenStatement() === guarded && !holder.getElseStatement()) {
    const up = holder.getParent();
    if (!up || !(Node.isBlock(up) || Node.isSourceFile(up))) return undefined;
    return { node: key, remove: holder, value, condition: holder.getExpression(), serialised: "text" };
  }
  if (!holder || !(Node.isBlock(holder) || Node.isSourceFile(holder))) return undefined;
  return { node: key, remove: statement, value, serialised: "text" };
}

/**
 * Whether the variable's value goes to this request only: each read (its setter calls aside) is in
 * the call, or in the initializer of a variable read only there (`const qs = params.toString() ?
 * \`?${params}\` : ""`).
 */
function onlyThisRequest(decl: Node | undefined, call: Node): boolean {
  const name = decl && Node.isVariableDeclaration(decl) ? decl.getNameNode() : undefined;
  if (!name || !Node.isIdentifier(name)) return false;
  const inCall = (n: Node) => n.getAncestors().includes(call);
  const reads = references(name).filter((r) => !isSetterCall(r));
  if (!reads.length) return false;
  return reads.every((r) => {
    if (inCall(r)) return true;
    const via = r.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
    const viaName = via?.getNameNode();
    if (!via || via === decl || !viaName || !Node.isIdentifier(viaName)) return false;
    const uses = references(viaName);
    return uses.length > 0 && uses.every(inCall);
  });
}

function isSetterCall(ref: Node): boolean {
  const access = ref.getParent();
  return !!access && Node.isPropertyAccessExpression(access) && access.getExpression() === ref && ["set", "append"].includes(access.getName()) && Node.isCallExpression(access.getParent()!);
}

/** The decided query parameters of the operation this module may move, by name. */
export function movableNames(op: OperationMapping): Set<string> {
  return new Set((op.query ?? []).filter((q) => (q.decision === "emulate" && q.filterField) || q.expands || q.expandsUndeclared).map((q) => q.v1));
}
