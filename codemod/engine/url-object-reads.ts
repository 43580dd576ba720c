// A call's URL read from a URL object made on the v1 base in the same function
// (`const url = apiUrl(env, "templates"); url.searchParams.set(…); send(url.pathname.replace(/^\/v1\//, "") + url.search)`):
// what the code does with the object's pathname is not followed, so the call is marked and kept
// whole on v1. The object is then a use of the base that belongs to this call (not an unfollowed
// one): it stays v1 with the call, its builder given the declared v1 base as any kept call's is.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { matchV1 } from "../../mappings/index.ts";
import type { Analysis } from "./state.ts";
import { bind, sourceLiterals, urlContext } from "./values.ts";
import { enclosingFunction } from "./scope.ts";
import { locate, resolveParts, unwrapExpression, type Part } from "./urls.ts";
import { urlObjectMade } from "./url-object.ts";
import { references } from "./references.ts";
import { builderCallRedirect } from "./threaded-base.ts";
import type { Redirect } from "./v1-redirect.ts";

/** Members of a URL object that say what it points at. */
const URL_MEMBERS = new Set(["pathname", "search", "href", "toString", "host", "origin", "hash", "searchParams"]);

export interface ReadUrlObject {
  /** The builder call (or `new URL(…)`) the object is made by. */
  made: Node;
  parts: Part[];
  /** The v1 operation its path names for the call's method, if one. */
  op?: ReturnType<typeof matchV1>;
  /** The base sources the object depends on. */
  sources: Node[];
}

/** The URL objects on a v1 base that `urlNode` (written in the call's own function) reads members of, only this call reading them. */
export function urlObjectsRead(a: Analysis, urlNode: Node, at: Node, method: string | undefined): ReadUrlObject[] {
  const fn = enclosingFunction(at);
  if (enclosingFunction(urlNode) !== fn) return [];
  const out: ReadUrlObject[] = [];
  const seen = new Set<Node>();
  const ids = Node.isIdentifier(urlNode) ? [urlNode] : urlNode.getDescendantsOfKind(SyntaxKind.Identifier);
  for (const id of ids) {
    const access = id.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== id || !URL_MEMBERS.has(access.getName())) continue;
    const b = bind(a, id);
    if (b?.kind !== "var" || b.path.length || !Node.isVariableDeclaration(b.decl) || seen.has(b.decl)) continue;
    seen.add(b.decl);
    const made = urlObjectMade(b.decl);
    if (!made || !readOnlyBy(b.decl, at)) continue;
    const parts = resolveParts(made, urlContext(a));
    const url = locate(parts, undefined);
    if (!url?.anchor?.node || parts[0]?.kind !== "base") continue;
    const op = method && url.path && !url.path.includes("\0") ? matchV1(method, url.path) : null;
    out.push({ made, parts, op, sources: sourceLiterals(a, url.anchor.node) });
  }
  return out;
}

/** Every use of the URL object is inside the call `at`, or a write of its query (`u.searchParams.set(…)`, `u.search = …`). */
function readOnlyBy(decl: Node, at: Node): boolean {
  const name = (decl as any).getNameNode?.() as Node | undefined;
  if (!name || !Node.isIdentifier(name)) return false;
  for (const ref of references(name)) {
    if (ref === name || ref.getFirstAncestor((x) => x === at)) continue;
    const access = ref.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== ref) return false;
    const up = access.getParent();
    if (access.getName() === "searchParams" && up && Node.isPropertyAccessExpression(up) && ["set", "append", "delete"].includes(up.getName())) continue;
    if (access.getName() === "search" && up && Node.isBinaryExpression(up) && up.getLeft() === access) continue;
    return false;
  }
  return true;
}

/** The kept call's redirect joined with its URL objects' builders' (undefined when one of them has none). */
export function withUrlObjects(a: Analysis, redirect: Redirect | undefined, objects: ReadUrlObject[]): Redirect | undefined {
  if (!objects.length || !redirect) return redirect;
  const out: Redirect = { ...redirect, edits: [...redirect.edits], names: [...redirect.names], inner: [...(redirect.inner ?? [])] };
  for (const o of objects) {
    const u = unwrapExpression(o.made);
    const r = Node.isCallExpression(u) ? builderCallRedirect(a, u) : undefined;
    if (!r || r.derived) return undefined;
    out.edits.push(...r.edits);
    out.names.push(...r.names.filter((n) => !out.names.includes(n)));
    if (r.shared) out.inner!.push(r.shared);
  }
  return out;
}

/**
 * The URL objects' part in the call: their nodes are this call's uses of the base (consumed and
 * accounted), their sources its dependencies; the operation their path names; the mark's problem.
 */
export function objectsProblem(a: Analysis, objects: ReadUrlObject[], deps: Set<Node>, name: (op: NonNullable<ReadUrlObject["op"]>["operation"]) => void): { reason: string; advice: string } | undefined {
  if (!objects.length) return undefined;
  for (const o of objects) {
    for (const n of [o.made, ...o.made.getDescendants()]) a.consumed.add(n), a.accounted.add(n);
    for (const p of o.parts) a.consumed.add(p.node), a.accounted.add(p.node);
    o.sources.forEach((s) => deps.add(s));
  }
  const ops = [...new Set(objects.map((o) => o.op?.operation).filter((x) => !!x))];
  if (ops.length === 1) name(ops[0]!);
  const first = objects[0]!.made;
  const where = `${first.getSourceFile().getBaseName()}:${first.getStartLineNumber()}`;
  const v2 = ops.length === 1 && ops[0]!.v2 ? ` (${ops[0]!.v2.method} ${ops[0]!.v2.path})` : "";
  return {
    reason: `the path is read from a URL object made on the v1 base (${where}), which the codemod does not follow: kept whole on v1`,
    advice: `build this call's URL from its v2 path${v2} by hand (docs/mapping.md), then migrate it`,
  };
}
