// The usage snapshot: GET /_bridge/usage, the gateway's local usage store (.v2-bridge/usage.json),
// what the Redis store reads back as, and the report's --traffic input. This schema is its one
// definition: the gateway types what it writes with it, the report and the local store validate
// what they read with it. `v1` may be null, `userAgent` null or absent, and `drops` absent in files
// from older gateways.
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
  /** Operation key → v1 field or query parameter → requests in which v2 dropped it. */
  drops: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), count))),
});
export type UsageClient = Static<typeof UsageClient>;

/** One v1 input v2 drops, for one operation: how often, and by how many of the listed clients. */
export const UsageDrop = Type.Object({
  key: Type.String({ minLength: 1 }),
  field: Type.String({ minLength: 1 }),
  count,
  clients: count,
});
export type UsageDrop = Static<typeof UsageDrop>;

export const UsageSnapshot = Type.Object(
  {
    generatedAt: isoTime,
    since: isoTime,
    totals: Type.Object({ requests: count, clients: count, evictedClients: count }),
    operations: Type.Array(UsageOperation),
    clients: Type.Array(UsageClient),
    /** What clients send that v2 drops: per operation and v1 input, most frequent first. */
    drops: Type.Optional(Type.Array(UsageDrop)),
  },
  { $id: "v2-bridge/usage.json", title: "v2-bridge gateway usage snapshot" },
);
export type UsageSnapshot = Static<typeof UsageSnapshot>;
