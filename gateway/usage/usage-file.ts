// The local usage store: the usage audit saved as a usage snapshot (the same JSON as
// GET /_bridge/usage) in the state directory, periodically and on shutdown, and added back on start.
import { readFile, rename } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { parseUsage } from "../../formats/read-inputs.ts";
import { writeFileAtomic } from "../../product/atomic-write.ts";
import { USAGE_FILE, ensureStateDir } from "./state-dir.ts";
import type { UsageSnapshot, UsageStore } from "./usage.ts";

export class UsageFile {
  readonly file: string;
  private savedRevision = -1;
  private saving: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    private readonly usage: UsageStore,
    private readonly log: FastifyBaseLogger,
  ) {
    this.file = path.join(dir, USAGE_FILE);
  }

  /** Adds the saved history to the store. A damaged file is moved aside (never silently overwritten) and counting starts afresh. */
  async load(): Promise<void> {
    await ensureStateDir(this.dir);
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    let saved: UsageSnapshot;
    try {
      saved = parseUsage(JSON.parse(text), `usage store ${this.file}`);
    } catch (err) {
      const aside = `${this.file}.damaged-${Date.now()}`;
      await rename(this.file, aside);
      this.log.warn({ err: (err as Error).message, movedTo: aside }, "usage store unreadable: moved aside, counting from zero");
      return;
    }
    this.usage.restore(saved);
    this.savedRevision = this.usage.revision;
  }

  /** Saves when anything changed since the last save; one save at a time. Errors are logged, not thrown (the next period retries). */
  save(): Promise<void> {
    if (this.saving) return this.saving.then(() => this.save());
    if (this.usage.revision === this.savedRevision) return Promise.resolve();
    const revision = this.usage.revision;
    const data = JSON.stringify(this.usage.snapshot());
    this.saving = writeFileAtomic(this.file, data, { mode: 0o600 }) // owner-only, like the state directory
      .then(() => {
        this.savedRevision = revision;
      })
      .catch((err: Error) => this.log.error({ err: err.message }, "could not save the usage store; will retry"))
      .finally(() => {
        this.saving = undefined;
      });
    return this.saving;
  }
}
