// The API hosts verify redirects: the hosts of the reference documents' servers (v1:
// rest.runpod.io, v2: api.runpod.io), so a client is caught however it spells its base URL.
import { V1_HOST, V2_ORIGIN } from "../mappings/bases.ts";
import type { OpenApiDocument } from "../openapi/reference.ts";
import type { ApiHosts } from "./steps.ts";

export function apiHosts(v1: OpenApiDocument | null, v2: OpenApiDocument | null): ApiHosts {
  return { v1: serverHost(v1) ?? V1_HOST, v2: serverHost(v2) ?? new URL(V2_ORIGIN).hostname };
}

function serverHost(doc: OpenApiDocument | null): string | null {
  const servers = (doc?.servers ?? []) as { url?: unknown }[];
  for (const s of servers) {
    try {
      if (typeof s.url === "string") return new URL(s.url).hostname.toLowerCase();
    } catch {
      // a templated or relative server URL: try the next one
    }
  }
  return null;
}
