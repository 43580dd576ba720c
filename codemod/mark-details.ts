// The details of the marks `rewrite --write` leaves, kept beside the project in
// `.v2-bridge/codemod-marks.json` under the run's root: for each marked site, every problem with
// its advice. A mark is one short line; a later run that can only read a mark back (its site now
// calls v2, or keeps v1 through a base it no longer sees as v1) takes the site's problems from
// here, as the run that wrote the mark found them, rather than from the line. Without the file
// (deleted, not committed), the finding says what the line says.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../product/atomic-write.ts";
import type { MarkDetail } from "./types.ts";

export const MARK_DETAILS = path.join(".v2-bridge", "codemod-marks.json");

interface DetailsFile {
  tool: "v2-bridge";
  version: 1;
  /** Path relative to the file's directory's parent (the run's root) → the marks in that file. */
  files: Record<string, MarkDetail[]>;
}

function read(file: string): DetailsFile | undefined {
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as DetailsFile;
    return json?.tool === "v2-bridge" && json.version === 1 && json.files && typeof json.files === "object" ? json : undefined;
  } catch {
    return undefined;
  }
}

/** The details of a source file's marks: from the nearest `.v2-bridge/codemod-marks.json` above it. */
export function markDetailsReader(): (file: string) => MarkDetail[] | undefined {
  const byDir = new Map<string, { root: string; json: DetailsFile } | null>();
  const near = (dir: string): { root: string; json: DetailsFile } | null => {
    if (byDir.has(dir)) return byDir.get(dir)!;
    const json = existsSync(path.join(dir, MARK_DETAILS)) ? read(path.join(dir, MARK_DETAILS)) : undefined;
    const parent = path.dirname(dir);
    const found = json ? { root: dir, json } : parent === dir ? null : near(parent);
    byDir.set(dir, found);
    return found;
  };
  return (file) => {
    const at = near(path.dirname(file));
    return at ? at.json.files[path.relative(at.root, file).split(path.sep).join("/")] : undefined;
  };
}

/**
 * Writes the details of the marks now in the run's files under `root`; the entries of files the
 * run did not analyse are kept. Not written when nothing is marked and there was no file.
 */
export async function writeMarkDetails(root: string, marks: Map<string, MarkDetail[]>): Promise<void> {
  const target = path.join(root, MARK_DETAILS);
  const old = existsSync(target) ? read(target) : undefined;
  const files: Record<string, MarkDetail[]> = { ...(old?.files ?? {}) };
  for (const [file, list] of marks) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    if (rel.startsWith("..")) continue;
    if (list.length) files[rel] = list;
    else delete files[rel];
  }
  if (!old && !Object.keys(files).length) return;
  const sorted = Object.fromEntries(Object.keys(files).sort().map((k) => [k, files[k]!]));
  const text = JSON.stringify({ tool: "v2-bridge", version: 1, files: sorted } satisfies DetailsFile, null, 2) + "\n";
  if (existsSync(target) && readFileSync(target, "utf8") === text) return;
  mkdirSync(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, text);
}
