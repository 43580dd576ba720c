// The query decisions operations share: include expansions v2 does not have, v1 list filters
// the gateway applies on the client, and the values of a parameter that ask for what v2 does anyway.
import type { DecidedQuery, HarmlessQueryValues } from "../types.ts";

/** `include…=false` (v1's default) asks for no expansion, and v2 records have none. */
export const noExpansion: HarmlessQueryValues = { values: ["false"], reason: "v2 records carry no include expansions, which is what false asks for" };

export const dropInclude = (v1: string, advice: string, harmless: HarmlessQueryValues = noExpansion, expands?: string): DecidedQuery => ({
  v1,
  decision: "drop-with-warning",
  reason: "v2 has no include expansions",
  advice,
  harmless,
  ...(expands ? { expands } : {}),
});

/**
 * An include expansion that fills one v1 record field of the v1 document (`includeMachine` →
 * `machine`). A pod's includeTemplate has none: the v1 Pod schema names no template field
 * (`undeclaredInclude`).
 */
export const includeField = (v1: string, expands: string, advice: string): DecidedQuery => dropInclude(v1, advice, noExpansion, expands);

/** An include expansion filling a field the v1 document does not name: dropped where only fields the lens knows are read. */
export const undeclaredInclude = (v1: string, advice: string): DecidedQuery => ({ ...dropInclude(v1, advice), expandsUndeclared: true });

/** A v1 include expansion the gateway serves from another v2 call (see the operation's emulations). */
export const expand = (v1: string, reason: string, advice: string, harmless: HarmlessQueryValues = noExpansion, expands?: string): DecidedQuery => ({ v1, decision: "emulate", reason, advice, harmless, ...(expands ? { expands } : {}) });

/** GET /v2/templates: "all templates owned by the authenticated user"; public and official ones are the catalog's. */
export const ownTemplatesOnly: HarmlessQueryValues = { values: ["false"], reason: "GET /v2/templates lists only the templates you own (public and official ones are in GET /v2/catalog/templates)" };
export const allOwnTemplates: HarmlessQueryValues = { values: ["true"], reason: "GET /v2/templates lists every template you own, endpoint-bound ones included" };
/** GET /v2/templates/{id} "serves both templates you own and public catalog templates". */
export const anyReadableTemplate: HarmlessQueryValues = { values: ["true"], reason: "GET /v2/templates/{id} serves your templates and public catalog templates alike" };

export const includeNetworkVolume = expand("includeNetworkVolume", "v2 pod records carry only the volume id; the gateway reads the volume", "read mounts.network from the v2 pod and GET /v2/network-volumes/{id}", noExpansion, "networkVolume");
export const includeWorkers = expand("includeWorkers", "v2 endpoint records have no workers; the gateway lists them", "list workers with GET /v2/serverless/{id}/workers", noExpansion, "workers");

/**
 * v1 pods' includeWorkers is a filter, not an expansion: workers were left out of the list unless
 * it was true. The v2 document ("Returns pods owned by the authenticated user") does not say
 * whether GET /v2/pods (or /v2/pods/{id}) covers them, so neither value is known harmless, and the reason says so.
 */
export const podWorkers: DecidedQuery = {
  v1: "includeWorkers",
  decision: "drop-with-warning",
  // Short enough to stand whole in a mark: the doubt itself, not what v2 lacks.
  reason: "unknown if v2 pod routes show Serverless workers",
  advice: "the v2 document does not say whether GET /v2/pods (or /v2/pods/{id}) covers worker pods, and v1 showed them only with includeWorkers=true: for false, leave out any worker pods v2 returns; for true, list them per endpoint with GET /v2/serverless/{id}/workers",
};

export const filter = (v1: string, filterField = v1): DecidedQuery => ({
  v1,
  decision: "emulate",
  filterField,
  reason: "v2 lists take no filter parameters",
  advice: "filter the v2 list on the client",
});
