// Tests of a base's own text against a literal (`base.endsWith("/")`, `base.startsWith("https:")`):
// no request URL is in them. A leaf module, so that the helper redirect (which rewrites such tests
// beside a join) and the prefix tests (which decide whether a base may flip) both read them.
import { Node } from "../ts-morph.ts";
import { V1_BASE, V2_BASE } from "../../mappings/bases.ts";
import { unwrapExpression } from "./urls.ts";

/** `value.endsWith("/")`, `value.startsWith("https:")`: the method and the literal the value's own text is tested against. */
function ownTextTest(value: Node): { method: "endsWith" | "startsWith"; text: string } | undefined {
  const access = value.getParent();
  const call = access?.getParent();
  if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== value || !["endsWith", "startsWith"].includes(access.getName())) return undefined;
  if (!call || !Node.isCallExpression(call) || call.getExpression() !== access || call.getArguments().length !== 1) return undefined;
  const arg = unwrapExpression(call.getArguments()[0]!);
  return Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg) ? { method: access.getName() as "endsWith" | "startsWith", text: arg.getLiteralValue() } : undefined;
}

/** `value.endsWith("/")`, `value.startsWith("https:")`: a test of the value's own text against a literal (no URL of a call in it). */
export function testedEnd(value: Node): boolean {
  return ownTextTest(value) !== undefined;
}

/**
 * A test of a base's own text whose answer is the same for the v1 and the v2 base (`baseURL.endsWith("/")`
 * of a slash-safe join): the flip cannot change what it decides, so it pins no base (`BASE.endsWith("/v1")`
 * does: its answer changes).
 */
export function flipKeepsAnswer(value: Node): boolean {
  const t = ownTextTest(value);
  return !!t && V1_BASE[t.method](t.text) === V2_BASE[t.method](t.text);
}
