// resetAsRestart: v1 reset has no v2 equivalent. Default: the table's decision (a v1 400 with the
// advice). Opt-in `--reset-policy restart`: send the v2 restart action and say so in V2-Bridge-Warning.
import { V1Error, upstreamError } from "../translation/v1-errors.ts";
import type { Emulation } from "./types.ts";

export const resetAsRestart: Emulation = {
  name: "resetAsRestart",
  async handle(call) {
    const { op } = call;
    if (call.deps.config.resetPolicy !== "restart") {
      const d = op.decision!;
      throw new V1Error(d.errorStatus ?? 400, `${d.message}. ${d.advice}`);
    }
    const podId = call.match.params.podId!;
    const path = `/v2/pods/${encodeURIComponent(podId)}/action`;
    call.v2Path = path;
    const res = await call.callUpstream({ method: "POST", path, body: { action: "restart" } });
    if (res.status >= 300) throw upstreamError(res, "", "upstream");
    call.warnings.push("reset sent as the v2 restart action (--reset-policy restart): the container disk is NOT wiped");
    return { status: op.v1.status };
  },
};
