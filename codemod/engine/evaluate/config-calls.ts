// Calls that read a setting rather than compute a value: Deno's `Deno.env.get("NAME")`, a
// configuration service's `config.get("KEY", "…/v1")` and schema libraries' env defaults. Each
// answers the environment variable (when the key names one) beside the default the code writes.
import { Node } from "../../ts-morph.ts";
import type { StringLiteral } from "ts-morph";
import { unwrapExpression } from "../urls.ts";
import { dynamic, union, type Frame, type Value } from "./value.ts";
import { configDefault, ENV_NAME } from "./config-default.ts";
import { configKeyRead, definedKey } from "./config-keys.ts";
import type { Evaluator } from "./evaluator.ts";

/** What a settings read can hold, or undefined when `node` reads no setting. */
export function settingValue(ev: Evaluator, node: Node & { getExpression(): Node; getArguments(): Node[] }, frame: Frame | undefined): Value | undefined {
  // Deno's getter: `Deno.env.get("RUNPOD_API")` reads the variable as `process.env.RUNPOD_API` does.
  const [name, more] = node.getArguments();
  if (!more && name && node.getExpression().getText().replace(/\s/g, "") === "Deno.env.get" && Node.isStringLiteral(unwrapExpression(name))) {
    return { kind: "env", name: (unwrapExpression(name) as StringLiteral).getLiteralValue(), node };
  }
  // `config.get("KEY", "…/v1")` of a package's configuration service: the setting, else its default.
  // A key the project's configuration module defines is read there first (the default only beside it).
  const keyed = configKeyRead(node);
  const defined = keyed && definedKey(ev, node, keyed.key);
  if (keyed && defined) {
    const env: Value[] = ENV_NAME.test(keyed.key) ? [{ kind: "env", name: keyed.key, node }] : [];
    return union(node, [...env, defined, ...(keyed.fallback ? [ev.evaluate(keyed.fallback, frame)] : [])]);
  }
  const read = configDefault(node);
  if (read) {
    const setting: Value = ENV_NAME.test(read.key) ? { kind: "env", name: read.key, node } : dynamic(node, `the setting ${read.key}`);
    return union(node, [setting, ev.evaluate(read.fallback, frame)]);
  }
  return undefined;
}
