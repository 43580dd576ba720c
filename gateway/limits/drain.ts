// Graceful drain (SIGTERM): stop accepting, let in-flight requests finish, and close every
// keep-alive connection as soon as it turns idle (and one that never sent a request at once: see
// drain-sockets.ts), so the process exits right after its longest in-flight request instead of
// waiting out the keep-alive timeout. --drain-timeout caps the whole
// stop (both listeners and the usage store's last save): past it the remaining connections (and
// upstream requests) are cut.
import type { FastifyInstance } from "fastify";
import { DrainSockets } from "./drain-sockets.ts";

export class Drain {
  /** True from the start of close(): answers sent from then on carry `Connection: close`. */
  active = false;
  forced = false;
  private readonly sockets: DrainSockets;

  constructor(private readonly app: FastifyInstance) {
    this.sockets = new DrainSockets(app.server);
    // Node closes the socket after an answer that says `Connection: close`, the moment it is sent.
    app.addHook("onSend", (_req, reply, payload, done) => {
      if (this.active) reply.header("connection", "close");
      done(null, payload);
    });
  }

  /** Closes the server; after `timeoutMs`, `cut()` aborts upstream work and every connection is destroyed. */
  async close(timeoutMs: number, cut: () => void): Promise<void> {
    this.active = true;
    this.sockets.drain();
    const timer = setTimeout(() => {
      this.forced = true;
      this.app.log.warn(`drain timeout (${timeoutMs} ms) reached: cutting the remaining connections`);
      cut();
      this.app.server.closeAllConnections();
      this.sockets.destroyAll();
    }, timeoutMs);
    try {
      await this.app.close(); // stops listening, closes idle connections, waits for the rest
    } finally {
      clearTimeout(timer);
    }
  }
}

/** One listener to drain, and what cuts its remaining work when the cap is reached. */
export interface Drainable {
  drain: Drain;
  cut(): void;
}

/**
 * The whole stop within `capMs`: every listener drains at the same time, then `finish` (the usage
 * store's last save or send) gets the time left. Requests that have to be cut are cut `reserveMs`
 * before the cap, so that last save still has that long.
 */
export async function drainWithin(capMs: number, reserveMs: number, listeners: Drainable[], finish: (remainingMs: number) => Promise<void>): Promise<void> {
  const stopBy = performance.now() + capMs;
  const requestsMs = Math.max(0, capMs - reserveMs);
  const closed = await Promise.allSettled(listeners.map((l) => l.drain.close(requestsMs, l.cut)));
  await finish(Math.max(0, stopBy - performance.now()));
  const failed = closed.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}
