// Where the parsed response body of a call is read: `await res.json()`, `JSON.parse(await
// res.text())`, axios `res.data`, got/ky `.json()`, undici `body.json()`, `.then(r => r.json())`,
// and the awaited result of a helper that returns the body.
import { Node } from "../ts-morph.ts";
import { enclosingFunction } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { responseHandedTo } from "./response-handed.ts";

/**
 * `handed`: the Response is handed to a function of the project that uses it in a way not
 * followed (the node is that call): where the body goes there is not known.
 */
export type BodySite = { kind: "value" | "promise" | "binding" | "handed"; node: Node; why?: string };

/** `JSON.parse(x)` around a node, if any. */
function jsonParseAround(node: Node): Node | undefined {
  const outer = skipParens(node);
  const p = outer.getParent();
  if (p && Node.isCallExpression(p) && p.getExpression().getText() === "JSON.parse" && p.getArguments()[0] === outer) return p;
  return undefined;
}

export function bodySites(a: Analysis, http: HttpCall): BodySite[] {
  // A call by convention reads its answer the way the code around it does.
  if (http.lib === "convention") {
    if (http.style === "body") return bodySites(a, { ...http, lib: "helper", helper: { kind: "helper", base: "", pathIndex: 0, returnsBody: true, serialisesBody: true } });
    if (!http.style) return [];
    return bodySites(a, { ...http, lib: http.style === "data" ? "axios" : "fetch" });
  }
  const sites: BodySite[] = [];
  const addPromise = (promise: Node, parsesText = false) => {
    let p = promise;
    // `res.json().catch(() => null)`: the body (or the fallback) is the awaited value.
    for (let up = skipParens(p).getParent(); up && Node.isPropertyAccessExpression(up) && up.getName() === "catch" && Node.isCallExpression(up.getParent()); up = skipParens(p).getParent()) p = up.getParent()!;
    const parent = skipParens(p).getParent();
    if (parent && Node.isAwaitExpression(parent)) {
      // `JSON.parse(await res.text())`: the value is the parse.
      if (parsesText) {
        const parse = jsonParseAround(parent);
        if (parse) sites.push({ kind: "value", node: parse });
        // `const raw = await res.text(); … JSON.parse(raw)`: each parse of the text is the body.
        const decl = skipParens(parent).getParent();
        if (!parse && decl && Node.isVariableDeclaration(decl) && Node.isIdentifier(decl.getNameNode())) {
          for (const ref of referencesOf(enclosingFunction(decl), decl.getNameNode())) {
            const p = jsonParseAround(ref);
            if (p) sites.push({ kind: "value", node: p });
          }
        }
        return;
      }
      sites.push({ kind: "value", node: parent });
    } else if (!parsesText) sites.push({ kind: "promise", node: p });
  };
  const call = http.call;
  // A helper that returns the fetch Response: its callers read the body as fetch's do.
  if (http.lib === "helper" && http.helper?.returnsResponse) return bodySites(a, { ...http, lib: "fetch", helper: undefined });
  if (http.lib === "helper" || http.wrapper?.returnsBody) {
    if (http.helper?.returnsBody || http.wrapper?.returnsBody) addPromise(call);
    if (http.helper?.resultBodyKey) resultKeyReads(call, http.helper.resultBodyKey, sites);
    return sites;
  }
  const outer = skipParens(call);
  const parent = outer.getParent();
  if ((http.lib === "got" || http.lib === "ky") && parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "json") {
    const c = parent.getParent();
    if (c && Node.isCallExpression(c)) addPromise(c);
    return sites;
  }
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "then") {
    const thenCall = parent.getParent();
    const cb = thenCall && Node.isCallExpression(thenCall) ? thenCall.getArguments()[0] : undefined;
    if (cb && Node.isArrowFunction(cb)) {
      const body = unwrapExpression(cb.getBody());
      const pname = cb.getParameters()[0]?.getName();
      if (pname && readsBody(body, pname, http.lib)) addPromise(thenCall!);
    }
    return sites;
  }
  const awaited = parent && Node.isAwaitExpression(parent) ? parent : undefined;
  if (!awaited) return sites;
  const up = skipParens(awaited).getParent();
  if (!up) return sites;
  // A fetch Response handed to a function of the project (`unwrap<Pod[]>(await fetch(…))`).
  const handed = (response: Node) => {
    const h = http.lib === "fetch" ? responseHandedTo(a, response) : undefined;
    if (h?.kind === "body") addPromise(h.call);
    else if (h) sites.push({ kind: "handed", node: h.call, why: h.why });
  };
  if (Node.isPropertyAccessExpression(up)) {
    responseMember(up, http.lib, addPromise, sites);
    return sites;
  }
  if (Node.isCallExpression(up)) handed(awaited);
  if (Node.isVariableDeclaration(up)) {
    const name = up.getNameNode();
    const scope = enclosingFunction(up);
    if (Node.isIdentifier(name)) {
      for (const ref of referencesOf(scope, name)) {
        const p = ref.getParent();
        if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === ref) responseMember(p, http.lib, addPromise, sites);
        else if (p && Node.isCallExpression(p)) handed(ref);
      }
    } else if (Node.isObjectBindingPattern(name)) {
      for (const el of name.getElements()) {
        const key = el.getPropertyNameNode()?.getText() ?? el.getName();
        if (http.lib === "axios" && key === "data") sites.push({ kind: "binding", node: el });
        if (http.lib === "undici-request" && key === "body" && Node.isIdentifier(el.getNameNode())) {
          for (const ref of referencesOf(scope, el.getNameNode())) {
            const p = ref.getParent();
            if (p && Node.isPropertyAccessExpression(p) && p.getName() === "json" && Node.isCallExpression(p.getParent())) addPromise(p.getParent()!);
          }
        }
      }
    }
  }
  return sites;
}

function readsBody(expr: Node, name: string, lib: HttpCall["lib"]): boolean {
  const t = expr.getText().replace(/\s/g, "");
  if (lib === "axios") return t === `${name}.data`;
  if (lib === "undici-request") return t === `${name}.body.json()`;
  return t === `${name}.json()`;
}

function responseMember(access: Node & { getName(): string; getParent(): Node | undefined }, lib: HttpCall["lib"], addPromise: (p: Node, parsesText?: boolean) => void, sites: BodySite[]): void {
  const name = access.getName();
  const parent = access.getParent();
  if ((lib === "fetch" || lib === "got" || lib === "ky") && name === "json" && parent && Node.isCallExpression(parent)) addPromise(parent);
  else if ((lib === "fetch" || lib === "got" || lib === "ky") && name === "text" && parent && Node.isCallExpression(parent)) addPromise(parent, true);
  else if (lib === "axios" && name === "data") sites.push({ kind: "value", node: access });
  else if (lib === "undici-request" && name === "body" && parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "json") {
    const c = parent.getParent();
    if (c && Node.isCallExpression(c)) addPromise(c);
  }
}

/** `const r = await rest(…)`, then `r.corps` (or `(await rest(…)).corps`): each read of the key is the body. */
function resultKeyReads(call: Node, key: string, sites: BodySite[]): void {
  const awaited = skipParens(call).getParent();
  if (!awaited || !Node.isAwaitExpression(awaited)) return;
  const up = skipParens(awaited).getParent();
  const isKey = (n: Node | undefined): n is Node => !!n && Node.isPropertyAccessExpression(n) && n.getName() === key;
  if (isKey(up) && (up as any).getExpression() === skipParens(awaited)) return void sites.push({ kind: "value", node: up });
  if (!up || !Node.isVariableDeclaration(up) || !Node.isIdentifier(up.getNameNode())) return;
  for (const ref of referencesOf(enclosingFunction(up), up.getNameNode())) {
    const p = ref.getParent();
    if (isKey(p) && (p as any).getExpression() === ref) sites.push({ kind: "value", node: p });
  }
}
