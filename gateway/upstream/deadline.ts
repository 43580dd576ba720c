// The total time budget of one v1 request's upstream work: every upstream call it makes (emulation
// follow-ups, GPU-priority retries, catalog waits) shares one deadline, besides each call's own idle
// timeout. Past it the in-flight calls are aborted and the v1 client gets a 504.
// Made for every v1 request, so it is cheap: one timer; an AbortSignal only for code that asks for
// one (creating one and listening on it costs more than the rest of the request's bookkeeping);
// undici gets an EventEmitter signal, which it accepts too.
import { EventEmitter } from "node:events";
import { V1Error } from "../translation/v1-errors.ts";

/** What undici's `signal` option accepts besides an AbortSignal: an emitter of "abort" with `aborted` (and `reason`). */
export interface UpstreamSignal extends EventEmitter {
  aborted: boolean;
  reason?: unknown;
}

export class Deadline {
  private readonly timer: NodeJS.Timeout;
  private readonly endsAt: number;
  private expired = false;
  private controller?: AbortController;
  private emitter?: UpstreamSignal;
  private onExpire?: (error: V1Error) => void;

  constructor(readonly ms: number) {
    this.timer = setTimeout(() => this.expire(), ms).unref();
    this.endsAt = performance.now() + ms;
  }

  /** Time left before the deadline passes (0 once it has). */
  get remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  private expire(): void {
    this.expired = true;
    this.controller?.abort();
    if (this.emitter) {
      this.emitter.aborted = true;
      this.emitter.reason = this.error();
      this.emitter.emit("abort");
    }
    this.onExpire?.(this.error());
  }

  /** Aborts work still in flight when the deadline passes. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.expired) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** The same for undici requests, for a fraction of an AbortSignal's cost. */
  get upstreamSignal(): UpstreamSignal {
    if (!this.emitter) {
      const emitter = new EventEmitter() as UpstreamSignal;
      emitter.setMaxListeners(0); // one listener per concurrent upstream call, however many
      emitter.aborted = this.expired;
      this.emitter = emitter;
    }
    return this.emitter;
  }

  get passed(): boolean {
    return this.expired;
  }

  error(): V1Error {
    return new V1Error(504, `upstream v2 API did not finish within ${this.ms} ms, the deadline for this v1 request (--upstream-deadline)`, "upstream");
  }

  /** The work's result, or the deadline's 504 if that comes first; the timer is cleared either way. */
  run<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {}); // a late failure after the deadline has already answered
    return new Promise<T>((resolve, reject) => {
      if (this.expired) {
        reject(this.error());
        return;
      }
      this.onExpire = reject;
      work.then(
        (value) => {
          clearTimeout(this.timer);
          this.onExpire = undefined;
          resolve(value);
        },
        (error) => {
          clearTimeout(this.timer);
          this.onExpire = undefined;
          reject(error);
        },
      );
    });
  }
}
