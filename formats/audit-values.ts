// The audit JSON's enumerations as plain values, apart from its schema (formats/audit.ts): the
// codemod and `audit` need them, and importing the schema loads TypeBox (~200 ES modules, ~0.2 s of
// every `audit` start) for three arrays.
import type { HttpMethod } from "../mappings/types.ts";

export const CATEGORIES = ["auto", "review", "no-equivalent"] as const;

/**
 * What a finding that names no operation is about: a call site or a v1 URL whose operation is not
 * known, a base declaration, an error read or a client hook on a migrated call's failure path, the
 * openapi-fetch `paths` types, a file not processed.
 */
export const SUBJECTS = ["call", "url", "base", "error-read", "hook", "types", "file"] as const;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const satisfies readonly HttpMethod[];
