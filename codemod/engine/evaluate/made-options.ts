// Properties of an object made by a call the evaluator cannot see into (`createClient({ baseUrl })`,
// an environment schema's parse): an option of that name given to the call, or a schema entry's
// default (`z.string().default(…)`, `str({ default: … })`), through method calls on the made object.
import { Node } from "../../ts-morph.ts";
import { unwrapExpression } from "../urls.ts";
import { shortExpression } from "../expression-name.ts";
import { dynamic, optionsOf, union, type Frame, type Value } from "./value.ts";
import { isInjected } from "./injected.ts";

/** The evaluator's two reads these need. */
export interface Reader {
  evaluate(node: Node, frame?: Frame): Value;
  property(at: Node, v: Value, key: string): Value;
}

/**
 * `.key` of an object made by a call the evaluator cannot see into: an option of that name given
 * to the call (`createClient({ baseUrl })`), or a schema entry (`z.object({ KEY: z.string().default(…) })`,
 * `cleanEnv(env, { KEY: str({ default: … }) })`, `createEnv({ server: { KEY: … } })`), through
 * method calls on the made object (`Schema.parse(process.env)`).
 */
export function madeProperty(ev: Reader, at: Node, v: Value & { kind: "made" }, key: string): Value {
  const call = v.call as any;
  if (isInjected(v)) return dynamic(at, `.${key} of an injected ${call.getText()}`);
  // `new URL(base).origin`: the origin of each URL the argument can hold (from the same literal).
  if (key === "origin" && Node.isNewExpression(v.call) && v.call.getExpression().getText() === "URL" && v.call.getArguments().length === 1) {
    const of = ev.evaluate(v.call.getArguments()[0]!, v.frame);
    return union(at, optionsOf(of).map((o) => (o.kind === "string" && /^https?:\/\/[^/]+/.test(o.text) ? { ...o, text: /^https?:\/\/[^/]+/.exec(o.text)![0] } : o)));
  }
  for (const arg of (call.getArguments?.() ?? []) as Node[]) {
    const found = optionIn(ev, at, unwrapExpression(arg), key, v.frame, 0);
    if (found) return found;
  }
  const callee = unwrapExpression(call.getExpression());
  if (Node.isPropertyAccessExpression(callee)) {
    const receiver = ev.evaluate(callee.getExpression(), v.frame);
    if (receiver.kind === "made" || receiver.kind === "object") return ev.property(at, receiver, key);
  }
  return dynamic(at, `.${key} of what ${shortExpression(callee)}(…) returns`);
}

function optionIn(ev: Reader, at: Node, arg: Node, key: string, frame: Frame | undefined, depth: number): Value | undefined {
  if (!Node.isObjectLiteralExpression(arg)) {
    if (Node.isIdentifier(arg) && depth === 0) {
      const v = ev.evaluate(arg, frame);
      if (v.kind === "object") return optionIn(ev, at, unwrapExpression(v.node), key, v.frame, depth);
    }
    return undefined;
  }
  const p = arg.getProperty(key);
  if (p && Node.isPropertyAssignment(p)) return schemaEntry(ev, at, p.getInitializer()!, key, frame);
  if (p && Node.isShorthandPropertyAssignment(p)) return ev.evaluate(p.getNameNode(), frame);
  if (depth > 0) return undefined;
  // One level down: `createEnv({ server: { KEY: … } })`, `{ env: { … } }`.
  for (const inner of arg.getProperties()) {
    if (!Node.isPropertyAssignment(inner)) continue;
    const init = unwrapExpression(inner.getInitializer()!);
    const found = Node.isObjectLiteralExpression(init) ? optionIn(ev, at, init, key, frame, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A schema entry's default (`.default(x)` in its chain, or `{ default: x }`), else the entry's own value. */
function schemaEntry(ev: Reader, at: Node, entry: Node, key: string, frame: Frame | undefined): Value {
  const env: Value = { kind: "env", name: key, node: at };
  for (let n: Node = unwrapExpression(entry); Node.isCallExpression(n); ) {
    const callee = unwrapExpression(n.getExpression());
    const args = n.getArguments();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === "default" && args[0]) return union(at, [env, ev.evaluate(args[0], frame)]);
    const opts = args.map((x) => unwrapExpression(x)).find((x) => Node.isObjectLiteralExpression(x));
    const def = opts && Node.isObjectLiteralExpression(opts) ? opts.getProperty("default") : undefined;
    if (def && Node.isPropertyAssignment(def)) return union(at, [env, ev.evaluate(def.getInitializer()!, frame)]);
    if (!Node.isPropertyAccessExpression(callee)) break;
    n = unwrapExpression(callee.getExpression());
  }
  return ev.evaluate(entry, frame);
}
