// The one HTTP-call reader, given to the passes that need it by the orchestrator (engine/index.ts):
// request helpers are found by reading the calls inside them, and calls are read through helpers,
// so the two modules meet here instead of importing each other.
import type { CallExpression, Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";

export type CallReader = (a: Analysis, call: CallExpression) => HttpCall | undefined;

let reader: CallReader | undefined;

export function setCallReader(r: CallReader): void {
  reader = r;
}

export function readCall(a: Analysis, call: CallExpression): HttpCall | undefined {
  if (!reader) throw new Error("internal: the call reader is not set (engine/index.ts sets it)");
  return reader(a, call);
}

export type LibraryCallee = (a: Analysis, call: CallExpression, given?: Node) => boolean;

let libraryCallee: LibraryCallee | undefined;

export function setLibraryCallee(r: LibraryCallee): void {
  libraryCallee = r;
}

/**
 * Whether a call's callee is an HTTP library's own function or an instance's (not a project wrapper),
 * read without reading the call; with `given`, also a project helper taking its path, method and body
 * in the options argument `given` is.
 */
export function callsLibrary(a: Analysis, call: CallExpression, given?: Node): boolean {
  if (!libraryCallee) throw new Error("internal: the library callee test is not set (engine/index.ts sets it)");
  return libraryCallee(a, call, given);
}
