// Usage increments not yet sent to the shared store: counts add up and first/last seen widen, so
// a batch that failed to send is merged back into the next one and nothing is lost or counted twice.
import type { UsageOperationRef } from "./usage.ts";

export interface SeenDelta {
  count: number;
  first: number;
  last: number;
}

export interface OperationDelta extends SeenDelta {
  v1: { method: string; path: string };
  statuses: Map<number, number>;
}

/** Field names in the shared store: JSON arrays, so user agents with any character stay unambiguous. */
export const clientField = (fingerprint: string, userAgent: string) => JSON.stringify([fingerprint, userAgent]);
export const clientOperationField = (fingerprint: string, userAgent: string, op: string) => JSON.stringify([fingerprint, userAgent, op]);
export const dropField = (op: string, field: string) => JSON.stringify([op, field]);
export const clientDropField = (fingerprint: string, userAgent: string, op: string, field: string) => JSON.stringify([fingerprint, userAgent, op, field]);

function widen(into: SeenDelta | undefined, add: SeenDelta): SeenDelta {
  if (!into) return { ...add };
  into.count += add.count;
  into.first = Math.min(into.first, add.first);
  into.last = Math.max(into.last, add.last);
  return into;
}

function increment(map: Map<string, number>, field: string, n: number): void {
  map.set(field, (map.get(field) ?? 0) + n);
}

export class UsageBatch {
  requests = 0;
  first = Infinity;
  readonly operations = new Map<string, OperationDelta>();
  readonly clients = new Map<string, SeenDelta>();
  readonly clientOperations = new Map<string, SeenDelta>();
  /** v1 inputs v2 dropped: `dropField` → requests, and per client `clientDropField` → requests. */
  readonly drops = new Map<string, number>();
  readonly clientDrops = new Map<string, number>();
  /** Requests whose client could not be kept because the batch was at its client bound (the store is down for long). */
  droppedClientRequests = 0;

  constructor(private readonly maxClients: number) {}

  get empty(): boolean {
    return this.requests === 0;
  }

  add(op: UsageOperationRef, fingerprint: string, userAgent: string, status: number, at: number, drops: readonly string[] = []): void {
    const seen = { count: 1, first: at, last: at };
    this.requests++;
    this.first = Math.min(this.first, at);
    this.addOperation(op.key, op.v1, seen, [[status, 1]]);
    for (const name of drops) increment(this.drops, dropField(op.key, name), 1);
    const client = clientField(fingerprint, userAgent);
    if (!this.clients.has(client) && this.clients.size >= this.maxClients) {
      this.droppedClientRequests++;
      return;
    }
    this.clients.set(client, widen(this.clients.get(client), seen));
    const field = clientOperationField(fingerprint, userAgent, op.key);
    this.clientOperations.set(field, widen(this.clientOperations.get(field), seen));
    for (const name of drops) increment(this.clientDrops, clientDropField(fingerprint, userAgent, op.key, name), 1);
  }

  /** Takes back a batch that could not be sent. */
  merge(other: UsageBatch): void {
    this.requests += other.requests;
    this.first = Math.min(this.first, other.first);
    this.droppedClientRequests += other.droppedClientRequests;
    for (const [key, o] of other.operations) this.addOperation(key, o.v1, o, o.statuses);
    for (const [field, s] of other.clients) {
      if (!this.clients.has(field) && this.clients.size >= this.maxClients) {
        this.droppedClientRequests += s.count;
        continue;
      }
      this.clients.set(field, widen(this.clients.get(field), s));
    }
    for (const [field, s] of other.clientOperations) {
      const [fingerprint, userAgent] = JSON.parse(field) as [string, string];
      if (this.clients.has(clientField(fingerprint, userAgent))) this.clientOperations.set(field, widen(this.clientOperations.get(field), s));
    }
    for (const [field, n] of other.drops) increment(this.drops, field, n);
    for (const [field, n] of other.clientDrops) {
      const [fingerprint, userAgent] = JSON.parse(field) as [string, string];
      if (this.clients.has(clientField(fingerprint, userAgent))) increment(this.clientDrops, field, n);
    }
  }

  private addOperation(key: string, v1: OperationDelta["v1"], seen: SeenDelta, statuses: Iterable<[number, number]>): void {
    let o = this.operations.get(key);
    if (!o) {
      o = { v1: { ...v1 }, count: 0, first: seen.first, last: seen.last, statuses: new Map() };
      this.operations.set(key, o);
    }
    widen(o, seen);
    for (const [status, n] of statuses) o.statuses.set(status, (o.statuses.get(status) ?? 0) + n);
  }
}
