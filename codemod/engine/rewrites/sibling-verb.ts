// `client.post(path, opts)` where v2 needs PATCH: when the receiver has a `patch` verb that is a
// request helper taking its arguments the same way (path, options, body keys, base, answer) and
// sending PATCH, calling it is the migration. Found by the receiver's type, read by value.
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { HelperSignature } from "../../types.ts";
import type { Analysis } from "../state.ts";
import { unwrapExpression } from "../urls.ts";
import { helperSignature } from "../helpers.ts";
import { verbNamesMethod } from "../outside-options.ts";

/** What a call's arguments and answer mean to a helper: two verbs agreeing on these differ only in their method. */
const SHAPE: (keyof HelperSignature)[] = ["base", "urlJoin", "pathIndex", "methodIndex", "bodyIndex", "optionsIndex", "pathKey", "methodKey", "bodyKey", "bodyKeys", "queryKeys", "queryIndex", "dropsBody", "bodyBuiltFrom", "pathPrefix", "returnsBody", "returnsResponse", "observable", "answerLib", "resultBodyKey", "resultWrapper", "serialisesBody", "receiverKey"];

/** The name node of `call`'s verb to rename to `to` (lower case), when the receiver's own `to` verb is that helper. */
export function siblingVerb(a: Analysis, call: CallExpression, sig: HelperSignature, to: string): Node | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !verbNamesMethod(call, sig.defaultMethod)) return undefined;
  let decl: Node | undefined;
  try {
    decl = callee.getExpression().getType().getProperty(to.toLowerCase())?.getDeclarations()[0];
  } catch {
    return undefined;
  }
  const fn = decl && Node.isPropertyDeclaration(decl) ? decl.getInitializer() : decl;
  const other = fn && (Node.isMethodDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? helperSignature(a, fn) : null;
  if (!other || !other.fixedMethod || other.defaultMethod !== to.toUpperCase()) return undefined;
  if (other.baseSource !== sig.baseSource || other.optionsMethod?.reaches !== sig.optionsMethod?.reaches) return undefined;
  const same = SHAPE.every((k) => JSON.stringify(other[k] ?? null) === JSON.stringify(sig[k] ?? null));
  return same ? callee.getNameNode() : undefined;
}
