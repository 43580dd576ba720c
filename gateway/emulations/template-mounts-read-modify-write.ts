// templateMountsReadModifyWrite: a v2 template takes its mount whole (`size` + `path`); v1 could
// send volumeMountPath or volumeInGb alone. Without the template's current mount a path alone
// became `PATCH {}` (nothing moved) and a size alone sent v1's default path over the template's
// own. The gateway reads the template and sends the complete mount, as it does for pods.
import { dropField } from "../translation/drops.ts";
import { currentRecord } from "./current-record.ts";
import type { Emulation } from "./types.ts";

interface Mounts {
  persistent?: { size: number; path: string };
}

export const templateMountsReadModifyWrite: Emulation = {
  name: "templateMountsReadModifyWrite",
  async send(call, body, next) {
    const v1 = call.v1Body ?? {};
    const size = v1.volumeInGb as number | undefined;
    const path = v1.volumeMountPath as string | undefined;
    // Both halves (or neither) need no read; volumeInGb 0 is the lens's refusal, not a completion.
    if (!body || !call.v2Path || (size === undefined) === (path === undefined) || size === 0) return next(body);
    const current = ((await currentRecord(call)).mounts ?? {}) as Mounts;
    if (current.persistent) {
      const persistent = { size: size ?? current.persistent.size, path: path ?? current.persistent.path };
      return next({ ...body, mounts: { persistent } });
    }
    // No volume to move: v2 keeps no path without a size.
    if (size === undefined) {
      dropField(call, "volumeMountPath", "volumeMountPath ignored: the template has no volume (send volumeInGb with it to add one)");
    }
    return next(body);
  },
};
