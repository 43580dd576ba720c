// gpuTypePriority: a v1 pod create with several gpuTypeIds tries them in order (v2 takes one GPU
// type), moving on when v2 refuses the type or has no capacity for it (see next-candidate.ts).
import { candidatesOf, tryInOrder } from "./next-candidate.ts";
import type { Emulation } from "./types.ts";

export const gpuTypePriority: Emulation = {
  name: "gpuTypePriority",
  async send(call, body, next) {
    const types = candidatesOf(call.v1Body?.gpuTypeIds);
    const gpu = body?.gpu as Record<string, unknown> | undefined;
    if (!body || !gpu || types.length < 2) return next(body);
    return tryInOrder(call, "gpuTypeIds", types, (id) => next({ ...body, gpu: { ...gpu, id } }));
  },
};
