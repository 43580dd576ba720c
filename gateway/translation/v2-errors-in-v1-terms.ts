// A v2 refusal of a translated body, told in the v1 client's terms: v2's 422 (the body does not
// match the contract) becomes v1's 400, and the JSON pointers into the v2 body (`/gpu/id`) become
// the v1 field names the client sent (`gpuTypeIds`), read from the operation's request lens.
import { v1NameForV2Pointer, type OperationMapping } from "../../mappings/index.ts";
import type { UpstreamResponse } from "../upstream/upstream.ts";

type Failed = Pick<UpstreamResponse, "status" | "json" | "text">;

function rename(lens: string, text: string): string {
  // "/gpu must have required property 'id'": name the missing child, not its parent.
  const required = /^(\/\S*)? ?must have required property '([^']+)'$/.exec(text);
  if (required) {
    const name = v1NameForV2Pointer(lens, `${required[1] ?? ""}/${required[2]}`);
    if (name) return `${name} is required`;
  }
  return text.replace(/(^|\s)(\/[^\s,;:]+)/g, (whole, lead: string, pointer: string) => {
    const name = v1NameForV2Pointer(lens, pointer);
    return name ? `${lead}${name}` : whole;
  });
}

export function inV1Terms(op: OperationMapping, res: Failed): Failed {
  const lens = op.request?.lens;
  if (!lens || res.status < 400 || res.status >= 500) return res;
  const status = res.status === 422 ? 400 : res.status;
  const body = res.json as { detail?: unknown; errors?: unknown } | undefined;
  if (!body || typeof body !== "object") return { ...res, status };
  const json: Record<string, unknown> = { ...body };
  if (typeof body.detail === "string") json.detail = rename(lens, body.detail);
  if (Array.isArray(body.errors)) json.errors = body.errors.map((e) => (typeof e === "string" ? rename(lens, e) : e));
  return { ...res, status, json };
}
