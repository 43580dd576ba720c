// Which keys of a request helper's options argument become the request body, read from the body
// expression the helper gives its transport: `body: json !== undefined ? JSON.stringify(json) :
// rest.body` after `const { json, ...rest } = init` takes `json` (serialised by the helper) and
// `body` (passed as it is). A call passing its body under one of those keys is read there, so
// its v1 body is converted (or marked), never left behind while the URL moves to v2. Likewise the
// keys the helper puts in its URL after the path (`${q(path, opts.query)}`,
// `"?" + new URLSearchParams(opts.query)`): a call's query parameters are read there.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";

export interface BodyKey {
  key: string;
  /** The helper serialises what the call passes under this key (callers pass plain objects). */
  serialised: boolean;
}

/** The option keys the body expression reads from parameter `index` of `fn`. */
export function bodyOptionKeys(a: Analysis, fn: Node, index: number, body: Node): BodyKey[] {
  const keys = new Map<string, boolean>();
  const nodes = [body, ...body.getDescendants()];
  for (const n of nodes) {
    const key = optionKeyAt(a, fn, index, n);
    if (!key) continue;
    const serialised = n.getAncestors().some((x) => Node.isCallExpression(x) && x.getExpression().getText() === "JSON.stringify" && x.getPos() >= body.getPos() && x.getEnd() <= body.getEnd());
    keys.set(key, (keys.get(key) ?? false) || serialised);
  }
  return [...keys].map(([key, serialised]) => ({ key, serialised }));
}

/** The option keys read from parameter `index` of `fn` anywhere in `nodes` (the URL's holes after its path). */
export function queryOptionKeys(a: Analysis, fn: Node, index: number, nodes: Node[]): string[] {
  return [...new Set(nodes.flatMap((n) => bodyOptionKeys(a, fn, index, n).map((k) => k.key)))];
}

/** `init.json`, a destructured `{ json }` of the parameter, or `rest.body` of `const { …, ...rest } = init`. */
function optionKeyAt(a: Analysis, fn: Node, index: number, n: Node): string | undefined {
  const isParam = (id: Node) => {
    const b = Node.isIdentifier(id) ? bind(a, id) : undefined;
    if (b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 0) return true;
    // `const rest = init` / `const { ...rest } = init ?? {}`: the options object again.
    if (b?.kind === "var" && b.init && (b.path.length === 0 || (b.path.length === 1 && b.path[0] === "..."))) {
      const init = b.init.getKind() === SyntaxKind.BinaryExpression ? (b.init as any).getLeft() : b.init;
      const ib = Node.isIdentifier(init) ? bind(a, init) : undefined;
      return ib?.kind === "param" && ib.fn === fn && ib.index === index && ib.path.length === 0;
    }
    return false;
  };
  if (Node.isPropertyAccessExpression(n) && isParam(n.getExpression())) return n.getName();
  if (!Node.isIdentifier(n) || (n.getParent() && Node.isPropertyAccessExpression(n.getParent()!) && (n.getParent() as any).getNameNode?.() === n)) return undefined;
  const b = bind(a, n);
  if (b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 1) return b.path[0];
  if (b?.kind === "var" && b.init && b.path.length === 1 && b.path[0] !== "...") {
    const init = b.init.getKind() === SyntaxKind.BinaryExpression ? (b.init as any).getLeft() : b.init;
    const ib = Node.isIdentifier(init) ? bind(a, init) : undefined;
    if (ib?.kind === "param" && ib.fn === fn && ib.index === index && ib.path.length === 0) return b.path[0];
  }
  return undefined;
}

/**
 * A body the helper builds around one of its parameters without passing it on as it is
 * (`{ ...data, source: "app" }`, `{ payload: data }`): the caller's v1 body ends up inside
 * something the codemod cannot convert, so such calls are marked. The body expression, shortened.
 */
export function bodyBuiltFromParam(a: Analysis, fn: Node, body: Node): Node | undefined {
  const fromParam = (n: Node) => {
    const b = Node.isIdentifier(n) ? bind(a, n) : undefined;
    return b?.kind === "param" && b.fn === fn;
  };
  return fromParam(body) || body.getDescendants().some(fromParam) ? body : undefined;
}
