// The environment the client's command runs in: the preload on NODE_OPTIONS (with source maps on,
// so call sites point at the client's sources), where to redirect and where to write events, and
// the settings that keep every call local: a sandbox API key, and the v1 bases a rewrite leaves on
// marked calls pointed at the v1 host (which the preload sends to the local gateway).
import { V1_BASE, V1_HOST } from "../mappings/bases.ts";
import { EVENTS_ENV, ROUTES_ENV } from "./preload/protocol.ts";

/** The key a client is given unless it already has a sandbox key (any `sandbox_…` key is accepted). */
export const SANDBOX_KEY = "sandbox_verify";
/** Environment names a rewrite reads for calls it marked (codemod: "every intermediate state runs"). */
const V1_BASE_NAMES: Record<string, string> = { RUNPOD_V1_BASE: V1_BASE, RUNPOD_V1_ORIGIN: `https://${V1_HOST}` };

export function childEnv(base: NodeJS.ProcessEnv, preloadUrl: string, routes: Record<string, string>, eventsFile: string): { env: NodeJS.ProcessEnv; keySet: boolean } {
  const env: NodeJS.ProcessEnv = { ...base };
  // File URLs carry no spaces, so the options need no quoting.
  env.NODE_OPTIONS = [base.NODE_OPTIONS ?? "", `--import=${preloadUrl}`, "--enable-source-maps"].filter(Boolean).join(" ");
  env[ROUTES_ENV] = JSON.stringify(routes);
  env[EVENTS_ENV] = eventsFile;
  Object.assign(env, V1_BASE_NAMES);
  const keySet = !base.RUNPOD_API_KEY?.startsWith("sandbox_");
  if (keySet) env.RUNPOD_API_KEY = SANDBOX_KEY;
  return { env, keySet };
}
