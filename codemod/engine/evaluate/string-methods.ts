// String methods whose arguments are known (`base.replace(/\/+$/, "")`, `.trim()`, `.toLowerCase()`,
// `String(base)`), applied to each string a value can hold, as the program would at run time. An
// environment variable or a dynamic option stays as it is (the same method runs on it at run
// time). A v1 base literal stays the place its flip edits only when the method gives the v2 base
// after the flip exactly what the flip expects (`/\/$/` does; a replace of the host or of `/v1` does
// not): otherwise, and when a pattern or replacement is known only at run time, knowledge stops here.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { isBaseOnly, unwrapExpression, v2BaseFor } from "../urls.ts";
import { V1_HOST } from "../../../mappings/bases.ts";
import { dynamic, optionsOf, union, type Frame, type Value } from "./value.ts";

type Evaluate = (node: Node, frame: Frame | undefined) => Value;
type Arg = string | RegExp | number;

/** The methods followed, with the argument counts each is followed with. */
const ARITY: Record<string, number[]> = {
  replace: [2],
  replaceAll: [2],
  trim: [0],
  trimStart: [0],
  trimEnd: [0],
  toLowerCase: [0],
  toUpperCase: [0],
  toString: [0],
  slice: [1, 2],
  substring: [1, 2],
};

/** The receiver of `receiver.method(…)` when `call` is a string method the evaluator applies (or `String(x)`). */
export function stringMethodReceiver(call: Node): Node | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = call.getExpression();
  const args = call.getArguments();
  if (Node.isIdentifier(callee) && callee.getText() === "String" && args.length === 1) return args[0];
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  return ARITY[callee.getName()]?.includes(args.length) ? callee.getExpression() : undefined;
}

/**
 * What a string method call holds, or undefined when `call` is not one (or its receiver holds no
 * string: `router.replace(path)` is not `String.prototype.replace`).
 */
export function stringMethodValue(call: Node, frame: Frame | undefined, evaluate: Evaluate): Value | undefined {
  const receiverNode = stringMethodReceiver(call);
  if (!receiverNode || !Node.isCallExpression(call)) return undefined;
  const receiver = evaluate(receiverNode, frame);
  const options = optionsOf(receiver);
  if (!options.some((o) => o.kind === "string" || o.kind === "env")) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return receiver; // String(x): a string is itself
  const name = callee.getName();
  const args: Arg[] = [];
  for (const a of call.getArguments()) {
    const known = argument(a, frame, evaluate);
    if (known === undefined) return dynamic(call, `.${name}(…) whose ${a.getText().length > 30 ? "argument" : a.getText()} is known only at run time`, evaluate(a, frame));
    args.push(known);
  }
  const step = apply(name, args);
  if (!step) return dynamic(call, `.${name}(…) with arguments the codemod does not apply (a replacement that is not a string, or a pattern the method rejects)`);
  const out: Value[] = [];
  for (const o of options) {
    if (o.kind !== "string") {
      // The same method runs on an environment variable's or a caller's value at run time.
      out.push(o.kind === "env" || o.kind === "dynamic" ? o : dynamic(call, `.${name}(…) of a ${o.kind}`));
      continue;
    }
    const text = tryApply(step, o.text);
    if (text === undefined) return dynamic(call, `.${name}(…) throws on ${JSON.stringify(o.text)}`);
    const via = [...(o.via ?? []), step];
    const stop = flipStop(o.node, o.text, text, via);
    out.push(stop ? dynamic(call, stop) : { kind: "string", text, node: o.node, via });
  }
  return union(call, out);
}

/**
 * Why a v1 base cannot flip at its literal once `via` has run on it (undefined when it can): the
 * literal flips to its own v2 counterpart, and what `via` makes of that must be the v2 counterpart
 * of what `via` made of the v1 literal. A literal that is no v1 base must not become one.
 */
function flipStop(node: Node, before: string, after: string, via: ((s: string) => string)[]): string | undefined {
  const literal = Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node) ? node.getLiteralValue() : before;
  if (!literal.includes(V1_HOST) && !after.includes(V1_HOST)) return undefined;
  if (!isBaseOnly(literal) || !isBaseOnly(after)) return `a string method makes ${JSON.stringify(after)} of ${JSON.stringify(literal)}, not a v1 base the codemod can flip at its literal`;
  let flipped: string | undefined = v2BaseFor(literal);
  for (const f of via) flipped = flipped === undefined ? undefined : tryApply(f, flipped);
  if (flipped !== v2BaseFor(after)) return `a string method on ${JSON.stringify(literal)} would make ${JSON.stringify(flipped)} of its v2 base, not ${JSON.stringify(v2BaseFor(after))}`;
  return undefined;
}

function tryApply(f: (s: string) => string, s: string): string | undefined {
  try {
    return f(s);
  } catch {
    return undefined;
  }
}

/** The method with its arguments bound, or undefined when they do not fit it. */
function apply(name: string, args: Arg[]): ((s: string) => string) | undefined {
  const [a, b] = args;
  switch (name) {
    case "replace":
    case "replaceAll":
      if (typeof b !== "string" || typeof a === "number") return undefined;
      if (name === "replaceAll" && a instanceof RegExp && !a.global) return undefined;
      // A fresh expression per use: a sticky or global one keeps its lastIndex between calls.
      const pattern = () => (a instanceof RegExp ? new RegExp(a.source, a.flags) : a!);
      return name === "replace" ? (s) => s.replace(pattern(), b) : (s) => s.replaceAll(pattern(), b);
    case "slice":
    case "substring":
      if (!args.every((x) => typeof x === "number")) return undefined;
      return name === "slice" ? (s) => s.slice(a as number, b as number | undefined) : (s) => s.substring(a as number, b as number | undefined);
    case "trim":
      return (s) => s.trim();
    case "trimStart":
      return (s) => s.trimStart();
    case "trimEnd":
      return (s) => s.trimEnd();
    case "toLowerCase":
      return (s) => s.toLowerCase();
    case "toUpperCase":
      return (s) => s.toUpperCase();
    case "toString":
      return (s) => s;
  }
  return undefined;
}

/** An argument known before run time: one string, a regular expression, or a number written as such. */
function argument(node: Node, frame: Frame | undefined, evaluate: Evaluate): Arg | undefined {
  const n = unwrapExpression(node);
  const num = numberLiteral(n);
  if (num !== undefined) return num;
  const v = evaluate(n, frame);
  if (v.kind === "string") return v.text;
  if (v.kind === "regex") return regex(v.source, v.flags);
  return undefined;
}

function numberLiteral(n: Node): number | undefined {
  if (Node.isNumericLiteral(n)) return n.getLiteralValue();
  if (Node.isPrefixUnaryExpression(n) && n.getOperatorToken() === SyntaxKind.MinusToken && Node.isNumericLiteral(n.getOperand())) return -(n.getOperand() as any).getLiteralValue();
  return undefined;
}

function regex(source: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** A regex literal's value (`/\/+$/u`): the pattern a string method is given. */
export function regexLiteral(node: Node): Value {
  const text = node.getText();
  const end = text.lastIndexOf("/");
  return { kind: "regex", source: text.slice(1, end), flags: text.slice(end + 1), node };
}
