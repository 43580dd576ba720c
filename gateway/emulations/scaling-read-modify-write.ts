// scalingReadModifyWrite: v2 replaces `scaling` as a whole, v1 could send scalerType or scalerValue
// alone. The gateway reads the endpoint's current scaling and completes the v1 pair before the lens
// runs, so the other half is not silently reset to a default. An `idleTimeout` sent alone needs
// the current scaling too: v2 rejects it with REQUEST_COUNT scaling, where the lens leaves it out.
import { toV1 } from "../../mappings/index.ts";
import { currentRecord } from "./current-record.ts";
import type { Emulation } from "./types.ts";

export const scalingReadModifyWrite: Emulation = {
  name: "scalingReadModifyWrite",
  async prepare(call) {
    const body = call.v1Body;
    if (!body || !call.v2Path) return;
    const hasType = body.scalerType !== undefined;
    const hasValue = body.scalerValue !== undefined;
    const idleAlone = body.idleTimeout !== undefined && !hasType && !hasValue;
    if (hasType === hasValue && !idleAlone) return;
    const current = await currentRecord(call);
    const v1 = toV1("endpoint-record", { scaling: current.scaling });
    call.v1Body = { ...body, scalerType: body.scalerType ?? v1.scalerType, scalerValue: body.scalerValue ?? v1.scalerValue };
  },
};
