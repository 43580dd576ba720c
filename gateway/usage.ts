// Live usage audit: which v1 operations each client still calls. Bounded: at most `maxClients`
// clients (LRU-evicted, evictions counted) and `maxOperationsPerClient` operations per client.
// A client is (API-key fingerprint, User-Agent); keys themselves are never stored.
import { LRUCache } from "lru-cache";

export interface UsageOperationRef {
  key: string;
  v1: { method: string; path: string };
}

interface Seen {
  count: number;
  firstSeen: number;
  lastSeen: number;
}

interface ClientRecord extends Seen {
  fingerprint: string;
  userAgent: string;
  operations: Map<string, Seen>;
  evictedOperations: number;
  /** operation key → v1 input v2 dropped → times (bounded per operation). */
  drops: Map<string, Map<string, number>>;
}

interface OperationRecord extends Seen {
  v1: { method: string; path: string };
  statuses: Map<number, number>;
}

export interface UsageSnapshot {
  generatedAt: string;
  since: string;
  totals: { requests: number; clients: number; evictedClients: number };
  operations: {
    key: string;
    v1: { method: string; path: string };
    count: number;
    clients: number;
    firstSeen: string;
    lastSeen: string;
    statuses: Record<string, number>;
  }[];
  clients: {
    fingerprint: string;
    userAgent: string;
    count: number;
    firstSeen: string;
    lastSeen: string;
    operations: Record<string, { count: number; firstSeen: string; lastSeen: string }>;
    /** operation key → v1 field or query parameter → requests in which v2 dropped it. */
    drops: Record<string, Record<string, number>>;
  }[];
  /** What clients send that v2 drops: per operation and v1 input, most frequent first. */
  drops: { key: string; field: string; count: number; clients: number }[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const MAX_USER_AGENT = 256;
/** Unknown field names are the client's choice: bounded in length and in number. */
const MAX_FIELD_NAME = 64;
const MAX_DROPPED_FIELDS_PER_OPERATION = 32;
const MAX_DROP_ENTRIES = 2_000;

export class UsageStore {
  readonly since = Date.now();
  private requests = 0;
  private evictedClients = 0;
  private readonly clients: LRUCache<string, ClientRecord>;
  private readonly operations = new Map<string, OperationRecord>();
  private readonly drops = new Map<string, { key: string; field: string; count: number }>();

  constructor(
    readonly maxClients: number,
    readonly maxOperationsPerClient: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.clients = new LRUCache<string, ClientRecord>({
      max: maxClients,
      dispose: (_value, _key, reason) => {
        if (reason === "evict") this.evictedClients++;
      },
    });
  }

  record(op: UsageOperationRef, fingerprint: string, userAgent: string | undefined, status: number, dropped: readonly string[] = []): void {
    const now = this.clock();
    this.requests++;
    const ua = (userAgent ?? "").slice(0, MAX_USER_AGENT);
    const clientKey = `${fingerprint}\n${ua}`;
    let client = this.clients.get(clientKey);
    if (!client) {
      client = { fingerprint, userAgent: ua, count: 0, firstSeen: now, lastSeen: now, operations: new Map(), evictedOperations: 0, drops: new Map() };
      this.clients.set(clientKey, client);
    }
    client.count++;
    client.lastSeen = now;
    let seen = client.operations.get(op.key);
    if (seen) {
      // Re-insert so the Map's order is least-recently-used first.
      client.operations.delete(op.key);
    } else {
      seen = { count: 0, firstSeen: now, lastSeen: now };
      if (client.operations.size >= this.maxOperationsPerClient) {
        const oldest = client.operations.keys().next().value as string;
        client.operations.delete(oldest);
        client.evictedOperations++;
      }
    }
    seen.count++;
    seen.lastSeen = now;
    client.operations.set(op.key, seen);

    let agg = this.operations.get(op.key);
    if (!agg) {
      agg = { v1: { ...op.v1 }, count: 0, firstSeen: now, lastSeen: now, statuses: new Map() };
      this.operations.set(op.key, agg);
    }
    agg.count++;
    agg.lastSeen = now;
    agg.statuses.set(status, (agg.statuses.get(status) ?? 0) + 1);
    if (dropped.length) this.recordDrops(client, op.key, dropped);
  }

  private recordDrops(client: ClientRecord, key: string, dropped: readonly string[]): void {
    let fields = client.drops.get(key);
    if (!fields) client.drops.set(key, (fields = new Map()));
    for (const name of new Set(dropped.map((f) => f.slice(0, MAX_FIELD_NAME)))) {
      if (fields.has(name) || fields.size < MAX_DROPPED_FIELDS_PER_OPERATION) fields.set(name, (fields.get(name) ?? 0) + 1);
      const id = `${key}\n${name}`;
      const agg = this.drops.get(id);
      if (agg) agg.count++;
      else if (this.drops.size < MAX_DROP_ENTRIES) this.drops.set(id, { key, field: name, count: 1 });
    }
  }

  /** The `GET /_bridge/usage` document (shape consumed by the report tool). */
  snapshot(): UsageSnapshot {
    const clients = [...this.clients.values()];
    const clientsPerOp = new Map<string, Set<string>>();
    for (const c of clients) {
      for (const key of c.operations.keys()) {
        const set = clientsPerOp.get(key) ?? new Set<string>();
        set.add(`${c.fingerprint}\n${c.userAgent}`);
        clientsPerOp.set(key, set);
      }
    }
    return {
      generatedAt: iso(this.clock()),
      since: iso(this.since),
      totals: { requests: this.requests, clients: this.clients.size, evictedClients: this.evictedClients },
      operations: [...this.operations.entries()]
        .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
        .map(([key, o]) => ({
          key,
          v1: { ...o.v1 },
          count: o.count,
          clients: clientsPerOp.get(key)?.size ?? 0,
          firstSeen: iso(o.firstSeen),
          lastSeen: iso(o.lastSeen),
          statuses: Object.fromEntries([...o.statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => [String(s), n])),
        })),
      clients: clients
        .sort((a, b) => b.lastSeen - a.lastSeen)
        .map((c) => ({
          fingerprint: c.fingerprint,
          userAgent: c.userAgent,
          count: c.count,
          firstSeen: iso(c.firstSeen),
          lastSeen: iso(c.lastSeen),
          operations: Object.fromEntries(
            [...c.operations.entries()].map(([key, s]) => [key, { count: s.count, firstSeen: iso(s.firstSeen), lastSeen: iso(s.lastSeen) }]),
          ),
          drops: Object.fromEntries([...c.drops.entries()].map(([key, fields]) => [key, Object.fromEntries(fields)])),
        })),
      drops: [...this.drops.values()]
        .map((d) => ({ ...d, clients: clients.filter((c) => c.drops.get(d.key)?.has(d.field)).length }))
        .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key) || a.field.localeCompare(b.field)),
    };
  }
}
