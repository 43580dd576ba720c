// Every edit is made here, from a node of the file it changes: it carries that file's path and the
// text it replaces as the planner saw it, so applying can refuse an edit that would land anywhere
// else (apply-edits.ts). Positions outside the file are a planner's bug, caught where they are made.
import { Node } from "../ts-morph.ts";
import type { Edit } from "../types.ts";

/** Replace [start, end) of `at`'s file with `text` (an insertion when start === end). */
export function textEdit(at: Node, start: number, end: number, text: string): Edit {
  const sf = at.getSourceFile();
  const source = sf.getFullText();
  if (!(start >= 0 && start <= end && end <= source.length)) {
    throw new Error(`internal: an edit at ${start}..${end} is outside ${sf.getBaseName()} (${source.length} characters)`);
  }
  const e: Edit = { start, end, text, file: sf.getFilePath(), old: source.slice(start, end) };
  const shorthand = shorthandValue(at, start, end);
  if (shorthand) e.shorthand = shorthand;
  return e;
}

/**
 * `{ body }`: the name is both the key and the value. An edit made at the name (wrapping it,
 * replacing it) changes the value, so the key must be written out; one made at the property
 * (renaming the key) is the caller's own. Every wrap and replacement site gets this from here.
 */
function shorthandValue(at: Node, start: number, end: number): Edit["shorthand"] {
  const p = at.getParent();
  if (!p || !Node.isShorthandPropertyAssignment(p) || p.getNameNode() !== at) return undefined;
  if (start < at.getStart() || end > at.getEnd()) return undefined;
  return { at: at.getStart(), key: at.getText() };
}

/** Replace a node's text (its start to its end, trivia excluded). */
export function replaceNode(node: Node, text: string): Edit {
  return textEdit(node, node.getStart(), node.getEnd(), text);
}

/** Insert text at a position of `at`'s file. */
export function insertAt(at: Node, pos: number, text: string): Edit {
  return textEdit(at, pos, pos, text);
}
