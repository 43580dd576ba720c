// openapi-fetch's middleware: `client.use({ onResponse({ response }) { … } })` runs on every answer
// of the client, failures included, and is the usual place to log or wrap the error body
// (`(await response.clone().json()).message`). Its `response` is the fetch Response of each call,
// so a v1 call of the client reaches the body reads there as it reaches its own.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import type { ClientHook } from "./client-hooks.ts";
import { bind, objectLiteral } from "./values.ts";
import { references } from "./references.ts";
import { functionNamed } from "./record-callees.ts";
import { isFunctionLike } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { skipParens } from "./nodes.ts";

/** The `response` of each `onResponse` middleware the call's client was given, and the middleware entries that cannot be read. */
export function openapiMiddleware(a: Analysis, http: HttpCall): { hooks: ClientHook[]; unfollowed: Node[] } {
  const hooks: ClientHook[] = [];
  const unfollowed: Node[] = [];
  const callee = unwrapExpression(http.call.getExpression());
  const client = Node.isPropertyAccessExpression(callee) ? unwrapExpression(callee.getExpression()) : undefined;
  const b = client && Node.isIdentifier(client) ? bind(a, client) : undefined;
  const name = b?.kind === "var" && !b.path.length ? ((b.decl as any).getNameNode?.() as Node | undefined) : undefined;
  if (!name || !Node.isIdentifier(name)) return { hooks, unfollowed };
  for (const r of references(name)) {
    const use = skipParens(r).getParent();
    const call = use?.getParent();
    if (!use || !Node.isPropertyAccessExpression(use) || use.getName() !== "use" || !call || !Node.isCallExpression(call) || call.getExpression() !== use) continue;
    for (const arg of call.getArguments()) {
      const obj = objectLiteral(a, arg);
      if (!obj || !Node.isObjectLiteralExpression(obj)) {
        unfollowed.push(arg);
        continue;
      }
      const entry = obj.getProperty("onResponse");
      if (!entry) continue;
      const given = Node.isPropertyAssignment(entry) ? unwrapExpression(entry.getInitializer()!) : entry;
      const fn = isFunctionLike(given) ? given : Node.isIdentifier(given) ? functionNamed(a, given) : undefined;
      const param = fn && ((fn as any).getParameters?.()[0] as Node | undefined);
      const bound = param && Node.isParameterDeclaration(param) ? param.getNameNode() : undefined;
      // `({ response })`: the Response; `(ctx)` read as `ctx.response` is not followed.
      const el = bound && Node.isObjectBindingPattern(bound) ? bound.getElements().find((e) => (e.getPropertyNameNode()?.getText() ?? e.getName()) === "response") : undefined;
      if (el && Node.isIdentifier(el.getNameNode())) hooks.push({ param: el.getNameNode(), takes: "fetch-response", foreign: false });
      // (A pattern without `response`, or no parameter, reads no body.)
      else if (!fn || el || (bound && !Node.isObjectBindingPattern(bound))) unfollowed.push(entry);
    }
  }
  return { hooks, unfollowed };
}
