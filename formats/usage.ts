// The usage snapshot: GET /_bridge/usage, the gateway's local usage store (.v2-bridge/usage.json),
// what the Redis store reads back as, and the report's --traffic input. This schema is its one
// definition: the gateway types what it writes with it, the report and the local store validate
// what they read with it. `v1` may be null and `userAgent` null or absent in files from older gateways.
import { Type, type Static } from "@sinclair/typebox";
import { count, isoTime } from "./common.ts";

export const UsageRoute = Type.Object({ method: Type.String({ minLength: 1 }), path: Type.String() });

const Seen = Type.Object({ count, firstSeen: isoTime, lastSeen: isoTime });

export const UsageOperation = Type.Object({
  key: Type.String({ minLength: 1 }),
  v1: Type.Union([UsageRoute, Type.Null()]),
  count,
  /** Clients (fingerprint, user agent) currently tracked that call it. */
  clients: count,
  firstSeen: isoTime,
  lastSeen: isoTime,
  /** HTTP status → requests. */
  statuses: Type.Record(Type.String(), count, { propertyNames: { pattern: "^[1-5][0-9][0-9]$" } }),
});
export type UsageOperation = Static<typeof UsageOperation>;

export const UsageClient = Type.Object({
  /** `k_` + 12 hex of the salted key hash, or `anonymous`. */
  fingerprint: Type.String({ minLength: 1 }),
  userAgent: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  count,
  firstSeen: isoTime,
  lastSeen: isoTime,
  operations: Type.Record(Type.String(), Seen),
});
export type UsageClient = Static<typeof UsageClient>;

export const UsageSnapshot = Type.Object(
  {
    generatedAt: isoTime,
    since: isoTime,
    totals: Type.Object({ requests: count, clients: count, evictedClients: count }),
    operations: Type.Array(UsageOperation),
    clients: Type.Array(UsageClient),
  },
  { $id: "v2-bridge/usage.json", title: "v2-bridge gateway usage snapshot" },
);
export type UsageSnapshot = Static<typeof UsageSnapshot>;
