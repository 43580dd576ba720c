// cpuFlavorPriority: a v1 CPU pod create with several cpuFlavorIds tries them in order (v2 takes
// one flavour), moving on when v2 refuses the flavour or has no capacity (see next-candidate.ts).
import { candidatesOf, tryInOrder } from "./next-candidate.ts";
import type { Emulation } from "./types.ts";

export const cpuFlavorPriority: Emulation = {
  name: "cpuFlavorPriority",
  async send(call, body, next) {
    const flavours = candidatesOf(call.v1Body?.cpuFlavorIds);
    const cpu = body?.cpu as Record<string, unknown> | undefined;
    if (!body || !cpu || flavours.length < 2) return next(body);
    return tryInOrder(call, "cpuFlavorIds", flavours, (id) => next({ ...body, cpu: { ...cpu, id } }));
  },
};
