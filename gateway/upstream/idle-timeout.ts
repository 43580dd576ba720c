// The /v2 pass-through's upstream timeout (--timeout): a request whose upstream connection has
// moved no byte for that long is aborted, as http-proxy's `proxyTimeout` does it. That option arms
// a socket timer for every request, refreshes it on every read and write, and disarms it again
// when the answer ends (two setTimeout calls, three listeners, a timer object). A table of the
// requests in flight (a Map entry and an object per request) cost more still: 15–20% of the
// pass-through's CPU on the bench (docs/performance.md, session 29). So a request only marks the
// upstream socket it was given (three property stores, no allocation), and one sweep a tenth of the
// timeout apart (10 ms to 1 s) walks the agent's busy sockets (`agent.sockets`) and compares each
// one's byte count with the last sweep's. The abort comes between the timeout and the timeout plus
// two sweep periods after the last byte. An answer already under way is cut too: http-proxy
// reports no error once the upstream's answer has begun, so with `proxyTimeout` alone a stalled
// stream left its client waiting forever.
import type { Agent, ClientRequest, ServerResponse } from "node:http";
import type { Socket } from "node:net";

const kUpstream = Symbol("v2-bridge upstream request");
const kAnswer = Symbol("v2-bridge client answer");
const kBytes = Symbol("v2-bridge bytes at last change");
const kSince = Symbol("v2-bridge time of last change");

/** An upstream socket as marked by `watch`: the request it carries, the client's answer, and the sweep's record. */
type Marked = Socket & { [kUpstream]?: ClientRequest; [kAnswer]?: ServerResponse; [kBytes]?: number; [kSince]?: number };

export class IdleTimeouts {
  private readonly periodMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly agent: Agent,
    private readonly timeoutMs: number,
  ) {
    this.periodMs = Math.max(10, Math.min(1_000, Math.floor(timeoutMs / 10)));
  }

  /** `upstream` (sent for the client's answer `answer`) has its socket: from now on it is aborted once idle for the timeout. */
  watch(upstream: ClientRequest, answer: ServerResponse): void {
    const socket = upstream.socket as Marked;
    socket[kUpstream] = upstream;
    socket[kAnswer] = answer;
    // The next sweep starts the clock (a reused keep-alive socket's byte count carries earlier requests).
    socket[kSince] = -1;
    this.timer ??= setInterval(() => this.sweep(), this.periodMs).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    let watching = false;
    for (const name in this.agent.sockets) {
      for (const socket of (this.agent.sockets[name] ?? []) as Marked[]) {
        const upstream = socket[kUpstream];
        const answer = socket[kAnswer]!;
        // Not marked, or the mark of a request already over (the socket now carries one http-proxy
        // times itself, a request with Expect): nothing of ours to time.
        if (upstream === undefined || upstream.destroyed || answer.writableEnded) continue;
        watching = true;
        const bytes = socket.bytesRead + socket.bytesWritten;
        if (socket[kSince] === -1 || bytes !== socket[kBytes]) {
          socket[kBytes] = bytes;
          socket[kSince] = now;
        } else if (now - socket[kSince]! >= this.timeoutMs) {
          socket[kUpstream] = socket[kAnswer] = undefined;
          // Before an answer: http-proxy's error callback answers the 504. After: the client's answer is cut here.
          upstream.abort();
          if (answer.headersSent) answer.destroy();
        }
      }
    }
    if (!watching) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
