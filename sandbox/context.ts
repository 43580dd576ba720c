// What every route module receives: the state, and the validator when a v2 document is loaded.
import type { OpenApiValidator } from "../openapi/validator.ts";
import type { SandboxClock } from "./clock.ts";
import type { PodLifecycle } from "./pod-lifecycle.ts";
import type { SandboxStore } from "./store.ts";

export type SandboxContext = {
  store: SandboxStore;
  /** Pod boot timing (PROVISIONING → STARTING → RUNNING). */
  lifecycle: PodLifecycle;
  validator: OpenApiValidator | null;
  /** Ids, times and randomness: the wall clock, or a seeded one (`--seed`). */
  clock: SandboxClock;
};

/** The request body as a plain object ({} for anything else; validation has already run). */
export function bodyObject(body: unknown): Record<string, any> {
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, any>) : {};
}

export function isObject(v: unknown): v is Record<string, any> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

export function strArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

export function strRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(v)) for (const [k, val] of Object.entries(v)) if (typeof val === "string") out[k] = val;
  return out;
}

export function queryList(v: unknown): string[] {
  const values = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return values.flatMap((x) => String(x).split(",")).map((s) => s.trim()).filter(Boolean);
}
