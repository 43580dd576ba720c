// Route paths written relative to a client's base (`'pods'`, `` `pods/${id}/start` ``): clients
// whose base is set once (RTK Query's `fetchBaseQuery({ baseUrl })`, an axios instance) often
// write their paths without the leading slash. The recall net counts them only where they are
// used as a URL: a `url`-like property, the return of a `query`/URL-like function, or the path
// argument of a request verb. A bare word (`'pods'`) is also a cache key, an event, a tab or an
// i18n key; those positions are not URLs, so it is not counted there.
import { Node } from "../ts-morph.ts";

/** A property or function name that holds a URL or path by convention. */
const URL_NAME = /^(url|uri|path|pathname|endpoint|route|href|resource|query)$|Url$|Path$|Endpoint$/;
/** Request verbs whose first argument is the path (`api.get('pods')`, `http.request('pods/…')`). */
const PATH_VERBS = /^(get|post|put|patch|delete|del|head|request|fetch)$/i;
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Whether the text reads as a relative path: a lowercase word first, then `/`, `?` or a `${…}` hole. */
export function relativePathShape(text: string): boolean {
  return /^[a-z][a-z0-9-]*(?:$|[/?\u0000])/.test(text) && !/\s|:\/\/|\.\w/.test(text);
}

/** Whether a relative path literal sits where a URL goes (see the header). */
export function urlPosition(literal: Node): boolean {
  let outer: Node = literal;
  while (outer.getParent() && (Node.isParenthesizedExpression(outer.getParent()!) || Node.isAsExpression(outer.getParent()!))) outer = outer.getParent()!;
  const p = outer.getParent();
  if (!p) return false;
  if (Node.isPropertyAssignment(p) && p.getInitializer() === outer) return URL_NAME.test(p.getName());
  const at = Node.isCallExpression(p) ? p.getArguments().indexOf(outer) : -1;
  if (Node.isCallExpression(p) && at !== -1) {
    const callee = p.getExpression();
    if (at === 0 && (Node.isPropertyAccessExpression(callee) ? PATH_VERBS.test(callee.getName()) : callee.getText() === "fetch")) return true;
    // A function of the project whose parameter in that place is named for a URL (`apiUrl(path)`, `rpJson(env, path, init)`).
    return URL_NAME.test(parameterName(callee, at) ?? "");
  }
  // `query: () => 'pods'`, `url(id) { return `pods/${id}` }`: the return of a URL-like function.
  const fn = Node.isArrowFunction(p) && p.getBody() === outer ? p : Node.isReturnStatement(p) ? p.getFirstAncestor((x) => Node.isFunctionLikeDeclaration(x)) : undefined;
  if (!fn) return false;
  const holder = fn.getParent();
  const name = Node.isMethodDeclaration(fn) || Node.isFunctionDeclaration(fn) ? fn.getName() : holder && (Node.isPropertyAssignment(holder) || Node.isVariableDeclaration(holder)) ? holder.getName() : undefined;
  return !!name && URL_NAME.test(name);
}

/** The literal of a `method` property (`{ url, method: 'POST' }`), upper-cased. */
function methodOf(obj: Node): string | undefined {
  if (!Node.isObjectLiteralExpression(obj)) return undefined;
  const m = obj.getProperty("method");
  const v = m && Node.isPropertyAssignment(m) ? m.getInitializer() : undefined;
  const text = v && (Node.isStringLiteral(v) || Node.isNoSubstitutionTemplateLiteral(v)) ? v.getLiteralValue().toUpperCase() : undefined;
  return text && METHODS.includes(text) ? text : undefined;
}

/**
 * The method of a request object the literal is the URL of (`{ url: 'pods', method: 'POST' }`),
 * GET when the object names none (the default of every client that takes such objects).
 * Undefined when the literal is not an object's URL, or the method is not a literal.
 */
export function methodOfRequestObject(literal: Node): string | undefined {
  let outer: Node = literal;
  while (outer.getParent() && (Node.isParenthesizedExpression(outer.getParent()!) || Node.isAsExpression(outer.getParent()!))) outer = outer.getParent()!;
  const p = outer.getParent();
  if (!p || !Node.isPropertyAssignment(p) || p.getInitializer() !== outer || !/^(url|path|endpoint)$/.test(p.getName())) return undefined;
  const obj = p.getParent()!;
  const prop = Node.isObjectLiteralExpression(obj) ? obj.getProperty("method") : undefined;
  if (!prop) return "GET";
  return methodOf(obj);
}

/**
 * The method of the request a URL is made for, read from the init beside it: `new Request(url, { method })`
 * or `fetch(url, { method })`, the URL written in place or made by a helper the path is given to
 * (`new Request(apiUrl(`pods/${id}`), { method: 'DELETE' })`). GET when the init names none.
 */
export function methodOfRequestInit(top: Node): string | undefined {
  const up = (n: Node) => {
    let o = n;
    while (o.getParent() && (Node.isParenthesizedExpression(o.getParent()!) || Node.isAsExpression(o.getParent()!))) o = o.getParent()!;
    return o;
  };
  let url = up(top);
  const helper = url.getParent();
  if (helper && Node.isCallExpression(helper) && helper.getArguments().includes(url) && helper.getExpression().getText() !== "fetch") url = up(helper);
  const request = url.getParent();
  if (!request || !(Node.isNewExpression(request) || Node.isCallExpression(request)) || request.getArguments()[0] !== url) return undefined;
  if (!["Request", "fetch"].includes(request.getExpression().getText())) return undefined;
  const init = request.getArguments()[1];
  if (!init) return "GET";
  if (!Node.isObjectLiteralExpression(init)) return undefined;
  return init.getProperty("method") ? methodOf(init) : "GET";
}

/** The name of parameter `at` of the function a callee names, when the compiler can tell. */
function parameterName(callee: Node, at: number): string | undefined {
  if (!Node.isIdentifier(callee)) return undefined;
  try {
    const symbol = callee.getSymbol();
    const d = (symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations()[0];
    const fn = d && Node.isVariableDeclaration(d) ? d.getInitializer() : d;
    if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
    const name = fn.getParameters()[at]?.getNameNode();
    return name && Node.isIdentifier(name) ? name.getText() : undefined;
  } catch {
    return undefined;
  }
}


/** The HTTP method written beside the path in the same call (`rp("DELETE", path)`, `{ method: "POST" }`), by convention. */
export function methodBeside(literal: Node): string | undefined {
  const call = literal.getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const found = new Set<string>();
  for (const arg of call.getArguments()) {
    if (arg === literal) continue;
    if (Node.isStringLiteral(arg) && METHODS.includes(arg.getLiteralValue().toUpperCase())) found.add(arg.getLiteralValue().toUpperCase());
    if (Node.isObjectLiteralExpression(arg)) {
      const m = arg.getProperty("method");
      const v = m && Node.isPropertyAssignment(m) ? m.getInitializer() : undefined;
      if (v && Node.isStringLiteral(v) && METHODS.includes(v.getLiteralValue().toUpperCase())) found.add(v.getLiteralValue().toUpperCase());
    }
  }
  // A verb method name: `http.delete(path)`.
  const callee = call.getExpression();
  if (Node.isPropertyAccessExpression(callee) && METHODS.includes(callee.getName().toUpperCase())) found.add(callee.getName().toUpperCase());
  return found.size === 1 ? [...found][0] : undefined;
}
