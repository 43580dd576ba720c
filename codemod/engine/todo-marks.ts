// TODO(v2-migration) marks: written above the statement of a site a human must decide, and read
// back by later runs (the audit after `rewrite --write` counts them until a human removes them).
// Format: `// TODO(v2-migration) <operation|base> (<review|no-equivalent>): <reason>; advice: <advice>`.
import { Node } from "../ts-morph.ts";
import { operations } from "../../mappings/index.ts";
import { redact } from "../redact.ts";
import { TODO_TAG } from "../prefilter.ts";
import type { Category, Finding } from "../types.ts";
import { fileOf, type Analysis, type FileState } from "./state.ts";
import { oneLine, statementOf } from "./nodes.ts";

export const TODO_LINE = /^[ \t]*\/\/ TODO\(v2-migration\) (\S+) \((review|no-equivalent)\): (.*?)(?:; advice: (.*))?$/;

export function markText(op: string, category: Category, reason: string, advice: string): string {
  return `// ${TODO_TAG} ${op} (${category}): ${oneLine(reason)}; advice: ${oneLine(advice)}`;
}

/** Leaves a mark above the statement of `at` (once: an identical mark is not repeated). */
export function todo(a: Analysis, at: Node, op: string, category: Category, reason: string, advice: string): void {
  const file = fileOf(a, at);
  const st = statementOf(at);
  const start = st.getStart();
  const text = file.text;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const line = markText(op, category, reason, advice);
  file.emittedTodos.add(`${file.sf.getLineAndColumnAtPos(start).line}|${line}`);
  // Already there? Look at the comment lines right above the statement.
  let pos = lineStart;
  while (pos > 0) {
    const prevStart = text.lastIndexOf("\n", pos - 2) + 1;
    const prev = text.slice(prevStart, pos - 1).trim();
    if (!prev.startsWith("//")) break;
    if (prev === line) return;
    pos = prevStart;
  }
  const list = file.todos.get(st) ?? [];
  if (list.includes(line)) return;
  list.push(line);
  file.todos.set(st, list);
  file.edits.push({ start: lineStart, end: lineStart, text: `${indent}${line}\n`, file: file.sf.getFilePath() });
}

/** Marks left by an earlier run that this run did not write again: each is still a finding. */
export function markFindings(file: FileState): Finding[] {
  const out: Finding[] = [];
  const lines = file.lines;
  lines.forEach((line, i) => {
    const m = TODO_LINE.exec(line);
    if (!m) return;
    const [, op, category, reason, advice] = m;
    const operation = op === "base" ? null : op!;
    const mapped = operation ? operations.find((o) => o.key === operation) : undefined;
    let next = i + 1;
    while (next < lines.length && TODO_LINE.test(lines[next]!)) next++;
    const target = lines[next] ?? line;
    if (file.emittedTodos.has(`${next + 1}|${line.trim()}`)) return;
    out.push({
      file: file.display,
      line: next + 1,
      column: /^\s*/.exec(target)![0].length + 1,
      operation,
      v1: mapped ? { method: mapped.v1.method, path: mapped.v1.path } : null,
      v2: mapped?.v2 ? { method: mapped.v2.method, path: mapped.v2.path } : null,
      category: category as Category,
      reason: reason!,
      advice: advice ?? "",
      snippet: redact(target.trim()),
    });
  });
  return out;
}
