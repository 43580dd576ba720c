// The project function a call runs, and the function a factory call returns
// (`const request = createRequest(key)` → the arrow `createRequest` returns): how a helper made by
// a factory is found from the name it is called by; and whether a call makes an object at all.
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { functionNamed } from "./record-callees.ts";
import { optionsOf } from "./evaluate/value.ts";

/** The function a factory call returns: `createRequest(key)` → the arrow it returns. */
export function factoryResult(a: Analysis, call: CallExpression): Node | undefined {
  const factory = calledFunction(a, call);
  return factory && returnedFunction(a, factory);
}

/** The project function a call by name runs (`make()`: a function declaration, or a variable holding one), not a class. */
export function calledFunction(a: Analysis, call: CallExpression): Node | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isIdentifier(callee)) return undefined;
  const b = bind(a, callee);
  const fn = b?.kind === "function" ? b.decl : b?.kind === "var" && b.init && isFunctionLike(unwrapExpression(b.init)) ? unwrapExpression(b.init) : undefined;
  return fn && !Node.isClassDeclaration(fn) ? fn : undefined;
}

function returnedFunction(a: Analysis, factory: Node): Node | undefined {
  if (Node.isArrowFunction(factory)) {
    const body = unwrapExpression(factory.getBody());
    if (isFunctionLike(body)) return body;
  }
  for (const r of factory.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (enclosingFunction(r) !== factory) continue;
    const e = r.getExpression() && unwrapExpression(r.getExpression()!);
    if (!e) continue;
    if (isFunctionLike(e)) return e;
    if (Node.isIdentifier(e)) {
      const rb = bind(a, e);
      if (rb?.kind === "function") return rb.decl;
      if (rb?.kind === "var" && rb.init && isFunctionLike(unwrapExpression(rb.init))) return unwrapExpression(rb.init);
    }
  }
  return undefined;
}

/** A call of a project function whose every return is an object (a factory of a client). */
export function makesObjects(a: Analysis, call: Node & { getExpression(): Node }): boolean {
  const fn = functionNamed(a, call.getExpression());
  return !!fn && optionsOf(a.evaluator.returns(fn, undefined)).every((o) => o.kind === "object");
}
