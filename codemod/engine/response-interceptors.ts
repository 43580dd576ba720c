// What an axios call resolves to when its instance has response interceptors
// (`api.interceptors.response.use(onSuccess, onError)`): axios hands every answer of that instance
// through them, so `(r) => r.data` makes each call resolve to the body itself (read as if `.data`
// were), `(r) => r` (or none, `use(undefined, onError)`) leaves the answer as it is, and any other
// handler gives a value of the interceptor's own form, which the codemod cannot read. Interceptors
// of `axios` itself serve the calls made on `axios`, not the instances it creates.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { isFunctionLike } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { functionNamed } from "./record-callees.ts";
import { callersOf, instanceKey, responseInterceptors } from "./caught-errors.ts";
import { bind, returnedExpressions } from "./values.ts";
import { skipParens } from "./nodes.ts";

/** `body`: the call resolves to the parsed body. `unknown`: to what an interceptor the codemod cannot read returns. */
export type InterceptedAnswer = { form: "body" } | { form: "unknown"; why: string };

type Handler = { form: "none" | "body" } | { form: "unknown"; why: string };

const indexes = new WeakMap<Analysis, Map<string, Handler[]>>();

/** What the answer of an axios call (a call on an instance, or on axios) becomes through its instance's response interceptors. */
export function interceptedAnswer(a: Analysis, call: Node): InterceptedAnswer | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrapExpression(call.getExpression());
  const key = instanceKey(a, Node.isPropertyAccessExpression(callee) ? callee.getExpression() : callee);
  const handlers = key ? index(a).get(key) : undefined;
  if (!handlers?.length) return undefined;
  const unknown = handlers.find((h) => h.form === "unknown");
  if (unknown) return unknown as InterceptedAnswer;
  const unwraps = handlers.filter((h) => h.form === "body").length;
  if (unwraps === 1) return { form: "body" };
  // Two unwrapping interceptors read `.data` of the body: a value of its own form.
  return unwraps > 1 ? { form: "unknown", why: `${unwraps} response interceptors each read .data of what the one before gives` } : undefined;
}

function index(a: Analysis): Map<string, Handler[]> {
  let found = indexes.get(a);
  if (found) return found;
  found = new Map();
  indexes.set(a, found);
  for (const { call, instance } of responseInterceptors(a)) {
    const form = handlerForm(a, call.getArguments()[0], `${call.getSourceFile().getBaseName()}:${call.getStartLineNumber()}`);
    for (const key of instanceKeys(a, instance)) found.set(key, [...(found.get(key) ?? []), form]);
  }
  return found;
}

/** The instances an interceptor is set on: the instance itself, or, set up by a function (`setup(api)`), the one each caller gives it. */
function instanceKeys(a: Analysis, expr: Node): string[] {
  const own = instanceKey(a, expr);
  if (own) return [own];
  const n = unwrapExpression(expr);
  const b = Node.isIdentifier(n) ? bind(a, n) : undefined;
  if (b?.kind !== "param" || b.path.length) return [];
  return callersOf(a, b.fn).flatMap((c) => {
    const arg = (c as any).getArguments?.()[b.index] as Node | undefined;
    const key = arg && instanceKey(a, arg);
    return key ? [key] : [];
  });
}

/** What one success handler does with the answer it is given. */
function handlerForm(a: Analysis, handler: Node | undefined, where: string): Handler {
  const h = handler && unwrapExpression(handler);
  if (!h || Node.isNullLiteral(h) || h.getText() === "undefined") return { form: "none" };
  const fn = isFunctionLike(h) ? h : Node.isIdentifier(h) || Node.isPropertyAccessExpression(h) ? functionNamed(a, h) : undefined;
  const unknown = { form: "unknown" as const, why: `the response interceptor ${short(h)} (${where}) gives calls a value of its own form` };
  const param = (fn as any)?.getParameters?.()[0]?.getNameNode?.() as Node | undefined;
  if (!fn || !param || !endsInReturn(fn)) return unknown;
  const returns = returnedExpressions(fn).map((r) => unwrapExpression(r));
  if (!returns.length) return unknown;
  if (Node.isIdentifier(param)) {
    const name = param.getText();
    if (returns.every((r) => r.getText() === name) && !writesMember(fn, name)) return { form: "none" };
    if (returns.every((r) => Node.isPropertyAccessExpression(r) && r.getName() === "data" && unwrapExpression(r.getExpression()).getText() === name)) return { form: "body" };
    return unknown;
  }
  // `({ data }) => data`
  if (Node.isObjectBindingPattern(param)) {
    const els = param.getElements();
    const data = els.find((e) => (e.getPropertyNameNode()?.getText() ?? e.getName()) === "data" && !e.getDotDotDotToken());
    const local = data && Node.isIdentifier(data.getNameNode()) ? data.getNameNode().getText() : undefined;
    if (local && returns.every((r) => r.getText() === local)) return { form: "body" };
  }
  return unknown;
}

/** An arrow with an expression body, or a block whose last statement returns (no path falls off its end to `undefined`). */
function endsInReturn(fn: Node): boolean {
  const body = (fn as any).getBody?.() as Node | undefined;
  if (!body) return false;
  if (!Node.isBlock(body)) return true;
  const last = body.getStatements().at(-1);
  return !!last && (Node.isReturnStatement(last) || Node.isThrowStatement(last));
}

/** `r.data = camelize(r.data)`: the handler changes the answer it hands on. */
function writesMember(fn: Node, name: string): boolean {
  return fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((b) => {
    if (b.getOperatorToken().getKind() < SyntaxKind.FirstAssignment || b.getOperatorToken().getKind() > SyntaxKind.LastAssignment) return false;
    let left: Node = skipParens(b.getLeft());
    while (Node.isPropertyAccessExpression(left) || Node.isElementAccessExpression(left)) left = unwrapExpression(left.getExpression());
    return left !== skipParens(b.getLeft()) && left.getText() === name;
  });
}

function short(n: Node): string {
  const t = n.getText().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}…` : t;
}
