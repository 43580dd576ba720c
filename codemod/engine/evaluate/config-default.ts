// A configuration read with a default (`config.get("RUNPOD_BASE_URL", "https://…/v1")`, Nest's
// ConfigService and its look-alikes): the default is what the read holds when the setting is not
// given, so a v1 base there is an environment default like `process.env.X ?? "…/v1"`.
import { Node } from "../../ts-morph.ts";
import { unwrapExpression } from "../urls.ts";

const READS = new Set(["get", "getOrDefault", "getString"]);
/** An environment variable's name, as configuration services read them. */
export const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** `recv.get("KEY", default)`: the key and the default's node; undefined for any other call. */
export function configDefault(call: Node): { key: string; fallback: Node } | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !READS.has(callee.getName())) return undefined;
  const [key, fallback, extra] = call.getArguments();
  if (!key || !fallback || extra) return undefined;
  const k = unwrapExpression(key);
  if (!Node.isStringLiteral(k) && !Node.isNoSubstitutionTemplateLiteral(k)) return undefined;
  // An options object in second place (`get(key, { infer: true })`) is no default.
  if (Node.isObjectLiteralExpression(unwrapExpression(fallback))) return undefined;
  return { key: k.getLiteralValue(), fallback };
}
