// Positions quoted in the marks a run writes (`the answer is handed to show (pods.ts:12)`) are taken
// from the files as they were read; the marks and rewrites inserted above them move those lines. So
// once every file's edits are known, each quoted `file.ts:N` is turned into the line it will have in
// the written file: a second run, reading that file, quotes the same line. A name that more than one
// file of the run has (two `index.ts`) is placed only when it is the marked file's own, or quoted
// with the folders that make it one file's (`src/index.ts:45`, quotedPosition); else it is left as read.
import type { Node } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import type { Analysis, FileState } from "./state.ts";

/**
 * `pods.ts:12`, `src/index.ts:45`, as every position in a mark is written (todo-marks.ts reads marks
 * without them). Names of file-based routes count whole (`[id].get.ts`, `[...slug].ts`, `+page.ts`,
 * `$podId.tsx`, folders `(admin)/`, `@modal/`): a name read short (`.get.ts`) is no file's, left unplaced.
 */
const NAME = String.raw`[\w.\-[\]+$@~]+`;
const POSITION = new RegExp(String.raw`((?:(?:\(${NAME}\)|${NAME})\/)*${NAME}\.[cm]?[jt]sx?):(\d+)\b`, "g");

/**
 * Where a node is, as a mark quotes it: its file's name (with as many of its folders as make it the
 * only such file of the project, so the position can be placed in the written file) and its line.
 */
export function quotedPosition(n: Node): string {
  const sf = n.getSourceFile();
  const paths = sf.getProject().getSourceFiles().map((f) => f.getFilePath() as string);
  return `${shortestName(paths, sf.getFilePath())}:${sf.getLineAndColumnAtPos(n.getStart()).line}`;
}

/** The first three calls' positions, and how many more there are (`pods.ts:4, pods.ts:9, api.ts:2, and 2 more`). */
export function quotedCalls(calls: Node[]): string {
  return calls.slice(0, 3).map(quotedPosition).join(", ") + (calls.length > 3 ? `, and ${calls.length - 3} more` : "");
}

/** The file's name, with the fewest folders before it that no other of `paths` ends with. */
function shortestName(paths: string[], file: string): string {
  const parts = file.split("/");
  for (let k = 1; k < parts.length; k++) {
    const name = parts.slice(-k).join("/");
    if (paths.filter((p) => named(p, name)).length <= 1) return name;
  }
  return file;
}

/** Whether a file's path is `name` or ends with it after a folder. */
function named(file: string, name: string): boolean {
  return file === name || file.endsWith(`/${name}`);
}

/** Rewrites the positions in the marks of every file to the written files' lines; `written(file)`: the edits its output gets. */
export function placeMarkPositions(a: Analysis, written: (file: FileState) => Edit[]): void {
  const all = [...a.files.values()];
  const shifts = new Map<FileState, (line: number) => number>();
  const shiftOf = (file: FileState) => {
    let shift = shifts.get(file);
    if (!shift) shifts.set(file, (shift = lineShift(file.text, written(file))));
    return shift;
  };
  for (const file of a.files.values()) {
    const own = file.sf.getFilePath();
    const place = (text: string) =>
      text.replace(POSITION, (whole, name: string, line: string) => {
        const files = all.filter((f) => named(f.sf.getFilePath(), name));
        const target = named(own, name) ? file : files.length === 1 ? files[0]! : undefined;
        return target ? `${name}:${shiftOf(target)(Number(line))}` : whole;
      });
    const edits = new Set(written(file));
    for (const e of edits) if (file.markEdits.has(e)) e.text = place(e.text);
    // The problems kept for later runs (mark-details.ts) quote the same positions as the mark: a
    // second run, reading the written file, finds them there, so the first records them so too.
    // A mark already there and confirmed (no edit) too: this run's edits may move the lines it quotes.
    for (const marks of file.marks.values()) {
      for (const m of marks.values()) if (m.edit ? edits.has(m.edit) : m.existing) m.sites = m.sites.map((ps) => ps.map((p) => ({ ...p, reason: place(p.reason), advice: place(p.advice) })));
    }
  }
}

/** Where line N (1-based) of `text` is after `edits`: moved by the lines the edits before its start add or remove. */
function lineShift(text: string, edits: Edit[]): (line: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const seen = new Set<string>();
  const deltas: { end: number; lines: number }[] = [];
  for (const e of edits) {
    // applyEdits collapses identical duplicates: each counts once.
    const key = `${e.start}:${e.end}:${e.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const lines = newlines(e.text) - newlines(text.slice(e.start, e.end));
    if (lines) deltas.push({ end: e.end, lines });
  }
  return (line) => {
    const at = starts[line - 1];
    if (at === undefined) return line;
    // An insertion at the line's start (a mark above its statement) goes before it.
    return line + deltas.reduce((n, d) => (d.end <= at ? n + d.lines : n), 0);
  };
}

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
