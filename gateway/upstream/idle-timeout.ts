// The /v2 pass-through's upstream timeout (--timeout): a request whose upstream connection has
// moved no byte for that long is aborted, as http-proxy's `proxyTimeout` does it. That option arms
// a socket timer for every request, refreshes it on every read and write, and disarms it again
// when the answer ends (two setTimeout calls, three listeners, a timer object: ~6 µs a request on
// the bench, docs/performance.md). Here one sweep, a tenth of the timeout apart (10 ms to 1 s),
// compares each request's byte counts with the last sweep's instead; a request pays a Map entry.
// The abort comes between the timeout and the timeout plus two sweep periods after the last byte.
// An answer already under way is cut too: http-proxy reports no error once the upstream's answer
// has begun, so with `proxyTimeout` alone a stalled stream left its client waiting forever.
import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";

interface Watched {
  upstream: ClientRequest;
  answer: ServerResponse;
  /** Bytes read and written on the upstream socket at the last sweep that saw them change (-1: no socket yet). */
  bytes: number;
  /** When that sweep ran. */
  since: number;
}

export class IdleTimeouts {
  private readonly inFlight = new Map<IncomingMessage, Watched>();
  private readonly periodMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {
    this.periodMs = Math.max(10, Math.min(1_000, Math.floor(timeoutMs / 10)));
  }

  /** From now on, `upstream` (the request sent for the client's `req`, answered on `answer`) is aborted once idle for the timeout. */
  watch(req: IncomingMessage, upstream: ClientRequest, answer: ServerResponse): void {
    this.inFlight.set(req, { upstream, answer, bytes: -1, since: Date.now() });
    this.timer ??= setInterval(() => this.sweep(), this.periodMs).unref();
  }

  /** The client's request is answered (or failed): its upstream request is no longer timed. */
  settled(req: IncomingMessage): void {
    this.inFlight.delete(req);
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.inFlight.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [req, w] of this.inFlight) {
      const upstream = w.upstream;
      // Ended or aborted without passing settled() (a client that went away): forget it.
      if (upstream.destroyed) {
        this.inFlight.delete(req);
        continue;
      }
      // As a socket timeout, the clock starts once the agent has given the request a socket.
      const socket = upstream.socket;
      const bytes = socket ? socket.bytesRead + socket.bytesWritten : -1;
      if (bytes !== w.bytes || bytes === -1) {
        w.bytes = bytes;
        w.since = now;
      } else if (now - w.since >= this.timeoutMs) {
        this.inFlight.delete(req);
        // Before an answer: http-proxy's error callback answers the 504. After: the client's answer is cut here.
        upstream.abort();
        if (w.answer.headersSent) w.answer.destroy();
      }
    }
    if (this.inFlight.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
