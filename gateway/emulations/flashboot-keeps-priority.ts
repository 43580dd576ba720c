// flashbootKeepsPriority: v1 `flashboot` is a boolean, v2 has OFF / FLASHBOOT / PRIORITY_FLASHBOOT.
// A v1 update with `flashboot: true` on an endpoint already in PRIORITY_FLASHBOOT means "keep it
// on", not "downgrade to FLASHBOOT": the gateway leaves flashboot out of the PATCH.
import { currentRecord, currentResponse } from "./current-record.ts";
import type { Emulation } from "./types.ts";

export const flashbootKeepsPriority: Emulation = {
  name: "flashbootKeepsPriority",
  async send(call, body, next) {
    if (call.v1Body?.flashboot !== true || body?.flashboot !== "FLASHBOOT" || !call.v2Path) return next(body);
    if ((await currentRecord(call)).flashboot !== "PRIORITY_FLASHBOOT") return next(body);
    const { flashboot: _kept, ...rest } = body;
    // Nothing else to change: v2 refuses an empty PATCH, and v1 answered the unchanged record.
    if (!Object.keys(rest).length) return (await currentResponse(call))!;
    return next(rest);
  },
};
