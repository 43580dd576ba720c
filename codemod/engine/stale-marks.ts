// A site's marks are the engine's. Right above the statement of a call site or a base this run
// decided, a mark in the engine's exact form that the run neither wrote nor confirmed no longer
// applies to it: an earlier version marked what this one migrates, or marks for another reason
// now. It is removed, so a migrated call does not keep a mark saying it is not. A mark the run
// confirms stays byte for byte; a comment not in the engine's form (a person's own TODO) is
// never touched; marks above statements this run did not decide (a call an earlier run kept on
// its declared v1 base, which is no site now) are read back as before (todo-marks.ts).
import type { Node } from "../ts-morph.ts";
import { operations } from "../../mappings/index.ts";
import type { Analysis, FileState } from "./state.ts";
import { statementOf } from "./nodes.ts";
import { TODO_LINE } from "./todo-marks.ts";
import { textEdit } from "./text-edit.ts";

const OPERATIONS = new Set(operations.map((o) => o.key));

/** A mark line in the engine's form: `// TODO(v2-migration) <operation|base> (<review|no-equivalent>)[ ×N]: …`. */
export function engineMark(line: string): boolean {
  const m = TODO_LINE.exec(line);
  return !!m && (m[1] === "base" || OPERATIONS.has(m[1]!));
}

/** Removes the marks no longer true above the statements this run decided (file.staleMarks: their lines, for the read-back). */
export function dropStaleMarks(a: Analysis): void {
  const decided = new Map<FileState, Set<Node>>();
  const add = (file: FileState | undefined, n: Node) => {
    if (!file) return;
    const frozen = a.frozen.get(file.sf.getFilePath());
    if (frozen && !frozen.marks) return;
    decided.set(file, (decided.get(file) ?? new Set()).add(statementOf(n)));
  };
  for (const site of a.sites) if (site.finding) add(site.file, site.call);
  for (const base of a.bases.values()) if (!base.pinned) add(a.files.get(base.literal.getSourceFile().getFilePath()), base.literal);
  for (const [file, statements] of decided) {
    const confirmed = new Set<number>();
    for (const marks of file.marks.values()) for (const m of marks.values()) if (m.existing) confirmed.add(m.existing.start);
    const seen = new Set<number>();
    for (const st of statements) {
      for (const line of commentLinesAbove(file.text, st.getStart())) {
        if (seen.has(line.start) || confirmed.has(line.start) || !engineMark(line.text)) continue;
        seen.add(line.start);
        const edit = textEdit(file.sf, line.start, line.next, "");
        file.edits.push(edit);
        file.markEdits.add(edit);
        (file.staleMarks ??= new Set()).add(file.sf.getLineAndColumnAtPos(line.start).line - 1);
      }
    }
  }
}

/** The `//` lines right above the line of `start`, nearest first: each line's start, the next line's start, its text. */
function commentLinesAbove(text: string, start: number): { start: number; next: number; text: string }[] {
  const out: { start: number; next: number; text: string }[] = [];
  let pos = text.lastIndexOf("\n", start - 1) + 1;
  while (pos > 0) {
    const prevStart = text.lastIndexOf("\n", pos - 2) + 1;
    const line = text.slice(prevStart, pos - 1).replace(/\r$/, "");
    if (!line.trim().startsWith("//")) break;
    out.push({ start: prevStart, next: pos, text: line });
    pos = prevStart;
  }
  return out;
}
