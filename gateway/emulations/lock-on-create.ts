// lockOnCreate: v2 pod create has no `locked`; after a successful create the gateway PATCHes the
// new pod with {"locked": true}. Not atomic: a failed PATCH leaves an unlocked pod and says so.
import { V1Error, upstreamError } from "../translation/v1-errors.ts";
import type { Emulation } from "./types.ts";

export const lockOnCreate: Emulation = {
  name: "lockOnCreate",
  fields: ["locked"],
  async send(call, body, next) {
    const res = await next(body);
    if (call.emulate.locked !== true || res.status >= 300) return res;
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (typeof id !== "string" || !id) throw new V1Error(502, "pod was created but the v2 answer has no id to lock", "upstream");
    const patched = await call.callUpstream({ method: "PATCH", path: `/v2/pods/${encodeURIComponent(id)}`, body: { locked: true } });
    if (patched.status >= 300) throw upstreamError(patched, `pod ${id} was created but could not be locked`, "upstream");
    return { ...patched, status: res.status };
  },
};
