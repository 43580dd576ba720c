// Graceful drain (SIGTERM): stop accepting, let in-flight requests finish, and close every
// keep-alive connection as soon as it turns idle, so the process exits right after its longest
// in-flight request instead of waiting out the keep-alive timeout. --drain-timeout caps the wait:
// past it the remaining connections (and upstream requests) are cut.
import type { FastifyInstance } from "fastify";

export class Drain {
  /** True from the start of close(): answers sent from then on carry `Connection: close`. */
  active = false;
  forced = false;

  constructor(private readonly app: FastifyInstance) {
    // Node closes the socket after an answer that says `Connection: close`, the moment it is sent.
    app.addHook("onSend", (_req, reply, payload, done) => {
      if (this.active) reply.header("connection", "close");
      done(null, payload);
    });
  }

  /** Closes the server; after `timeoutMs`, `cut()` aborts upstream work and every connection is destroyed. */
  async close(timeoutMs: number, cut: () => void): Promise<void> {
    this.active = true;
    const timer = setTimeout(() => {
      this.forced = true;
      this.app.log.warn(`drain timeout (${timeoutMs} ms) reached: cutting the remaining connections`);
      cut();
      this.app.server.closeAllConnections();
    }, timeoutMs);
    try {
      await this.app.close(); // stops listening, closes idle connections, waits for the rest
    } finally {
      clearTimeout(timer);
    }
  }
}
