// ofetch's failure path: a failed call throws a FetchError whose `data` is the parsed error body
// (also `response._data`), and an instance's `onResponseError({ response })` / `onRequestError`
// hooks see `response._data` before it is thrown. Both are error bodies of every call of the
// instance (error-reads.ts settles their form once do no harm has decided which calls migrate).
import { Node, type CallExpression } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { followPath } from "./caught-errors.ts";
import { optionsOf } from "./evaluate/value.ts";
import { objectLiteral } from "./values.ts";
import { unwrapExpression } from "./urls.ts";

const HOOKS = ["onResponseError", "onResponse"];

export function ofetchFailureBodies(a: Analysis, http: HttpCall, holders: Node[], add: (body: Node) => void): void {
  if (http.jsonSerialiser !== "ofetch") return;
  for (const holder of holders) {
    followPath(a, holder, ["data"], add);
    followPath(a, holder, ["response", "_data"], add);
  }
  for (const param of hookParams(a, http.call)) followPath(a, param, ["response", "_data"], add);
}

/** The first parameter of each response hook given to the factory that made the called instance. */
function hookParams(a: Analysis, call: CallExpression): Node[] {
  const out: Node[] = [];
  const callee = unwrapExpression(call.getExpression());
  for (const o of optionsOf(a.evaluator.evaluate(callee))) {
    if (o.kind !== "made" || !Node.isCallExpression(o.call)) continue;
    const opts = objectLiteral(a, o.call.getArguments()[0]);
    if (!opts || !Node.isObjectLiteralExpression(opts)) continue;
    for (const name of HOOKS) {
      const p = opts.getProperty(name);
      const fn = p && Node.isPropertyAssignment(p) ? unwrapExpression(p.getInitializerOrThrow()) : p;
      const param = fn && (Node.isMethodDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? fn.getParameters()[0]?.getNameNode() : undefined;
      if (param) out.push(param);
    }
  }
  return out;
}
