// listFilters: v2 lists take no filters; the gateway applies v1's filters (decision "emulate",
// compared on the table's `filterField` of each translated v1 record) to the translated list.
import { applyFilters } from "../translation/translate-response.ts";
import type { Emulation } from "./types.ts";

export const listFilters: Emulation = {
  name: "listFilters",
  shape(call, answer) {
    if (!call.filters.length || !Array.isArray(answer.json)) return answer;
    return { ...answer, json: applyFilters(answer.json, call.filters) };
  },
};
