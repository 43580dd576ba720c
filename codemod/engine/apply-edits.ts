// Applies text edits to a file's original source. An edit made for another file, or whose range no
// longer holds the text the planner saw, is refused (the caller leaves the file alone and says so):
// positions mean nothing outside the text they were taken from. Identical duplicates collapse. An
// edit inside another that keeps the text it replaces (a list unwrap `T` → `{ pods: T }` around a
// field rename in `T`) is applied inside it; any other overlap is a conflict. The rewrites write
// their new lines with \n; in a CRLF file they are written with \r\n instead. An edit that copies a
// range elsewhere (`copies`) takes the edits inside that range with it, and where the range itself is
// replaced by text without it, those edits went with the copy: no conflict.
import type { Edit } from "../types.ts";

/** The file's line ending, as its first line break has it. */
export function lineEndingOf(text: string): "\n" | "\r\n" {
  const lf = text.indexOf("\n");
  return lf > 0 && text[lf - 1] === "\r" ? "\r\n" : "\n";
}

export interface Applied {
  output: string;
  /** Edits that overlap another and cannot be applied inside it (two plans disagree). */
  conflicts: Edit[];
  /** Edits made for another file, or for text that is not there: never applied. */
  refused: Edit[];
}

interface Item {
  e: Edit;
  i: number;
  text: string;
  inner: Item[];
}

export function applyEdits(file: string, text: string, edits: Edit[]): Applied {
  const eol = lineEndingOf(text);
  const refused = edits.filter((e) => e.file !== file || text.slice(e.start, e.end) !== e.old);
  const seen = new Set<string>();
  const items: Item[] = [];
  edits.forEach((e, i) => {
    if (refused.includes(e)) return;
    const key = `${e.start}:${e.end}:${e.text}`;
    if (e.start !== e.end && seen.has(key)) return;
    seen.add(key);
    items.push({ e, i, text: eol === "\n" ? e.text : e.text.replace(/\r?\n/g, eol), inner: [] });
  });
  // A shorthand property whose value an edit changes gets its key written once, before any insertion there.
  const keys = new Map<number, Edit>();
  for (const { e } of items) if (e.shorthand && !keys.has(e.shorthand.at)) keys.set(e.shorthand.at, { start: e.shorthand.at, end: e.shorthand.at, text: `${e.shorthand.key}: `, file, old: "" });
  [...keys.values()].forEach((e, k) => items.push({ e, i: -1 - keys.size + k, text: e.text, inner: [] }));
  const conflicts: Edit[] = [];
  const carried = new Set<Edit>();
  for (const item of items) if (item.e.copies) item.text = withCopied(text, item, items, conflicts, carried);
  const output = compose(text, 0, items, conflicts, carried);
  return { output, conflicts, refused };
}

/** `text` (which starts at `offset` of the file) with the items applied; what cannot be is added to `conflicts`. */
function compose(text: string, offset: number, items: Item[], conflicts: Edit[], carried: Set<Edit>): string {
  // By start; at one start, insertions first (they go before what is replaced there), an import first of them, then the wider range.
  const list = [...items].sort((x, y) => x.e.start - y.e.start || isInsert(y) - isInsert(x) || isImport(y) - isImport(x) || y.e.end - x.e.end || x.i - y.i);
  const top: Item[] = [];
  for (const item of list) {
    const last = top.at(-1);
    if (!last || item.e.start >= last.e.end) top.push(item);
    else if (isInsert(last) === 0 && item.e.end <= last.e.end && !(item.e.start === last.e.start && item.e.end === last.e.end)) last.inner.push(item);
    else conflicts.push(item.e);
  }
  let out = "";
  let pos = offset;
  for (const item of top) {
    out += text.slice(pos - offset, item.e.start - offset) + nested(text.slice(item.e.start - offset, item.e.end - offset), item, conflicts, carried);
    pos = item.e.end;
  }
  return out + text.slice(pos - offset);
}

/** An item's text with the edits inside its range applied where it keeps the text it replaces (exactly once). */
function nested(old: string, item: Item, conflicts: Edit[], carried: Set<Edit>): string {
  if (!item.inner.length) return item.text;
  const at = item.text.indexOf(old);
  if (!old || at < 0 || item.text.indexOf(old, at + 1) >= 0) {
    conflicts.push(...item.inner.map((x) => x.e).filter((e) => !carried.has(e)));
    return item.text;
  }
  const inside = compose(old, item.e.start, item.inner, conflicts, carried);
  return item.text.slice(0, at) + inside + item.text.slice(at + old.length);
}

/** The text of an edit that copies [start, end), with the edits planned strictly inside that range applied to the copy. */
function withCopied(text: string, item: Item, items: Item[], conflicts: Edit[], carried: Set<Edit>): string {
  const { start, end } = item.e.copies!;
  // (An insertion at either end is beside the range, not in it.)
  const within = (e: Edit) => (e.start === e.end ? e.start > start && e.start < end : e.start >= start && e.end <= end && !(e.start === start && e.end === end));
  const inside = items.filter((x) => x !== item && !x.e.copies && within(x.e));
  if (!inside.length) return item.text;
  const old = text.slice(start, end);
  const at = item.text.indexOf(old);
  if (!old || at < 0 || item.text.indexOf(old, at + 1) >= 0) return item.text;
  const copy = compose(old, start, inside.map((x) => ({ ...x, inner: [] })), conflicts, carried);
  for (const x of inside) carried.add(x.e);
  return item.text.slice(0, at) + copy + item.text.slice(at + old.length);
}

function isInsert(item: Item): number {
  return item.e.start === item.e.end ? 1 : 0;
}

function isImport(item: Item): number {
  return item.e.import ? 1 : 0;
}
