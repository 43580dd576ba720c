// emptyUpdateAsRead: v2 rejects an empty PATCH; v1 answered an update with nothing to change with
// the unchanged record. When the translated body is empty the gateway reads the record instead.
import type { Emulation } from "./types.ts";

export const emptyUpdateAsRead: Emulation = {
  name: "emptyUpdateAsRead",
  async send(call, body, next) {
    if (body && Object.keys(body).length === 0 && call.v2Path) {
      return call.callUpstream({ method: "GET", path: call.v2Path });
    }
    return next(body);
  },
};
