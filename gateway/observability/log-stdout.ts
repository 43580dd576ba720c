// stdout for `--log`: log lines are gathered and written in batches of about 16 KB, at least every
// 250 ms, and whatever is left when the process exits. One write per line cost a request as much
// CPU as building its line; pino's SonicBoom with a 4 KB minimum still spent more on a line than
// building it (it re-measures its growing buffer on every line), this ~0.7 µs
// (docs/performance.md). Writes are synchronous, as pino's own `sync` destination: a line is never
// held in memory past a stalled reader, the process waits for it instead.
import fs from "node:fs";

const BATCH_CHARS = 16_384;
const FLUSH_MS = 250;
/** Pause before retrying a write to a full non-blocking pipe (as SonicBoom does). */
const FULL_PIPE_WAIT_MS = 10;

export class BatchedStdout {
  private parts: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;
  private broken = false;

  constructor(private readonly fd = 1) {
    process.on("exit", () => this.flushSync());
  }

  /** pino's destination interface: one serialised line at a time. */
  write(line: string): boolean {
    if (this.broken) return true;
    this.parts.push(line);
    this.chars += line.length;
    if (this.chars >= BATCH_CHARS) this.flushSync();
    else this.timer ??= setTimeout(() => this.flushSync(), FLUSH_MS).unref();
    return true;
  }

  flushSync(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.parts.length) return;
    const data = Buffer.from(this.parts.length === 1 ? this.parts[0]! : this.parts.join(""), "utf8");
    this.parts = [];
    this.chars = 0;
    let offset = 0;
    while (offset < data.length && !this.broken) {
      try {
        offset += fs.writeSync(this.fd, data, offset);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EAGAIN") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FULL_PIPE_WAIT_MS);
        // Nobody reads the log any more (EPIPE) or stdout is unusable: logging stops, serving goes on.
        else this.broken = true;
      }
    }
  }
}
