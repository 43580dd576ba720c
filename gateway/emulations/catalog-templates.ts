// catalogTemplates: v1 ListTemplates with includeRunpodTemplates / includePublicTemplates. v2 keeps
// official and community templates in its catalog (GET /v2/catalog/templates?source=…); the gateway
// appends them, translated, to the account's own templates.
import { toV1 } from "../../mappings/index.ts";
import { isRecord, readForExpansion } from "./expansion-calls.ts";
import type { Emulation } from "./types.ts";

const SOURCES: Record<string, string[]> = {
  includeRunpodTemplates: ["official"],
  includePublicTemplates: ["verified", "community"],
};

export const catalogTemplates: Emulation = {
  name: "catalogTemplates",
  async expand(call, answer) {
    const wanted = call.expansions.filter((e) => SOURCES[e]);
    if (!wanted.length || !Array.isArray(answer.json)) return answer;
    const list = [...answer.json] as Record<string, unknown>[];
    const seen = new Set(list.map((t) => t.id));
    for (const expansion of wanted) {
      for (const source of SOURCES[expansion]!) {
        const body = await readForExpansion(call, expansion, "/v2/catalog/templates", new URLSearchParams({ source }));
        const templates = Array.isArray(body.templates) ? body.templates.filter(isRecord) : [];
        for (const t of templates) {
          if (seen.has(t.id)) continue;
          seen.add(t.id);
          list.push({ ...toV1("template-record", t, call.convert), isRunpod: source === "official" });
        }
      }
    }
    return { ...answer, json: list };
  },
};
