// Live usage audit: which v1 operations each client still calls. Bounded: at most `maxClients`
// clients (LRU-evicted, evictions counted) and `maxOperationsPerClient` operations per client.
// A client is (API-key fingerprint, User-Agent); keys themselves are never stored.
import { LRUCache } from "lru-cache";
import type { UsageSnapshot } from "../../formats/usage.ts";
import { appendsUncut, boundedDrops } from "./usage-drops.ts";

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
  drops: Map<string, Map<string, DropCell>>;
  /** operation key → the last list of lost answer fields counted whole for it, with its counters. */
  lostCells: Map<string, LostCells>;
}

/** One count a client keeps (a cell, so a list of them can be bumped without looking names up). */
interface DropCell {
  count: number;
}

/**
 * A list of lost answer fields (`ex.lostDrops`: one frozen list per set, from the table) already
 * counted for a client and operation: every name has its client cell and its overall entry, so
 * counting the list again is one increment per cell (the bounds can no longer refuse any of them).
 */
interface LostCells {
  list: readonly string[];
  mine: DropCell[];
  overall: DropCount[];
}

interface OperationRecord extends Seen {
  v1: { method: string; path: string };
  statuses: Map<number, number>;
}

export type { UsageSnapshot } from "../../formats/usage.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const MAX_USER_AGENT = 256;
/** Unknown field names are the client's choice: bounded in number per operation and overall. */
// Above the table's largest set of lost answer fields (a GPU pod lacks 33), so each is counted.
const MAX_DROPPED_FIELDS_PER_OPERATION = 64;
const MAX_DROP_ENTRIES = 2_000;

interface DropCount {
  key: string;
  field: string;
  count: number;
}

/**
 * Told of every counted request (the Redis store batches these); must not throw or block.
 * `drops`: the v1 inputs v2 dropped that this store counted (within its bounds).
 */
export type UsageListener = (op: UsageOperationRef, fingerprint: string, userAgent: string, status: number, at: number, drops: readonly string[]) => void;

export class UsageStore {
  since = Date.now();
  /** Bumped on every change: persistence saves only when it moved. */
  revision = 0;
  onRecord?: UsageListener;
  private requests = 0;
  private evictedClients = 0;
  private readonly clients: LRUCache<string, ClientRecord>;
  private readonly operations = new Map<string, OperationRecord>();
  /** operation key → dropped name → overall count (two levels: no joined key string per request). */
  private readonly drops = new Map<string, Map<string, DropCount>>();
  private dropEntries = 0;

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

  /**
   * `lost`: the answer fields the answer lacked, a list that never changes (lost-fields.ts), counted
   * after `dropped` exactly as if appended to it, but without a name looked up per request once
   * the list has been counted for this client and operation.
   */
  record(op: UsageOperationRef, fingerprint: string, userAgent: string | undefined, status: number, dropped: readonly string[] = [], lost?: readonly string[]): void {
    const now = this.clock();
    this.requests++;
    this.revision++;
    const ua = (userAgent ?? "").slice(0, MAX_USER_AGENT);
    const clientKey = `${fingerprint}\n${ua}`;
    let client = this.clients.get(clientKey);
    if (!client) {
      client = { fingerprint, userAgent: ua, count: 0, firstSeen: now, lastSeen: now, operations: new Map(), evictedOperations: 0, drops: new Map(), lostCells: new Map() };
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
    const counted = lost?.length ? this.recordWithLost(client, op.key, dropped, lost) : dropped.length ? this.recordDrops(client, op.key, boundedDrops(dropped)) : [];
    this.onRecord?.(op, fingerprint, ua, status, now, counted);
  }

  /** Counts drops for a client and overall, within the bounds; returns the names counted overall. */
  private recordDrops(client: ClientRecord, key: string, names: readonly string[]): string[] {
    let fields = client.drops.get(key);
    if (!fields) client.drops.set(key, (fields = new Map()));
    const counted: string[] = [];
    for (const name of names) {
      const cell = fields.get(name);
      if (cell) cell.count++;
      else if (fields.size < MAX_DROPPED_FIELDS_PER_OPERATION) fields.set(name, { count: 1 });
      if (!this.countDrop(key, name, 1)) continue;
      counted.push(name);
    }
    return counted;
  }

  /** `recordDrops(boundedDrops([...dropped, ...lost]))`, with the lost list counted by its cells once it has been counted here before. */
  private recordWithLost(client: ClientRecord, key: string, dropped: readonly string[], lost: readonly string[]): readonly string[] {
    // Where the joined list would be cut or deduplicated, or the usual path has not counted this list yet: the names one by one.
    const cells = client.lostCells.get(key);
    if (cells?.list !== lost || !appendsUncut(dropped, lost)) {
      const counted = this.recordDrops(client, key, boundedDrops([...dropped, ...lost]));
      this.rememberLost(client, key, lost);
      return counted;
    }
    const counted = dropped.length ? this.recordDrops(client, key, dropped) : [];
    for (const cell of cells.mine) cell.count++;
    for (const entry of cells.overall) entry.count++;
    return counted.length ? [...counted, ...lost] : lost;
  }

  /** Keeps the cells of a lost list once every name of it has both (the bounds refuse none of them any more). */
  private rememberLost(client: ClientRecord, key: string, lost: readonly string[]): void {
    const fields = client.drops.get(key);
    const overall = this.drops.get(key);
    const mine: DropCell[] = [];
    const all: DropCount[] = [];
    for (const name of lost) {
      const cell = fields?.get(name);
      const entry = overall?.get(name);
      if (!cell || !entry) return;
      mine.push(cell);
      all.push(entry);
    }
    client.lostCells.set(key, { list: lost, mine, overall: all });
  }

  /** Adds to the overall count of one dropped name; false when it is new and the bound is reached. */
  private countDrop(key: string, field: string, n: number): boolean {
    let byField = this.drops.get(key);
    const agg = byField?.get(field);
    if (agg) {
      agg.count += n;
      return true;
    }
    if (this.dropEntries >= MAX_DROP_ENTRIES) return false;
    if (!byField) this.drops.set(key, (byField = new Map()));
    byField.set(field, { key, field, count: n });
    this.dropEntries++;
    return true;
  }

  /**
   * Adds a saved snapshot (the local store after a restart) to what is counted: totals add up,
   * first/last seen widen. Clients beyond the bounds are evicted as usual.
   */
  restore(saved: UsageSnapshot): void {
    const ms = (t: string) => Date.parse(t);
    this.since = Math.min(this.since, ms(saved.since));
    this.requests += saved.totals.requests;
    this.evictedClients += saved.totals.evictedClients;
    this.revision++;
    for (const o of saved.operations) {
      const agg = this.operations.get(o.key) ?? { v1: { ...(o.v1 ?? { method: "", path: "" }) }, count: 0, firstSeen: ms(o.firstSeen), lastSeen: ms(o.lastSeen), statuses: new Map<number, number>() };
      agg.count += o.count;
      agg.firstSeen = Math.min(agg.firstSeen, ms(o.firstSeen));
      agg.lastSeen = Math.max(agg.lastSeen, ms(o.lastSeen));
      for (const [status, n] of Object.entries(o.statuses)) agg.statuses.set(Number(status), (agg.statuses.get(Number(status)) ?? 0) + n);
      this.operations.set(o.key, agg);
    }
    // Least recently seen first, so the LRU order after restoring matches the saved one.
    for (const c of [...saved.clients].sort((a, b) => ms(a.lastSeen) - ms(b.lastSeen))) {
      const ua = (c.userAgent ?? "").slice(0, MAX_USER_AGENT);
      const clientKey = `${c.fingerprint}\n${ua}`;
      const client = this.clients.get(clientKey) ?? { fingerprint: c.fingerprint, userAgent: ua, count: 0, firstSeen: ms(c.firstSeen), lastSeen: ms(c.lastSeen), operations: new Map<string, Seen>(), evictedOperations: 0, drops: new Map(), lostCells: new Map() };
      client.count += c.count;
      client.firstSeen = Math.min(client.firstSeen, ms(c.firstSeen));
      client.lastSeen = Math.max(client.lastSeen, ms(c.lastSeen));
      for (const [key, s] of Object.entries(c.operations).sort((a, b) => ms(a[1].lastSeen) - ms(b[1].lastSeen))) {
        const seen = client.operations.get(key) ?? { count: 0, firstSeen: ms(s.firstSeen), lastSeen: ms(s.lastSeen) };
        seen.count += s.count;
        seen.firstSeen = Math.min(seen.firstSeen, ms(s.firstSeen));
        seen.lastSeen = Math.max(seen.lastSeen, ms(s.lastSeen));
        client.operations.delete(key);
        client.operations.set(key, seen);
        if (client.operations.size > this.maxOperationsPerClient) {
          client.operations.delete(client.operations.keys().next().value as string);
          client.evictedOperations++;
        }
      }
      this.clients.set(clientKey, client);
    }
    this.restoreDrops(saved);
  }

  /** Drop counts of a saved snapshot (absent in files of older gateways), within the same bounds. */
  private restoreDrops(saved: UsageSnapshot): void {
    for (const c of saved.clients) {
      const client = this.clients.get(`${c.fingerprint}\n${(c.userAgent ?? "").slice(0, MAX_USER_AGENT)}`);
      if (!client) continue;
      for (const [key, fields] of Object.entries(c.drops ?? {})) {
        let mine = client.drops.get(key);
        if (!mine) client.drops.set(key, (mine = new Map()));
        for (const [name, n] of Object.entries(fields)) {
          const cell = mine.get(name);
          if (cell) cell.count += n;
          else if (mine.size < MAX_DROPPED_FIELDS_PER_OPERATION) mine.set(name, { count: n });
        }
      }
    }
    for (const d of saved.drops ?? []) this.countDrop(d.key, d.field, d.count);
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
          drops: Object.fromEntries([...c.drops.entries()].map(([key, fields]) => [key, Object.fromEntries([...fields].map(([name, cell]) => [name, cell.count]))])),
        })),
      drops: [...this.drops.values()]
        .flatMap((byField) => [...byField.values()])
        .map((d) => ({ ...d, clients: clients.filter((c) => c.drops.get(d.key)?.has(d.field)).length }))
        .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key) || a.field.localeCompare(b.field)),
    };
  }
}
