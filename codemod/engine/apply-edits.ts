// Applies text edits to a file's original source: non-overlapping edits in order; identical
// duplicates collapse; conflicting ones are returned (the caller leaves the file alone). The
// rewrites write their new lines with \n; in a CRLF file they are written with \r\n instead.
import type { Edit } from "../types.ts";

/** The file's line ending, as its first line break has it. */
export function lineEndingOf(text: string): "\n" | "\r\n" {
  const lf = text.indexOf("\n");
  return lf > 0 && text[lf - 1] === "\r" ? "\r\n" : "\n";
}

export function applyEdits(text: string, edits: Edit[]): { output: string; conflicts: Edit[] } {
  const eol = lineEndingOf(text);
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
    out += text.slice(pos, e.start) + (eol === "\n" ? e.text : e.text.replace(/\r?\n/g, eol));
    pos = e.end;
  }
  return { output: out + text.slice(pos), conflicts };
}
