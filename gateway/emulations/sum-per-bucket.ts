// sumPerBucket: v1 network-volume billing had one record per time bucket for the whole account;
// v2 reports one per volume per bucket. The gateway sums the volumes of each bucket.
import { sumByKey } from "./sum-by-key.ts";
import type { Emulation } from "./types.ts";

export const sumPerBucket: Emulation = {
  name: "sumPerBucket",
  shape(_call, answer) {
    if (!Array.isArray(answer.json)) return answer;
    return { ...answer, json: sumByKey(answer.json, (r) => ({ time: r.time }), ["amount", "highPerformanceStorageAmount"]) };
  },
};
