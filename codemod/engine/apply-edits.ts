// Applies text edits to a file's original source: non-overlapping edits in order; identical
// duplicates collapse; conflicting ones are returned (the caller leaves the file alone).
import type { Edit } from "../types.ts";

export function applyEdits(text: string, edits: Edit[]): { output: string; conflicts: Edit[] } {
  const seen = new Set<string>();
  const list = edits
    .map((e, i) => ({ ...e, i }))
    .filter((e) => {
      const key = `${e.start}:${e.end}:${e.text}`;
      if (e.start !== e.end && seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((x, y) => x.start - y.start || (x.start === x.end ? 0 : 1) - (y.start === y.end ? 0 : 1) || x.i - y.i);
  const conflicts: Edit[] = [];
  let out = "";
  let pos = 0;
  for (const e of list) {
    if (e.start < pos) {
      conflicts.push(e);
      continue;
    }
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return { output: out + text.slice(pos), conflicts };
}
