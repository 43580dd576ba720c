// wretch's failure path: a failed call rejects with a WretchError whose `json` is the error body
// (parsed when the answer is JSON, as v2's `application/problem+json` is) and `text` the raw text.
// The error reaches the chain's catchers (`.notFound(cb)`, `.error(409, cb)`, an instance's
// `.catcher(code, cb)`) and whatever catches the chain's end (`.catch(cb)`, try/catch, a caller's).
// `.json` reads are error bodies (error-reads.ts settles their form); a `.text` read is a body
// the codemod cannot follow, said so (`hand`) when the call migrates.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { catchersOf, followPath, handlerParam } from "./caught-errors.ts";

export function wretchFailureBodies(a: Analysis, http: HttpCall, add: (body: Node) => void, hand: (call: Node, why: string) => void): void {
  const w = http.wretch;
  if (!w) return;
  const end = w.reader?.call ?? http.call;
  const holders = [...catchersOf(a, end, true), ...w.catchers.map((cb) => handlerParam(a, cb)).filter((p): p is Node => !!p)];
  for (const holder of holders) {
    followPath(a, holder, ["json"], add);
    followPath(a, holder, ["text"], (n) => hand(n, `the error's raw text (${n.getText()})`));
  }
}
