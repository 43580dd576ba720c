// A kept call on a ky client whose callers set its base (`prefixUrl: opts.baseUrl ?? BASE` in a
// package's exported factory): a `prefixUrl` of its own would drop the base they chose (a proxy, a
// gateway's /v1). ky extends an instance from its own options (a function given to `extend`, ky 1.5
// and later): the call goes through `api.extend((o) => ({ prefixUrl: runpodV1Base(String(o.prefixUrl)) }))`,
// the v1 counterpart of whatever base the client was made with (the v2 default back to
// `RUNPOD_V1_BASE`, a gateway's /v2 back to its /v1, any other base as it is).
import { Node } from "../ts-morph.ts";
import { unwrapExpression } from "./urls.ts";
import { insertAt } from "./text-edit.ts";
import { manifestsAbove } from "./package-root.ts";
import { isTypeScriptFile } from "./nodes.ts";
import { V1_BASE_NAME, V1_DERIVE_NAME, type Redirect } from "./v1-redirect.ts";

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head"]);

/** The receiver's `extend` for a kept call `api.get(path, options)` of ky, where the file's package declares a ky that has it. */
export function kyDerivedBase(call: Node & { getArguments(): Node[]; getExpression(): Node }, options: Node | undefined): NonNullable<Redirect["callerSet"]> | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !VERBS.has(callee.getName())) return undefined;
  // A base the call names itself is this request's already.
  const own = options && unwrapExpression(options);
  if (own && (!Node.isObjectLiteralExpression(own) || own.getProperty("prefixUrl"))) return undefined;
  if (!extendsFromOwnOptions(call.getSourceFile().getFilePath())) return undefined;
  const receiver = callee.getExpression();
  // Typed in TypeScript so that it compiles where ky's types are not installed too (ky's Options fits it).
  const param = isTypeScriptFile(call.getSourceFile().getFilePath()) ? "(o: { prefixUrl?: unknown })" : "(o)";
  const edit = insertAt(receiver, receiver.getEnd(), `.extend(${param} => ({ prefixUrl: ${V1_DERIVE_NAME}(String(o.prefixUrl)) }))`);
  return { edits: [edit], names: [V1_BASE_NAME, V1_DERIVE_NAME] };
}

/** Whether the nearest package declaring ky asks for 1.5 or later (where `extend` takes a function). */
function extendsFromOwnOptions(file: string): boolean {
  for (const { json } of manifestsAbove(file, 12)) {
    const range: unknown = json?.dependencies?.ky ?? json?.peerDependencies?.ky ?? json?.devDependencies?.ky;
    if (typeof range !== "string") continue;
    const m = /(\d+)(?:\.(\d+))?/.exec(range);
    if (!m) return false;
    const major = Number(m[1]);
    return major > 1 || (major === 1 && Number(m[2] ?? 0) >= 5);
  }
  return false;
}
