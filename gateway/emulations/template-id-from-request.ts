// templateIdFromRequest: v2 applies a template once at create and keeps no link to it (a pod's
// `template` stays null; endpoint records have none). The answer to a v1 create still names the
// templateId the client sent, as v1's did. Later reads cannot (see the table's unmapped fields).
import type { Emulation } from "./types.ts";

export const templateIdFromRequest: Emulation = {
  name: "templateIdFromRequest",
  shape(call, answer) {
    const templateId = call.v1Body?.templateId;
    const record = answer.json as Record<string, unknown> | undefined;
    if (typeof templateId !== "string" || !record || typeof record !== "object" || record.templateId !== undefined) return answer;
    return { ...answer, json: { ...record, templateId } };
  },
};
