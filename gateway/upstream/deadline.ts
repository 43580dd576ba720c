// The total time budget of one v1 request's upstream work: every upstream call it makes (emulation
// follow-ups, GPU-priority retries, catalog waits) shares one deadline, besides each call's own idle
// timeout. Past it the in-flight calls are aborted and the v1 client gets a 504.
import { V1Error } from "../translation/v1-errors.ts";

export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly endsAt: number;
  private expired!: Promise<never>;

  constructor(readonly ms: number) {
    this.expired = new Promise<never>((_resolve, reject) => {
      this.controller.signal.addEventListener("abort", () => reject(this.error()), { once: true });
    });
    this.expired.catch(() => {}); // only observed through run()
    this.timer = setTimeout(() => this.controller.abort(), ms).unref();
    this.endsAt = performance.now() + ms;
  }

  /** Time left before the deadline passes (0 once it has). */
  get remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** Aborts upstream requests still in flight when the deadline passes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  error(): V1Error {
    return new V1Error(504, `upstream v2 API did not finish within ${this.ms} ms, the deadline for this v1 request (--upstream-deadline)`, "upstream");
  }

  /** The work's result, or the deadline's 504 if that comes first; the timer is cleared either way. */
  async run<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {}); // a late failure after the deadline has already answered
    try {
      return await Promise.race([work, this.expired]);
    } finally {
      clearTimeout(this.timer);
    }
  }
}
