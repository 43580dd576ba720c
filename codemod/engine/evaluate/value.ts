// What the evaluator knows an expression holds. Modelled on a partial evaluator: every answer is
// either a resolved value (a string with the literal it comes from, an object, a function, an
// instance of a project class, an object made by a call the evaluator cannot see into, an
// environment variable, a choice between values) or a dynamic value that carries the node where
// knowledge stopped and why, chained back towards the expression that was asked about.
import type { Node } from "../../ts-morph.ts";

/** Parameters bound to the arguments of one call (a scope per call), and the frame of that call. */
export interface Frame {
  args: Map<Node, { arg: Node | undefined; frame: Frame | undefined }>;
  parent: Frame | undefined;
}

export type Value =
  /** A string whose text is known; `node` is the literal it comes from (its flip is an edit there). */
  /** `via`: string methods run on the literal's text to give `text` (they run on the flipped literal too). */
  | { kind: "string"; text: string; node: Node; via?: ((s: string) => string)[] }
  /** A regular expression literal (a string method's pattern). */
  | { kind: "regex"; source: string; flags: string; node: Node }
  /** An object literal (spreads included), read lazily key by key. */
  | { kind: "object"; node: Node; frame: Frame | undefined }
  /** A function or class declared in the project. */
  | { kind: "function"; node: Node }
  /** `new C(…)` of a project class: its fields are read through the class, with the constructor's arguments bound. */
  | { kind: "instance"; cls: Node; call: Node; frame: Frame | undefined }
  /** The result of calling something the evaluator cannot see into (a library factory, a schema): options it was given stay readable. */
  | { kind: "made"; call: Node; frame: Frame | undefined }
  /** `process.env.X`, `import.meta.env.X`, or a schema entry read from the environment. */
  | { kind: "env"; name: string; node: Node }
  /** `a ?? b`, `a || b`, `c ? a : b`, a parameter with a default, a member with several assignments. */
  | { kind: "union"; options: Value[]; node: Node }
  /** An import from a package outside the project. */
  | { kind: "module"; module: string; name: string; node: Node }
  /** `const { json, ...rest } = of`: the object `of` without the keys named beside the rest element. */
  | { kind: "rest"; of: Value; omit: string[]; node: Node }
  /** An object filled with a copy of `of`'s own entries (`out[k] = v` over `Object.entries(of)`): the same keys, lowercased if `lower`. `node` is the write. */
  | { kind: "copy"; of: Value; lower: boolean; node: Node }
  /** Knowledge stopped at `node`, for `why`; `cause` is the deeper stop, if any. */
  | { kind: "dynamic"; node: Node; why: string; cause?: Value };

export function dynamic(node: Node, why: string, cause?: Value): Value {
  return { kind: "dynamic", node, why, cause };
}

const ABSENT = "the object has no ";

/** `key` of an object that certainly lacks it (no property, no spread that could hold it): undefined at run time. */
export function absentKey(at: Node, key: string): Value {
  return dynamic(at, `${ABSENT}${key}`);
}

/** A key the object certainly lacks (absentKey). */
export function isAbsent(v: Value): boolean {
  return v.kind === "dynamic" && v.why.startsWith(ABSENT);
}

const NO_ARGUMENT = "no argument for ";

/** `undefined` written as such. */
export function undefinedValue(node: Node): Value {
  return dynamic(node, "undefined");
}

/** A parameter no call gives an argument. */
export function noArgument(param: Node): Value {
  return dynamic(param, `${NO_ARGUMENT}${param.getText()}`);
}

/** Nothing there at run time: `undefined`, a key the object lacks, a parameter with no argument. */
export function isUndefined(v: Value): boolean {
  return v.kind === "dynamic" && (v.why === "undefined" || v.why.startsWith(ABSENT) || v.why.startsWith(NO_ARGUMENT));
}

/** An expression of a kind the evaluator does not follow (an array literal, a template with a call…): `node` is it, as written. */
export function notFollowed(node: Node): Value {
  return dynamic(node, `a ${node.getKindName()} is not followed`);
}

/** A value notFollowed made: its node is the expression itself. */
export function isNotFollowed(v: Value): boolean {
  return v.kind === "dynamic" && v.why === `a ${v.node.getKindName()} is not followed`;
}

export function union(node: Node, options: Value[]): Value {
  const flat: Value[] = [];
  for (const o of options) {
    if (o.kind === "union") flat.push(...o.options);
    else flat.push(o);
  }
  return flat.length === 1 ? flat[0]! : { kind: "union", options: flat, node };
}

/** Every option of a value (a union's options, or the value itself). */
export function optionsOf(v: Value): Value[] {
  return v.kind === "union" ? v.options : [v];
}

/** The chain of reasons why a value is not known, outermost first (for a mark's one line). */
export function whyUnknown(v: Value): string {
  const out: string[] = [];
  for (let d: Value | undefined = v; d && d.kind === "dynamic"; d = d.cause) out.push(d.why);
  return out.join(", because ");
}
