// String calls that only tidy the end of a URL (a trailing slash, spaces): `base.replace(/\/+$/, "")`,
// `base.trim()`. A base without a trailing slash or spaces is the same value after them, so the
// evaluator and the do-no-harm follower both see through them.
import { Node } from "../../ts-morph.ts";

const TIDY = /^(trim|trimEnd|replace:\/\\\/\+?\$\/:""|replace:\/\\\/\+?\$\/:'')$/;

/** The receiver of `receiver.tidy(…)` when `call` is such a call. */
export function tidiedReceiver(call: Node): Node | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const expr = call.getExpression();
  if (!Node.isPropertyAccessExpression(expr)) return undefined;
  const args = call.getArguments();
  const text = args.length ? `${expr.getName()}:${args.map((a) => a.getText().replace(/\s/g, "")).join(":")}` : expr.getName();
  return TIDY.test(text) ? expr.getExpression() : undefined;
}
