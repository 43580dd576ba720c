// The drain's view of client connections. Node cannot be relied on for it: on Node 20
// closeIdleConnections() skips sockets that never sent a request, and server.close() stops the
// checker that enforces the headers and request timeouts on every version, so an idle socket or a
// half-sent request would hold the drain until its cap. This tracks each socket itself: a socket
// with no request in flight is closed at once when the drain starts (or when its last answer is
// sent), unless the client has started sending another request; that one gets the listener's
// headers timeout (request timeout for a half-sent body) counted from the drain, then a v1 408.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

interface Tracked {
  /** Requests on the socket whose answer has not finished (more than one when pipelined). */
  inFlight: number;
  /** socket.bytesRead when its last answer finished: more since then is the start of another request. */
  bytesAtIdle: number;
  /** The latest request and its answer (a body still arriving at the drain gets the request timeout). */
  req?: IncomingMessage;
  res?: ServerResponse;
  timer?: NodeJS.Timeout;
}

const kTracked = Symbol("v2-bridge drain");
type TrackedSocket = Socket & { [kTracked]?: Tracked };

export class DrainSockets {
  private readonly sockets = new Set<TrackedSocket>();
  private draining = false;

  constructor(private readonly server: Server) {
    server.on("connection", (socket: TrackedSocket) => {
      const t: Tracked = { inFlight: 0, bytesAtIdle: 0 };
      socket[kTracked] = t;
      this.sockets.add(socket);
      socket.once("close", () => {
        clearTimeout(t.timer);
        this.sockets.delete(socket);
      });
      // Accepted while the listener was closing: it has the headers timeout to send its request.
      if (this.draining) this.answerBy(socket, t, this.server.headersTimeout, "headers");
    });
    // Per request: a counter and one listener on its answer (the hot path pays no more).
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket as TrackedSocket;
      const t = socket[kTracked];
      if (!t) return;
      t.inFlight++;
      t.req = req;
      t.res = res;
      if (t.timer) {
        // The half-sent request arrived whole: it is answered like any other (with Connection: close).
        clearTimeout(t.timer);
        t.timer = undefined;
      }
      if (this.draining && !req.complete) this.answerBy(socket, t, this.server.requestTimeout, "request");
      res.on("close", () => {
        clearTimeout(t.timer);
        t.timer = undefined;
        t.inFlight--;
        t.bytesAtIdle = socket.bytesRead;
        // An answer with `Connection: close` has already ended the socket; a keep-alive one left it idle.
        if (this.draining && t.inFlight === 0 && !socket.writableEnded) this.settle(socket, t);
      });
    });
  }

  /** From now on no socket waits for a request: idle ones close now, half-sent ones get their timeout. */
  drain(): void {
    this.draining = true;
    for (const socket of this.sockets) {
      const t = socket[kTracked]!;
      if (t.inFlight === 0) this.settle(socket, t);
      else if (t.req && !t.req.complete) this.answerBy(socket, t, this.server.requestTimeout, "request");
    }
  }

  /** The drain cap was reached: every remaining socket goes. */
  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private settle(socket: TrackedSocket, t: Tracked): void {
    if (socket.destroyed) return;
    if (socket.bytesRead > t.bytesAtIdle) this.answerBy(socket, t, this.server.headersTimeout, "headers");
    else socket.destroy();
  }

  /** A 408 and the end of the socket if its request is not in by then (0: Node's "no timeout" stays none). */
  private answerBy(socket: TrackedSocket, t: Tracked, ms: number, what: "headers" | "request"): void {
    if (t.timer || !ms) return;
    t.timer = setTimeout(() => {
      t.timer = undefined;
      if (socket.destroyed || (what === "request" && t.req?.complete)) return;
      // A body cut off after its answer has started: no room for a 408.
      if (what === "request" && t.res?.headersSent) return void socket.destroy();
      const body = JSON.stringify({ message: `the gateway is shutting down and the request ${what === "headers" ? "headers" : "body"} did not arrive within ${ms} ms` });
      const head = `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
      socket.end(head + body, () => socket.destroy());
    }, ms);
  }
}
