// podMountsReadModifyWrite: v2 takes a pod's mount whole (`size` + `path`, or `volumeId` + `path`)
// and its kind is fixed at create; v1 could send volumeMountPath or volumeInGb alone, and a pod on
// a network volume keeps its path in `mounts.network`. The gateway reads the pod and sends the
// complete mount of the kind the pod has.
import { dropField } from "../translation/drops.ts";
import { currentRecord } from "./current-record.ts";
import type { Emulation } from "./types.ts";

interface Mounts {
  persistent?: { size: number; path: string };
  network?: { volumeId: string; path: string }[];
}

export const podMountsReadModifyWrite: Emulation = {
  name: "podMountsReadModifyWrite",
  async send(call, body, next) {
    const v1 = call.v1Body ?? {};
    const size = v1.volumeInGb;
    const path = v1.volumeMountPath;
    // volumeInGb 0 (remove the volume) is the lens's decision, not a completion.
    if (!body || !call.v2Path || (size === undefined && path === undefined) || size === 0) return next(body);
    const mounts = ((await currentRecord(call)).mounts ?? {}) as Mounts;
    const network = mounts.network?.[0];
    if (network) {
      if (size !== undefined) dropField(call, "volumeInGb", `volumeInGb ignored: the pod's volume is network volume ${network.volumeId}, whose size is the volume's`);
      return next({ ...body, mounts: { network: [{ volumeId: network.volumeId, path: (path as string | undefined) ?? network.path }] } });
    }
    if (mounts.persistent) {
      const persistent = { size: (size as number | undefined) ?? mounts.persistent.size, path: (path as string | undefined) ?? mounts.persistent.path };
      return next({ ...body, mounts: { persistent } });
    }
    return next(body);
  },
};
