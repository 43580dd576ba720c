// openapi-fetch answers `{ data, error, response }`. Where one call's body (`data`) and error body
// (`error`) are read when the answer is not destructured at the call: held in a variable
// (`res.data.desiredStatus`, `res.error.message`, also `const res = on ? await A : await B`), or
// handed to a function of the project that reads `res.error` and returns `res.data`
// (`unwrap(await api.GET(…))`): that call's value is the body, at this call only. A function that
// uses `data` any other way is not followed, and says so (the site is marked by the record pass).
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { argumentCallee } from "./record-callees.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";

export interface OpenapiAnswer {
  /** Body reads (`res.data`, the helper call returning it) and calls that take the body where it is not followed. */
  bodies: { kind: "value" | "handed"; node: Node; why?: string }[];
  /** `res.error` nodes: the error body, on the failure path. */
  errors: Node[];
}

/** The awaited answer of an openapi-fetch call and where its `data` and `error` go. */
export function openapiAnswer(a: Analysis, call: Node): OpenapiAnswer {
  const out: OpenapiAnswer = { bodies: [], errors: [] };
  const awaited = skipParens(call).getParent();
  if (!awaited || !Node.isAwaitExpression(awaited)) return out;
  let value = skipParens(awaited);
  // `const res = on ? await api.POST(A) : await api.POST(B)`: either branch is the value.
  for (let p = value.getParent(); p && Node.isConditionalExpression(p) && p.getCondition() !== value; p = value.getParent()) value = skipParens(p);
  const decl = value.getParent();
  if (decl && Node.isVariableDeclaration(decl) && decl.getInitializer() === value) {
    const name = decl.getNameNode();
    // `const { data, error } = await …`: `data` is read by the destructuring passes; the name bound
    // to `error` is the error body, followed wherever it goes (a cast, a variable, a helper's parameter).
    if (Node.isIdentifier(name)) for (const r of referencesOf(enclosingFunction(decl), name)) answerUse(a, r, out, undefined);
    if (Node.isObjectBindingPattern(name)) {
      const el = name.getElements().find((e) => (e.getPropertyNameNode()?.getText() ?? e.getName()) === "error");
      if (el && !el.getDotDotDotToken() && Node.isIdentifier(el.getNameNode())) out.errors.push(el.getNameNode());
    }
    return out;
  }
  answerUse(a, value, out, undefined);
  return out;
}

/** One use of the answer; `entry`: the call of the project's function it was handed to (its value is then the body). */
function answerUse(a: Analysis, ref: Node, out: OpenapiAnswer, entry: Node | undefined): void {
  const outer = skipParens(ref);
  const p = outer.getParent();
  if (!p) return;
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    if (p.getName() === "error") out.errors.push(p);
    if (p.getName() !== "data") return;
    if (!entry) return void out.bodies.push({ kind: "value", node: p });
    if (returnedFrom(p, enclosingFunction(p))) out.bodies.push({ kind: "value", node: entry });
    else out.bodies.push({ kind: "handed", node: entry, why: `reads its data for more than returning it (${p.getSourceFile().getBaseName()}:${p.getStartLineNumber()})` });
    return;
  }
  if (entry || !Node.isCallExpression(p)) return;
  const callee = argumentCallee(a, outer);
  const name = callee && (callee.param as any).getNameNode?.();
  if (!callee || !name || !Node.isIdentifier(name)) return;
  for (const r of referencesOf(callee.fn, name)) answerUse(a, r, out, p);
}

/** `return res.data`, `return res.data as T`, `(res) => res.data!`. */
function returnedFrom(value: Node, fn: Node): boolean {
  const up = skipParens(value).getParent();
  if (!up) return false;
  if (Node.isReturnStatement(up)) return enclosingFunction(up) === fn;
  return Node.isArrowFunction(up) && up === fn;
}
