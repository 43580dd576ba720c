// A request helper that takes its base as a parameter (`call(base, key, method, path)` fetching
// `${base}${path}`): each call says which API it speaks to. A call given another API's base
// (`call(CATALOG, key, "GET", "/catalog/gpus")`, CATALOG the v2 base) is no v1 call. A call given
// the v1 base accounts for that argument: the helper only joins it to the path, so the base flips
// with the calls that migrate (a kept call is given the declared v1 base in the same slot,
// helper-redirect.ts).
import { Node } from "../ts-morph.ts";
import { V1_HOST } from "../../mappings/bases.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { optionsOf } from "./evaluate/value.ts";
import { givenSlot } from "./helper-redirect.ts";
import { plainParameterUses } from "./nodes.ts";
import { unwrapExpression } from "./urls.ts";
import { replaceNode } from "./text-edit.ts";
import { nameFor, type Redirect } from "./v1-redirect.ts";

const V1_PATH = /\/v1\/?$/;

/** The argument a helper call gives as the helper's whole base (the v1 base, or another API's: `other`), known as written. */
export function baseArgument(a: Analysis, http: HttpCall): { arg: Node; other: boolean } | undefined {
  const fn = http.lib === "helper" ? (http.helper?.fn as Node | undefined) : undefined;
  const anchor = fn && a.helperAnchors.get(fn);
  const slot = anchor && givenSlot(fn!, anchor.node, http.call);
  const given = slot && slotValue(slot);
  if (!given || !Node.isFunctionLikeDeclaration(fn)) return undefined;
  // The parameter (or its key) is read once, as the base of the helper's URL (nothing else it builds from it is unseen).
  const param = fn.getParameters()[http.call.getArguments().indexOf(slot!.arg)];
  if (!param || !readOnceAsBase(param, slot!.key, unwrapExpression(anchor!.node))) return undefined;
  const options = optionsOf(a.evaluator.evaluate(given));
  // Every value it can hold is known text naming neither the v1 host nor a /v1 base (a mirror's is given-base.ts's),
  // where the v1 calls give the whole v1 base there (the helper adds no `/v1` of its own).
  const known = options.length > 0 && options.every((o) => o.kind === "string");
  // A base a caller's options may override (`(options.catalogBase ?? V2).replace(…)`):
  // every value written in the project names one API, so the call speaks to that one (the option is marked at the declaration).
  const written = options.filter((o) => o.kind === "string");
  // (An environment variable's value is left alone: helpers/base-parameter-env-override.)
  const overridable = written.length > 0 && options.every((o) => o.kind === "string" || o.kind === "dynamic");
  const other = V1_PATH.test(anchor!.value) && (known || overridable) && written.every((o) => o.kind === "string" && !o.text.includes(V1_HOST) && !V1_PATH.test(o.text));
  // Only a base known as written is the call's to account for (one an environment can set stays followed as before).
  const v1 = (known || overridable) && written.every((o) => o.kind === "string" && o.text.includes(V1_HOST));
  return v1 || other ? { arg: given, other } : undefined;
}

/** What a call gives in a helper's base slot: the argument, or the value of its key in an object literal (`{ base: REST }`, `{ base }`). */
function slotValue(slot: { arg: Node; key?: string }): Node | undefined {
  if (slot.key === undefined) return slot.arg;
  const o = unwrapExpression(slot.arg);
  const p = Node.isObjectLiteralExpression(o) ? o.getProperty(slot.key) : undefined;
  if (Node.isPropertyAssignment(p)) return p.getInitializer();
  return Node.isShorthandPropertyAssignment(p) ? p.getNameNode() : undefined;
}

/** Whether the helper reads its base parameter (or that parameter's `key`) exactly once: at `anchor`. */
function readOnceAsBase(param: Node, key: string | undefined, anchor: Node): boolean {
  const uses = plainParameterUses(param);
  if (!uses) return false;
  if (key === undefined) return uses.refs.length === 1 && uses.refs[0] === anchor;
  const reads = uses.refs.map((r) => r.getParent()).filter((p) => Node.isPropertyAccessExpression(p) && p.getName() === key);
  return reads.length === 1 && reads[0] === anchor;
}

/**
 * A helper over a helper given its base per call (`api(base, path) => http(base, path).then(…)`),
 * which hands the inner helper's base slot its own parameter, read nowhere else: that parameter is
 * this helper's base slot too, so its callers' bases are followed through every level.
 */
export function handedBaseAnchor(a: Analysis, fn: Node, http: HttpCall): { node: Node; value: string } | undefined {
  const inner = http.helper?.fn as Node | undefined;
  const anchor = inner && a.helperAnchors.get(inner);
  const slot = anchor && givenSlot(inner!, anchor.node, http.call);
  const given = slot && slotValue(slot);
  if (!given || !Node.isFunctionLikeDeclaration(fn)) return undefined;
  // This helper's parameter, or a key of its options parameter (`opts.base`), read nowhere else.
  const arg = unwrapExpression(given);
  const root = Node.isPropertyAccessExpression(arg) ? unwrapExpression(arg.getExpression()) : arg;
  if (!Node.isIdentifier(root)) return undefined;
  const param = fn.getParameters().find((p) => plainParameterUses(p)?.refs.includes(root));
  const key = root === arg ? undefined : (arg as Node & { getName(): string }).getName();
  return param && readOnceAsBase(param, key, arg) ? { node: arg, value: anchor!.value } : undefined;
}

/** The helper's parameter that is its whole base (`api(base, path)`), which is no options a caller gives. */
export function baseParamIndex(a: Analysis, fn: Node): number | undefined {
  const anchor = a.helperAnchors.get(fn);
  const e = anchor && unwrapExpression(anchor.node);
  if (!e || !Node.isIdentifier(e) || !Node.isFunctionLikeDeclaration(fn)) return undefined;
  const i = fn.getParameters().findIndex((p) => plainParameterUses(p)?.refs.includes(e));
  return i >= 0 ? i : undefined;
}

/**
 * A marked call given the v1 base in the helper's base parameter keeps v1 by giving the declared v1
 * base there instead (the name it gave flips to v2 with the calls that migrate).
 */
export function baseArgumentRedirect(a: Analysis, http: HttpCall, anchorValue: string): Redirect | undefined {
  const given = baseArgument(a, http);
  const target = nameFor(anchorValue);
  if (!given || given.other || !target) return undefined;
  const name = target.slash ? `${target.name} + "/"` : target.name;
  // A shorthand key (`{ base }`) is written out, `{ base: RUNPOD_V1_BASE }`.
  const short = given.arg.getParent();
  const edit = Node.isShorthandPropertyAssignment(short) ? replaceNode(short, `${short.getName()}: ${name}`) : replaceNode(given.arg, name);
  return { edits: [edit], names: [target.name] };
}
