// Whether a URL test's answer only chooses a request's headers: an interceptor that adds the key to
// RunPod's requests (`if (!req.url.startsWith(BASE)) return next(req); return next(req.clone({ setHeaders }))`,
// `if (config.url?.startsWith(BASE)) config.headers.Authorization = …; return config`), or a headers
// value chosen by it (`headers: url.startsWith(BASE) ? auth : {}`). Such a test may be widened to
// match a call kept on a v1 base of its own too (prefix-tests.ts): the kept call then gets the same
// headers it got before the rewrite, and nothing else the test decides changes. Anything else the
// answer chooses (a URL, a parser, an error read, a value returned to callers) is not known here.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { resolveIdentifier } from "./scope.ts";

const HEADER_KEY = /^(?:headers|setHeaders|authorization|Authorization)$/;

/** Whether the answer of `test` (a boolean call) only decides which headers a request carries. */
export function choosesHeadersOnly(test: Node): boolean {
  let cond: Node = test;
  for (let p = cond.getParent(); p; p = cond.getParent()) {
    const negated = Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken;
    const joined = Node.isBinaryExpression(p) && ["&&", "||"].includes(p.getOperatorToken().getText());
    if (!negated && !joined && !Node.isParenthesizedExpression(p)) break;
    cond = p;
  }
  const p = cond.getParent();
  if (!p) return false;
  if (inHeaderSlot(cond)) return true;
  if (Node.isConditionalExpression(p) && p.getCondition() === cond) return inHeaderSlot(p) || (headerOnlyValue(p.getWhenTrue()) && headerOnlyValue(p.getWhenFalse()));
  if (!Node.isIfStatement(p) || p.getExpression() !== cond) return false;
  const then = p.getThenStatement();
  const otherwise = p.getElseStatement();
  if (!headerOnlyStatement(then) || (otherwise && !headerOnlyStatement(otherwise))) return false;
  // `if (!match) return next(req);` with no else: the statements after it are the other answer.
  if (!otherwise && returns(then)) {
    const block = p.getParent();
    if (!block || !Node.isBlock(block)) return false;
    const rest = block.getStatements().slice(block.getStatements().indexOf(p as never) + 1);
    return rest.every(headerOnlyStatement);
  }
  return true;
}

function returns(st: Node): boolean {
  if (Node.isReturnStatement(st)) return true;
  if (Node.isBlock(st)) {
    const last = st.getStatements().at(-1);
    return !!last && Node.isReturnStatement(last);
  }
  return false;
}

/** The value sits where headers are written (`headers: …`, `setHeaders: { … }`, `const headers = …`). */
function inHeaderSlot(n: Node): boolean {
  let x = n;
  for (let p = x.getParent(); p; x = p, p = p.getParent()) {
    if (Node.isParenthesizedExpression(p) || Node.isSpreadAssignment(p) || Node.isObjectLiteralExpression(p)) continue;
    if (Node.isConditionalExpression(p) && p.getCondition() !== x) continue;
    if (Node.isBinaryExpression(p) && ["&&", "||", "??"].includes(p.getOperatorToken().getText()) && p.getRight() === x) continue;
    if (Node.isPropertyAssignment(p)) {
      if (HEADER_KEY.test(p.getName())) return true;
      continue;
    }
    if (Node.isVariableDeclaration(p)) return /headers$/i.test(p.getName());
    return false;
  }
  return false;
}

function headerOnlyStatement(st: Node): boolean {
  if (Node.isBlock(st)) return st.getStatements().every(headerOnlyStatement);
  if (Node.isReturnStatement(st)) {
    const e = st.getExpression();
    return !e || headerOnlyValue(e);
  }
  if (Node.isVariableStatement(st)) return st.getDeclarations().every((d) => !!d.getInitializer() && headerOnlyValue(d.getInitializer()!));
  if (Node.isExpressionStatement(st)) {
    const e = bare(st.getExpression());
    // `config.headers.Authorization = …`, `req.headers = { … }`.
    if (Node.isBinaryExpression(e) && e.getOperatorToken().getKind() === SyntaxKind.EqualsToken) return namesHeaders(e.getLeft());
    // `headers.set("Authorization", …)`, `config.headers.append(…)`.
    if (Node.isCallExpression(e)) {
      const callee = e.getExpression();
      if (Node.isPropertyAccessExpression(callee) && ["set", "append"].includes(callee.getName()) && namesHeaders(callee.getExpression())) return true;
      return headerOnlyValue(e);
    }
  }
  return false;
}

/** An access chain through a headers object (`config.headers.Authorization`, `headers`). */
function namesHeaders(n: Node): boolean {
  let x: Node = bare(n);
  while (true) {
    if (Node.isPropertyAccessExpression(x)) {
      if (HEADER_KEY.test(x.getName())) return true;
      x = bare(x.getExpression());
    } else if (Node.isElementAccessExpression(x)) {
      x = bare(x.getExpression());
    } else return Node.isIdentifier(x) && /headers$/i.test(x.getText());
  }
}

/**
 * The request the interceptor was given (its first parameter) or a copy differing in its headers
 * (`req.clone({ setHeaders })`, `{ ...config, headers }`, a constant holding one), or the handler
 * it was given called with one (`next(req)`, `next.handle(authReq)`).
 */
function headerOnlyValue(n: Node): boolean {
  const e = bare(n);
  return requestValue(e) || (Node.isCallExpression(e) && handlerCall(e));
}

function requestValue(n: Node): boolean {
  const e = bare(n);
  if (Node.isIdentifier(e)) {
    const b = resolveIdentifier(e);
    if (b?.kind === "param") return b.index === 0 && !b.path.length;
    return b?.kind === "var" && b.isConst && !b.path.length && !!b.init && requestValue(b.init);
  }
  if (Node.isObjectLiteralExpression(e)) {
    const props = e.getProperties();
    return props.some((p) => Node.isSpreadAssignment(p)) && props.every((p) => (Node.isSpreadAssignment(p) ? requestValue(p.getExpression()) : (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && HEADER_KEY.test(p.getName())));
  }
  if (!Node.isCallExpression(e)) return false;
  // `req.clone({ setHeaders: { … } })`.
  const callee = bare(e.getExpression());
  const args = e.getArguments();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "clone" || !requestValue(callee.getExpression())) return false;
  return args.every((x) => {
    const o = bare(x);
    return Node.isObjectLiteralExpression(o) && o.getProperties().every((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && HEADER_KEY.test(p.getName()));
  });
}

/** `next(req)`, `next.handle(req)`: a later parameter of the interceptor, given the request. */
function handlerCall(e: Node & { getExpression(): Node; getArguments(): Node[] }): boolean {
  const callee = bare(e.getExpression());
  const handler = Node.isPropertyAccessExpression(callee) && callee.getName() === "handle" ? bare(callee.getExpression()) : callee;
  const b = Node.isIdentifier(handler) ? resolveIdentifier(handler) : undefined;
  if (b?.kind !== "param" || b.index === 0) return false;
  const args = e.getArguments();
  return args.length === 1 && requestValue(args[0]!);
}

function bare(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAsExpression(x) || Node.isNonNullExpression(x) || Node.isAwaitExpression(x)) x = x.getExpression();
  return x;
}
