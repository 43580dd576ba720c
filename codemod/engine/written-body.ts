// The body a request helper writes into its own options variable before the send
// (`const init: RequestInit = { method: "POST" }; if (body !== undefined) init.body = JSON.stringify(body);
// return request(path, init)`): the variable is the options the transport is given, and the one
// assignment to its `body` is the body sent (absent where that branch is not taken). Anything else
// changing the variable (another write, handed to a function, a spread of unknown options) leaves it unread.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { referencesOf } from "./nodes.ts";
import { bodyOf } from "./transports/call-parts.ts";
import type { HttpCall } from "./transports/transport.ts";

/** The call read with the body written into its options variable, when that is the only change made to it. */
export function withWrittenBody(a: Analysis, fn: Node, http: HttpCall): HttpCall {
  if (http.body || !http.options) return http;
  // (The options read by value are the variable's literal itself: its declaration holds it.)
  const opts = unwrapExpression(http.options);
  const b = Node.isIdentifier(opts) ? bind(a, opts) : undefined;
  const decl = b?.kind === "var" && !b.path.length ? b.decl : Node.isObjectLiteralExpression(opts) ? opts.getParent() : undefined;
  if (!decl || !Node.isVariableDeclaration(decl) || !decl.getFirstAncestor((n) => n === fn)) return http;
  const init = decl.getInitializer() && unwrapExpression(decl.getInitializer()!);
  if (!init || !Node.isObjectLiteralExpression(init) || init.getProperty("body") || init.getProperties().some((p) => !Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p))) return http;
  const name = decl.getNameNode();
  if (!Node.isIdentifier(name)) return http;
  const sent = http.call.getArguments().map((x) => unwrapExpression(x));
  let written: Node | undefined;
  for (const r of referencesOf(fn, name)) {
    if (r === name || sent.includes(r)) continue;
    const up = r.getParent();
    const assign = up && Node.isPropertyAccessExpression(up) && up.getExpression() === r ? up.getParent() : undefined;
    const isBodyWrite = !!assign && Node.isBinaryExpression(assign) && assign.getLeft() === up && assign.getOperatorToken().getKind() === SyntaxKind.EqualsToken && (up as any).getName() === "body";
    if (!isBodyWrite || written) return http;
    written = (assign as any).getRight() as Node;
  }
  return written ? { ...http, body: bodyOf(written, written.getParent()) } : http;
}
