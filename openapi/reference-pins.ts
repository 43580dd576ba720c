// The published documents `v2-bridge reference fetch` downloads, each pinned to the sha256 of the
// copy the mapping table and the sandbox were written against. v2 comes from the API itself; v1's
// own URL went away with the retirement, so it comes from the vendor's public docs repository
// (runpod/docs) at a pinned commit.
import { V2_OPENAPI_URL } from "../mappings/bases.ts";
import type { ReferenceName } from "./reference.ts";

export type Pin = { url: string; sha256: string };

export const PINS: Record<ReferenceName, Pin> = {
  "v1-openapi.json": {
    url: "https://raw.githubusercontent.com/runpod/docs/226b2362f96f722dd6b3cb39d8fd028d7f42e9c4/api-reference/openapi.json",
    sha256: "a0f9286f0d1893fc62f0888e2e3b2e6859bae8597b066a4ee8134f2beb2991cd",
  },
  "v2-openapi.json": {
    // Where v2-spec.md says the schema is published: {base_url}/openapi.json.
    url: V2_OPENAPI_URL,
    sha256: "b8bce61c5a2290d28a7cb2ed53173637166817249986cb18b101b2fd651fd313",
  },
};

/**
 * A mirror holding both documents under their file names (`<base>/v1-openapi.json`, …), used
 * instead of the URLs above: for networks that reach the internet through a mirror, and for tests.
 */
export const REFERENCE_URL_ENV = "V2_BRIDGE_REFERENCE_URL";

/** Largest document accepted (the published ones are 150 and 350 KB). */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

/** Per-document download deadline. */
export const FETCH_TIMEOUT_MS = 30_000;

/** The URL each document is fetched from: the mirror's when one is given, else the pinned one. */
export function documentUrl(name: ReferenceName, base: string | undefined = process.env[REFERENCE_URL_ENV]): string {
  return base ? `${base.replace(/\/+$/, "")}/${name}` : PINS[name].url;
}
