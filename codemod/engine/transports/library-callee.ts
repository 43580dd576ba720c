// Whether a call is made to an HTTP library itself (its function, or an instance's method), read
// from the callee alone: descriptors.ts asks it (through call-reader.ts) before counting a
// descriptor handed whole to the call as sent, without reading the call (which reads the descriptor).
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { unwrapExpression } from "../urls.ts";
import { rootOf } from "./index.ts";

/**
 * `axios(…)`, `axios.request(…)`, `fetch(…)`, `api.request(…)` of an instance: not a project wrapper or
 * helper; or, for `given` (an argument of the call), a project helper whose one options argument
 * carries the path, method and body (`send({ method, path, body })`) given it there.
 */
export function libraryCallee(a: Analysis, call: CallExpression, given?: Node): boolean {
  const callee = unwrapExpression(call.getExpression());
  const root = rootOf(a, callee) ?? (Node.isPropertyAccessExpression(callee) ? rootOf(a, callee.getExpression()) : undefined);
  if (root?.lib === "helper") return !!given && !!root.sig.pathKey && !root.sig.configForm && call.getArguments()[root.sig.pathIndex] === given;
  return !!root && "lib" in root && !("wrapper" in root && root.wrapper);
}
