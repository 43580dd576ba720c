// The gateway's state directory (--state-dir): what must outlive a process. Today the
// fingerprint salt (so a client keeps its name across restarts) and the local usage store.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export const SALT_FILE = "fingerprint-salt";
export const USAGE_FILE = "usage.json";

/** Creates the directory (owner-only) if needed. */
export async function ensureStateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/**
 * The salt kept in `<dir>/fingerprint-salt`, created on first use (random, owner-only). Created
 * with O_EXCL, so two processes starting on one directory still agree on one salt.
 */
export async function loadOrCreateSalt(dir: string): Promise<string> {
  await ensureStateDir(dir);
  const file = path.join(dir, SALT_FILE);
  const fresh = randomBytes(32).toString("hex");
  try {
    await writeFile(file, fresh + "\n", { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const salt = (await readFile(file, "utf8")).trim();
  if (salt.length < 16) throw new Error(`${file} holds no usable salt (delete it to make a new one; client fingerprints then change)`);
  return salt;
}
