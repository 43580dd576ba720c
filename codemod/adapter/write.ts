// Writes the generated module into the client project: atomically (temporary file in the same
// directory, then rename), and only when its content differs, so a rerun touches nothing.
import { chmod, mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { AdapterOptions } from "./render.ts";

export interface WriteResult {
  file: string;
  /** False when the file already held exactly this text. */
  written: boolean;
}

export async function writeTextIfChanged(file: string, text: string): Promise<WriteResult> {
  const before = await readFile(file, "utf8").catch(() => undefined);
  if (before === text) return { file, written: false };
  await mkdir(path.dirname(file), { recursive: true });
  const mode = await stat(file).then((s) => s.mode & 0o7777, () => 0o644);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.v2-bridge-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  const handle = await open(tmp, "wx", mode);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(tmp, mode);
    await rename(tmp, file);
  } catch (error) {
    await unlink(tmp).catch(() => {});
    throw error;
  }
  return { file, written: true };
}

export interface WriteAdapterOptions extends AdapterOptions {
  /** Directory inside the project, relative to its root (default: the root). */
  dir?: string;
  /** File name (default: v2-bridge-adapter.ts / .js / .cjs). */
  fileName?: string;
}
