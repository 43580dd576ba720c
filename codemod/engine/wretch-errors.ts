// wretch's failure path: a failed call rejects with a WretchError whose `json` is the error body
// (parsed when the answer is JSON, as v2's `application/problem+json` is) and `text` the raw text.
// The error reaches the chain's catchers (`.notFound(cb)`, `.error(409, cb)`, an instance's
// `.catcher(code, cb)`) and whatever catches the chain's end (`.catch(cb)`, try/catch, a caller's).
// `.json` reads are error bodies (error-reads.ts settles their form); a `.text` read is a body
// the codemod cannot follow, said so (`hand`) when the call migrates.
import { manifestsAbove } from "./package-root.ts";
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import type { Edit } from "../types.ts";
import { textEdit } from "./text-edit.ts";
import { catchersOf, followPath, handlerParam } from "./caught-errors.ts";

/** The WretchError's names a failure of the call reaches: the chain's catchers' parameters and what catches the chain's end. */
function errorHolders(a: Analysis, http: HttpCall): Node[] {
  const w = http.wretch;
  if (!w) return [];
  const end = w.reader?.call ?? http.call;
  return [...catchersOf(a, end, true), ...w.catchers.map((cb) => handlerParam(a, cb)).filter((p): p is Node => !!p)];
}

export function wretchFailureBodies(a: Analysis, http: HttpCall, add: (body: Node) => void, hand: (call: Node, why: string) => void): void {
  for (const holder of errorHolders(a, http)) {
    followPath(a, holder, ["json"], add);
    followPath(a, holder, ["text"], (n) => hand(n, `the error's raw text (${n.getText()})`));
  }
}

/**
 * wretch 1 and 2 parse an error body into `error.json` only when the answer says
 * `application/json` (or the builder asks with `.errorType("json")`); v2 answers
 * `application/problem+json`, so a builder whose migrated calls' failure paths read `.json` asks
 * for it where it is made: `wretch(BASE).errorType("json")` (the text is parsed when it is JSON,
 * and kept as `.text` either way; v1's own JSON errors parse as before). The edit replaces the
 * call's closing parenthesis, so every site on the builder writes the same one once. The call is
 * the site's own chain, or the wretch chain inside its request helper. wretch 3 has no
 * `errorType` (and sets `json` only through `customError`): a project declaring it is left as it is.
 */
export function wretchErrorTypeEdit(a: Analysis, http: HttpCall): Edit | undefined {
  const inner = http.wretch ? [http] : http.lib === "helper" && http.helper?.fn ? (a.helperTransports.get(http.helper.fn as Node) ?? []).filter((t) => t.wretch) : [];
  const chain = inner.find((t) => !t.wretch!.errorTyped && errorHolders(a, t).some((h) => hasJsonRead(a, h)));
  if (!chain || wretchMajor(chain.call.getSourceFile().getFilePath()) >= 3) return undefined;
  const root = chain.wretch!.root;
  return textEdit(root, root.getEnd() - 1, root.getEnd(), `).errorType("json")`);
}

function hasJsonRead(a: Analysis, holder: Node): boolean {
  let found = false;
  followPath(a, holder, ["json"], () => (found = true));
  return found;
}

/** The major version of wretch the file's package declares (2 when none is found). */
function wretchMajor(file: string): number {
  for (const { json } of manifestsAbove(file, 12)) {
    const range: unknown = json?.dependencies?.wretch ?? json?.devDependencies?.wretch ?? json?.peerDependencies?.wretch;
    const m = typeof range === "string" ? /(\d+)/.exec(range) : null;
    if (m) return Number(m[1]);
  }
  return 2;
}
