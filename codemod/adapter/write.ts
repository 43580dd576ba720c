// Writes the generated module into the client project: atomically (temporary file in the same
// directory, then rename), and only when its content differs, so a rerun touches nothing.
import { mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../../product/atomic-write.ts";
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
  // A regenerated adapter keeps its mode; a new one is 0644 whatever the umask (as it always was).
  const mode = await stat(file).then((s) => s.mode & 0o7777, () => 0o644);
  await writeFileAtomic(file, text, { mode });
  return { file, written: true };
}

export interface WriteAdapterOptions extends AdapterOptions {
  /** Directory inside the project, relative to its root (default: the root). */
  dir?: string;
  /** File name (default: v2-bridge-adapter.ts / .js / .cjs). */
  fileName?: string;
}
