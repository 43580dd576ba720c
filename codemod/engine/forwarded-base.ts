// A forwarding method over a library instance (`get(url, config) { return from(this.instance.get(url, config)); }`,
// Nest's HttpService shape): the instance's base is not in the method's URL, so no base parameter
// can be added there, but the library takes a base per request in the options the method passes
// on as they are. A marked call keeps v1 by giving that option (`{ baseURL: RUNPOD_V1_BASE }`) in
// the position the method takes its options from, or where it spreads them after its own base.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { readCall } from "./call-reader.ts";
import { unwrapExpression } from "./urls.ts";
import { bind } from "./values.ts";
import { fillOptionSlot } from "./helper-redirect.ts";
import { nameFor, V1_BASE_NAME, type Redirect } from "./v1-redirect.ts";

const BASE_OPTION: Record<string, string> = { axios: "baseURL", "openapi-fetch": "baseUrl", ky: "prefixUrl", got: "prefixUrl" };

export function forwardedOptionsRedirect(a: Analysis, http: HttpCall, given?: string): Redirect | undefined {
  const fn = http.helper?.fn as Node | undefined;
  const transport = http.helper?.transport as Node | undefined;
  if (!fn || !transport || !Node.isCallExpression(transport)) return undefined;
  const t = readCall(a, transport);
  const key = t && BASE_OPTION[t.lib];
  if (!t || !key || !t.external?.node || !t.options) return undefined;
  const target = nameFor(t.external.value);
  if (!target || target.slash || target.name !== V1_BASE_NAME) return undefined;
  // The method's own options parameter, handed on unchanged, or spread after the base in the
  // options it builds (`axios({ baseURL, url, ...options })`): either way a caller's key wins.
  const opts = unwrapExpression(t.options);
  const handed = Node.isIdentifier(opts) ? opts : spreadAfter(opts, key);
  const b = handed ? bind(a, handed) : undefined;
  if (b?.kind !== "param" || b.fn !== fn || b.path.length) return undefined;
  return fillOptionSlot(http.call as never, b.index, key, given ?? target.name);
}

/** The name spread last into an options literal, after its `key` property (so the spread's key wins). */
function spreadAfter(options: Node, key: string): Node | undefined {
  if (!Node.isObjectLiteralExpression(options)) return undefined;
  const props = options.getProperties();
  const at = props.findIndex((p) => Node.isPropertyAssignment(p) && p.getName() === key);
  const last = props.at(-1);
  if (at === -1 || !last || !Node.isSpreadAssignment(last) || props.indexOf(last) < at) return undefined;
  const spread = unwrapExpression(last.getExpression());
  return Node.isIdentifier(spread) ? spread : undefined;
}
