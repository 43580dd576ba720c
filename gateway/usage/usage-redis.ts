// The shared usage store (--usage-store redis://host:port): every gateway replica adds its counts
// to one history in Redis, so the report sees one fleet, not N partial ones.
// Requests never wait for Redis: they are counted in memory (UsageStore) and in a batch that a
// timer sends every --usage-flush-ms as one MULTI (counts with HINCRBY, first/last seen with
// ZADD LT/GT, so replicas merge without reading first). A failed send is merged back and retried.
import { Redis, type RedisOptions } from "ioredis";
import type { FastifyBaseLogger } from "fastify";
import { UsageBatch, clientField, dropField, type SeenDelta } from "./usage-batch.ts";
import type { UsageSnapshot } from "./usage.ts";

/** All keys share one hash tag, so the MULTI also works on a Redis Cluster slot. */
const PREFIX = "v2-bridge:{usage}:";
export const REDIS_KEYS = {
  meta: PREFIX + "meta",
  since: PREFIX + "since",
  opCount: PREFIX + "op:count",
  opRoute: PREFIX + "op:route",
  opStatus: PREFIX + "op:status",
  opFirst: PREFIX + "op:first",
  opLast: PREFIX + "op:last",
  clientCount: PREFIX + "client:count",
  clientFirst: PREFIX + "client:first",
  clientLast: PREFIX + "client:last",
  clientOpCount: PREFIX + "clientop:count",
  clientOpFirst: PREFIX + "clientop:first",
  clientOpLast: PREFIX + "clientop:last",
  dropCount: PREFIX + "drop:count",
  clientDropCount: PREFIX + "clientdrop:count",
} as const;

/** The URL as it may be shown or logged: no password. */
export function displayRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "redis://(unparseable URL)";
  }
}

export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value);
}

/** Client options: commands fail at once while disconnected (no offline queue) and never hang (command timeout). */
function clientOptions(extra: Partial<RedisOptions>): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2_000,
    connectTimeout: 2_000,
    retryStrategy: (times: number) => Math.min(100 * times, 2_000),
    ...extra,
  };
}

export class RedisUsageSync {
  private pending: UsageBatch;
  private readonly redis: Redis;
  private flushing: Promise<void> | undefined;
  private failing = false;

  constructor(
    readonly url: string,
    private readonly bounds: { maxClients: number; maxOperationsPerClient: number },
    private readonly log: FastifyBaseLogger,
  ) {
    this.pending = new UsageBatch(bounds.maxClients);
    this.redis = new Redis(url, clientOptions({}));
    // Connection errors repeat every retry: log the first of an outage and the recovery, not each one.
    this.redis.on("error", (err: Error) => this.trouble(err));
    this.redis.on("ready", () => {
      if (this.failing) this.log.info({ store: displayRedisUrl(url) }, "redis usage store reachable again");
      this.failing = false;
    });
  }

  /** Counts one request into the next batch (synchronous, no I/O). */
  readonly add = (...args: Parameters<UsageBatch["add"]>): void => this.pending.add(...args);

  /** Sends the pending batch; on failure it is kept for the next try. Never throws. */
  async flush(): Promise<void> {
    // A send in progress: wait for it, then send what came in since (once; a timer retries failures).
    if (this.flushing) await this.flushing;
    if (this.flushing) return this.flushing;
    if (this.pending.empty) return;
    const batch = this.pending;
    this.pending = new UsageBatch(this.bounds.maxClients);
    this.flushing = this.send(batch)
      .catch((err: Error) => {
        batch.merge(this.pending);
        this.pending = batch;
        this.trouble(err);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  /** The fleet's history, with this replica's pending counts sent first. Rejects when Redis cannot be read. */
  async snapshot(): Promise<UsageSnapshot> {
    await this.flush();
    return readSnapshot(this.redis, this.bounds);
  }

  async close(): Promise<void> {
    await this.flush();
    if (!this.pending.empty) this.log.error({ requests: this.pending.requests }, "redis usage store unreachable at shutdown: these counts are lost");
    this.redis.disconnect();
  }

  /** Shutdown ran out of time (--drain-timeout): drop the connection now, whatever is still unsent. */
  abandon(): void {
    this.log.error({ requests: this.pending.requests }, "redis usage store: last batch not confirmed within the drain timeout; these counts (and any batch in flight) may be lost");
    this.redis.disconnect();
  }

  private trouble(err: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.log.error({ err: err.message, store: displayRedisUrl(this.url) }, "redis usage store unavailable; counting in memory and retrying");
  }

  private async send(b: UsageBatch): Promise<void> {
    const K = REDIS_KEYS;
    const m = this.redis.multi();
    m.hincrby(K.meta, "requests", b.requests);
    if (b.droppedClientRequests) m.hincrby(K.meta, "evictedClientRequests", b.droppedClientRequests);
    m.zadd(K.since, "LT", b.first, "since");
    const firsts = (entries: Iterable<[string, SeenDelta]>) => [...entries].flatMap(([field, s]) => [s.first, field]);
    const lasts = (entries: Iterable<[string, SeenDelta]>) => [...entries].flatMap(([field, s]) => [s.last, field]);
    for (const [key, o] of b.operations) {
      m.hincrby(K.opCount, key, o.count);
      m.hset(K.opRoute, key, JSON.stringify(o.v1));
      for (const [status, n] of o.statuses) m.hincrby(K.opStatus, `${key} ${status}`, n);
    }
    for (const [field, s] of b.clients) m.hincrby(K.clientCount, field, s.count);
    for (const [field, s] of b.clientOperations) m.hincrby(K.clientOpCount, field, s.count);
    for (const [field, n] of b.drops) m.hincrby(K.dropCount, field, n);
    for (const [field, n] of b.clientDrops) m.hincrby(K.clientDropCount, field, n);
    const zadds: [string, "LT" | "GT", (string | number)[]][] = [
      [K.opFirst, "LT", firsts(b.operations)],
      [K.opLast, "GT", lasts(b.operations)],
      [K.clientFirst, "LT", firsts(b.clients)],
      [K.clientLast, "GT", lasts(b.clients)],
      [K.clientOpFirst, "LT", firsts(b.clientOperations)],
      [K.clientOpLast, "GT", lasts(b.clientOperations)],
    ];
    for (const [key, flag, args] of zadds) if (args.length) m.zadd(key, flag, ...args);
    const results = await m.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error("redis MULTI was discarded");
  }
}

/** Reads the shared history once (the `report --traffic redis://…` path): connect, read, disconnect. */
export async function readUsageFromRedis(url: string, bounds = { maxClients: 100_000, maxOperationsPerClient: 10_000 }): Promise<UsageSnapshot> {
  const redis = new Redis(url, clientOptions({ lazyConnect: true, retryStrategy: () => null }));
  // The socket's error (ECONNREFUSED …) names the cause; connect() itself only says "Connection is closed".
  let cause: Error | undefined;
  redis.on("error", (err: Error) => (cause ??= err));
  try {
    await redis.connect().catch((err: Error) => Promise.reject(cause ?? err));
    return await readSnapshot(redis, bounds);
  } finally {
    redis.disconnect();
  }
}

const fromPairs = (flat: string[]): [string, number][] => {
  const out: [string, number][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, Number(flat[i + 1])]);
  return out;
};

/** One consistent read (MULTI) of every key, shaped as the usage snapshot, within the given bounds. */
async function readSnapshot(redis: Redis, bounds: { maxClients: number; maxOperationsPerClient: number }): Promise<UsageSnapshot> {
  const K = REDIS_KEYS;
  const m = redis.multi();
  m.hgetall(K.meta);
  m.zrange(K.since, "0", "-1", "WITHSCORES");
  for (const k of [K.opCount, K.opRoute, K.opStatus]) m.hgetall(k);
  for (const k of [K.opFirst, K.opLast]) m.zrange(k, "0", "-1", "WITHSCORES");
  m.hgetall(K.clientCount);
  for (const k of [K.clientFirst, K.clientLast]) m.zrange(k, "0", "-1", "WITHSCORES");
  m.hgetall(K.clientOpCount);
  for (const k of [K.clientOpFirst, K.clientOpLast]) m.zrange(k, "0", "-1", "WITHSCORES");
  for (const k of [K.dropCount, K.clientDropCount]) m.hgetall(k);
  const results = await m.exec();
  if (!results) throw new Error("redis MULTI was discarded");
  for (const [err] of results) if (err) throw err;
  const r = results.map(([, v]) => v) as unknown[];
  const [meta, since, opCount, opRoute, opStatus, opFirst, opLast, clientCount, clientFirst, clientLast, clientOpCount, clientOpFirst, clientOpLast, dropCount, clientDropCount] = r as [
    Record<string, string>, string[], Record<string, string>, Record<string, string>, Record<string, string>, string[], string[],
    Record<string, string>, string[], string[], Record<string, string>, string[], string[], Record<string, string>, Record<string, string>,
  ];
  const iso = (ms: number | undefined) => new Date(ms ?? 0).toISOString();
  const now = Date.now();
  const opFirstMap = new Map(fromPairs(opFirst));
  const opLastMap = new Map(fromPairs(opLast));
  const clientFirstMap = new Map(fromPairs(clientFirst));
  const clientLastMap = new Map(fromPairs(clientLast));
  const coFirst = new Map(fromPairs(clientOpFirst));
  const coLast = new Map(fromPairs(clientOpLast));

  const statuses = new Map<string, Record<string, number>>();
  for (const [field, n] of Object.entries(opStatus)) {
    const [key, status] = field.split(" ") as [string, string];
    statuses.set(key, { ...(statuses.get(key) ?? {}), [status]: Number(n) });
  }
  const opsOfClient = new Map<string, [string, number][]>();
  const clientsOfOp = new Map<string, number>();
  for (const [field, n] of Object.entries(clientOpCount)) {
    const [fingerprint, userAgent, op] = JSON.parse(field) as [string, string, string];
    const client = JSON.stringify([fingerprint, userAgent]);
    opsOfClient.set(client, [...(opsOfClient.get(client) ?? []), [op, Number(n)]]);
    clientsOfOp.set(op, (clientsOfOp.get(op) ?? 0) + 1);
  }

  const allClients = Object.entries(clientCount)
    .map(([field, n]) => ({ field, count: Number(n), last: clientLastMap.get(field) ?? 0 }))
    .sort((a, b) => b.last - a.last);
  const kept = allClients.slice(0, bounds.maxClients);
  const drops = readDrops(dropCount, clientDropCount, new Set(kept.map((c) => c.field)));
  const sortedStatuses = (s: Record<string, number> = {}) => Object.fromEntries(Object.entries(s).sort((a, b) => Number(a[0]) - Number(b[0])));

  return {
    generatedAt: iso(now),
    since: iso(fromPairs(since)[0]?.[1] ?? now),
    totals: { requests: Number(meta.requests ?? 0), clients: kept.length, evictedClients: allClients.length - kept.length },
    operations: Object.entries(opCount)
      .map(([key, n]) => ({
        key,
        v1: JSON.parse(opRoute[key] ?? '{"method":"","path":""}') as { method: string; path: string },
        count: Number(n),
        clients: clientsOfOp.get(key) ?? 0,
        firstSeen: iso(opFirstMap.get(key)),
        lastSeen: iso(opLastMap.get(key)),
        statuses: sortedStatuses(statuses.get(key)),
      }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    clients: kept.map(({ field, count }) => {
      const [fingerprint, userAgent] = JSON.parse(field) as [string, string];
      const ops = (opsOfClient.get(field) ?? [])
        .map(([op, n]) => {
          const f = JSON.stringify([fingerprint, userAgent, op]);
          return { op, count: n, first: coFirst.get(f), last: coLast.get(f) ?? 0 };
        })
        .sort((a, b) => b.last - a.last)
        .slice(0, bounds.maxOperationsPerClient);
      return {
        fingerprint,
        userAgent,
        count,
        firstSeen: iso(clientFirstMap.get(field)),
        lastSeen: iso(clientLastMap.get(field)),
        operations: Object.fromEntries(ops.map((o) => [o.op, { count: o.count, firstSeen: iso(o.first), lastSeen: iso(o.last) }])),
        drops: drops.ofClient.get(field) ?? {},
      };
    }),
    drops: drops.list,
  };
}

/** The drop counts (what clients send that v2 drops), overall and per listed client. */
function readDrops(dropCount: Record<string, string>, clientDropCount: Record<string, string>, listed: Set<string>) {
  const ofClient = new Map<string, Record<string, Record<string, number>>>();
  const clientsOf = new Map<string, number>();
  for (const [field, n] of Object.entries(clientDropCount)) {
    const [fingerprint, userAgent, op, name] = JSON.parse(field) as [string, string, string, string];
    const client = clientField(fingerprint, userAgent);
    if (!listed.has(client)) continue;
    const mine = ofClient.get(client) ?? {};
    (mine[op] ??= {})[name] = Number(n);
    ofClient.set(client, mine);
    clientsOf.set(dropField(op, name), (clientsOf.get(dropField(op, name)) ?? 0) + 1);
  }
  const list = Object.entries(dropCount)
    .map(([field, n]) => {
      const [key, name] = JSON.parse(field) as [string, string];
      return { key, field: name, count: Number(n), clients: clientsOf.get(field) ?? 0 };
    })
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key) || a.field.localeCompare(b.field));
  return { list, ofClient };
}
