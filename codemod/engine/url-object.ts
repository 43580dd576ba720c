// A `URL` object whose query is written after it is made: `const url = new URL(`${API}/pods`)`,
// then `url.searchParams.set("desiredStatus", "RUNNING")` or `url.search = new
// URLSearchParams(params).toString()`, then `fetch(url)`. The URL the request goes to is the
// one made plus that query, so a URL read from such a variable ends in a query hole.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction, identifiersNamed, resolveIdentifier } from "./scope.ts";

/** What the code does to a URL object's query after making it. */
export interface UrlQueryWrites {
  /** `url.searchParams.set(name, value)` / `.append(name, value)` calls. */
  sets: Node[];
  /** Right-hand sides of `url.search = …` (and `+=`). */
  searches: Node[];
  /** A write whose names cannot be read (`url.href = …`, `url.searchParams` handed elsewhere). */
  other?: Node;
}

const cache = new WeakMap<Node, UrlQueryWrites | null>();

/** The `new URL(…)` a variable is declared with. */
export function urlObjectInit(decl: Node): Node | undefined {
  if (!Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return undefined;
  const init = decl.getInitializer();
  let n = init;
  while (n && (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n))) n = n.getExpression();
  return n && madeUrl(n) ? n : undefined;
}

/** `new URL(…)`, or a conditional choosing between two (`isAbsolute(p) ? new URL(p) : new URL(base + p)`). */
function madeUrl(n: Node): boolean {
  let x = n;
  while (Node.isParenthesizedExpression(x)) x = x.getExpression();
  if (Node.isConditionalExpression(x)) return madeUrl(x.getWhenTrue()) && madeUrl(x.getWhenFalse());
  return Node.isNewExpression(x) && x.getExpression().getText() === "URL";
}

/**
 * The `new URL(…)` or the call of a URL helper of the project (`apiUrl("pods")` whose function
 * returns `new URL(path, BASE)`) a variable is declared with: either way it holds a URL object.
 */
export function urlObjectMade(decl: Node): Node | undefined {
  const made = urlObjectInit(decl);
  if (made || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return made;
  let n = decl.getInitializer();
  while (n && (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n) || Node.isAwaitExpression(n))) n = n.getExpression();
  return n && Node.isCallExpression(n) && returnsUrlObject(n.getExpression()) ? n : undefined;
}

/** The callee is a function of the project every return of which is `new URL(…)`. */
function returnsUrlObject(callee: Node): boolean {
  if (!Node.isIdentifier(callee)) return false;
  let fn: Node | undefined;
  try {
    const symbol = callee.getSymbol();
    const target = symbol?.getAliasedSymbol() ?? symbol;
    const d = target?.getDeclarations()[0];
    fn = d && Node.isVariableDeclaration(d) ? d.getInitializer() : d;
  } catch {
    return false;
  }
  if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return false;
  const body = fn.getBody();
  const returns = body && Node.isBlock(body) ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((x) => Node.isFunctionLikeDeclaration(x)) === fn).map((r) => r.getExpression()) : [body];
  const isUrl = (e: Node | undefined) => {
    let x = e;
    while (x && (Node.isParenthesizedExpression(x) || Node.isAsExpression(x))) x = x.getExpression();
    return !!x && Node.isNewExpression(x) && x.getExpression().getText() === "URL";
  };
  return returns.length > 0 && returns.every(isUrl);
}

/** The query writes of a variable holding `new URL(…)`, when it has any (else undefined). */
export function urlQueryWrites(decl: Node): UrlQueryWrites | undefined {
  if (cache.has(decl)) return cache.get(decl) ?? undefined;
  cache.set(decl, null);
  if (!urlObjectMade(decl)) return undefined;
  const name = (decl as any).getNameNode() as Node;
  const w: UrlQueryWrites = { sets: [], searches: [] };
  for (const use of identifiersNamed(enclosingFunction(decl), name.getText())) {
    if (use === name || resolveIdentifier(use)?.decl !== decl) continue;
    const access = use.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== use) continue;
    const member = access.getName();
    const up = access.getParent();
    if (member === "searchParams") {
      const method = up && Node.isPropertyAccessExpression(up) && up.getExpression() === access ? up.getName() : undefined;
      const call = method ? up!.getParent() : undefined;
      if (method && ["set", "append"].includes(method) && call && Node.isCallExpression(call)) w.sets.push(call);
      else if (!method || !["get", "getAll", "has", "delete", "forEach", "keys", "values", "entries", "toString", "sort"].includes(method)) w.other ??= access;
      continue;
    }
    if (!["search", "href"].includes(member) || !up || !Node.isBinaryExpression(up) || up.getLeft() !== access) continue;
    const op = up.getOperatorToken().getKind();
    if (member === "search" && (op === SyntaxKind.EqualsToken || op === SyntaxKind.PlusEqualsToken)) w.searches.push(up.getRight());
    else w.other ??= up;
  }
  const result = w.sets.length || w.searches.length || w.other ? w : undefined;
  cache.set(decl, result ?? null);
  return result;
}
