// podNetworkVolume: v1 GetPod / ListPods with includeNetworkVolume. v2 pod records name only the
// volume id (mounts.network); the gateway reads the account's volumes once and fills v1's
// `networkVolume` {id, name, size, dataCenterId}.
import { toV1 } from "../../mappings/index.ts";
import { isRecord, readForExpansion } from "./expansion-calls.ts";
import type { Emulation } from "./types.ts";

export const podNetworkVolume: Emulation = {
  name: "podNetworkVolume",
  async expand(call, answer) {
    if (!call.expansions.includes("includeNetworkVolume") || answer.json === undefined) return answer;
    const pods = (Array.isArray(answer.json) ? answer.json : [answer.json]).filter(isRecord);
    if (!pods.some((p) => isRecord(p.networkVolume))) return answer;
    const body = await readForExpansion(call, "includeNetworkVolume", "/v2/network-volumes");
    const volumes = new Map<unknown, Record<string, unknown>>();
    for (const v of Array.isArray(body.networkVolumes) ? body.networkVolumes.filter(isRecord) : []) volumes.set(v.id, toV1("network-volume-record", v));
    const fill = (pod: Record<string, any>) => {
      const volume = isRecord(pod.networkVolume) ? volumes.get(pod.networkVolume.id) : undefined;
      return volume ? { ...pod, networkVolume: volume } : pod;
    };
    return { ...answer, json: Array.isArray(answer.json) ? answer.json.map((p) => (isRecord(p) ? fill(p) : p)) : fill(answer.json as Record<string, any>) };
  },
};
