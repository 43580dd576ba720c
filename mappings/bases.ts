// Where each version lives and when v1 ended: the table's facts about addresses and dates.
// Dependency-free, so the codemod's cheap pre-filter can read it without loading anything else.

export const V1_HOST = "rest.runpod.io";
export const V1_BASE = `https://${V1_HOST}/v1`;
export const V2_ORIGIN = "https://api.runpod.io";
export const V2_BASE = `${V2_ORIGIN}/v2`;
/** The published v2 OpenAPI document. */
export const V2_OPENAPI_URL = `${V2_ORIGIN}/openapi.json`;

/** v1 retirement: 2026-11-15T00:00:00Z (epoch 1794700800). */
export const V1_RETIREMENT = new Date(Date.UTC(2026, 10, 15, 0, 0, 0));
