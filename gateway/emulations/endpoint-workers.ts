// endpointWorkers: v1 GetEndpoint / ListEndpoints with includeWorkers. v2 endpoint records have no
// workers; the gateway lists each endpoint's workers (GET /v2/serverless/{id}/workers) and
// translates them to the v1 pod records v1 put under `workers`.
import { toV1 } from "../../mappings/index.ts";
import { isRecord, readForExpansion } from "./expansion-calls.ts";
import type { Emulation } from "./types.ts";

/** Most endpoints a list expands (one extra upstream call each). */
const MAX_ENDPOINTS = 50;

export const endpointWorkers: Emulation = {
  name: "endpointWorkers",
  async expand(call, answer) {
    if (!call.expansions.includes("includeWorkers") || answer.json === undefined) return answer;
    const endpoints = (Array.isArray(answer.json) ? answer.json : [answer.json]).filter(isRecord);
    if (endpoints.length > MAX_ENDPOINTS) {
      call.warnings.push(`includeWorkers: workers listed for the first ${MAX_ENDPOINTS} endpoints only`);
    }
    const expanded = await Promise.all(
      endpoints.map(async (endpoint, i) => {
        if (i >= MAX_ENDPOINTS || typeof endpoint.id !== "string") return endpoint;
        const body = await readForExpansion(call, "includeWorkers", `/v2/serverless/${encodeURIComponent(endpoint.id)}/workers`);
        const workers = (Array.isArray(body.workers) ? body.workers : []).filter(isRecord);
        return { ...endpoint, workers: workers.map((w) => ({ ...toV1("worker-record", w, call.convert), endpointId: endpoint.id })) };
      }),
    );
    return { ...answer, json: Array.isArray(answer.json) ? expanded : expanded[0] };
  },
};
