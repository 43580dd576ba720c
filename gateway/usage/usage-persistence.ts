// Where the usage audit lives beyond this process: nowhere (memory), the local store in the state
// directory (file), or the shared Redis store (redis://). Picks one, starts its timer, and says
// what GET /_bridge/usage shows.
import type { FastifyBaseLogger } from "fastify";
import type { GatewayConfig } from "../config.ts";
import { UsageFile } from "./usage-file.ts";
import { RedisUsageSync } from "./usage-redis.ts";
import type { UsageSnapshot, UsageStore } from "./usage.ts";

export interface UsagePersistence {
  /** What /_bridge/usage shows: this process's counts, or the fleet's when the store is shared. */
  snapshot(): Promise<UsageSnapshot>;
  /**
   * Saves or sends what is left (called after in-flight requests finished), giving up after
   * `withinMs` (what is left of --drain-timeout); default: no limit.
   */
  close(withinMs?: number): Promise<void>;
}

/** Whether `work` settles within `ms` (it keeps running either way). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const done = work.then(
    () => true,
    () => true,
  );
  if (!Number.isFinite(ms)) return done;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startUsagePersistence(config: GatewayConfig, usage: UsageStore, log: FastifyBaseLogger): Promise<UsagePersistence> {
  const store = config.usageStore;
  if (store === "memory") return { snapshot: async () => usage.snapshot(), close: async () => {} };

  if (store === "file") {
    const file = new UsageFile(config.stateDir!, usage, log);
    await file.load();
    const timer = setInterval(() => void file.save(), config.usageFlushMs).unref();
    return {
      snapshot: async () => usage.snapshot(),
      async close(withinMs = Infinity) {
        clearInterval(timer);
        // The save is an atomic rename: one cut short leaves the previous file whole.
        if (!(await settlesWithin(file.save(), withinMs))) {
          log.error({ file: file.file }, "usage store not saved within the drain timeout; the last saved copy stays (counts since then are lost)");
        }
      },
    };
  }

  const sync = new RedisUsageSync(store, config, log);
  usage.onRecord = sync.add;
  const timer = setInterval(() => void sync.flush(), config.usageFlushMs).unref();
  return {
    async snapshot() {
      try {
        return await sync.snapshot();
      } catch (err) {
        // The page still answers: this replica's own counts (the report says "since" this start).
        log.warn({ err: (err as Error).message }, "redis usage store unreadable; answering with this replica's counts");
        return usage.snapshot();
      }
    },
    async close(withinMs = Infinity) {
      clearInterval(timer);
      if (!(await settlesWithin(sync.close(), withinMs))) sync.abandon();
    },
  };
}
