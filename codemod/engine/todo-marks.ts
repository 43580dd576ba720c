// TODO(v2-migration) marks: written above the statement of a site a human must decide, and read
// back by later runs (the audit after `rewrite --write` counts them until a human removes them).
// Format: `// TODO(v2-migration) <operation|base> (<review|no-equivalent>)[ ×N]: <first problem>[ (+K more)]`:
// the site's riskiest problem in one short line (mark-problems.ts), K the others; every problem with
// its advice is in the finding (`audit --format json`). `×N` when N sites of one statement share the
// mark (each is a finding: marks and findings agree). Marks of earlier versions ended `; advice: …`
// and joined every problem: they are still read, and a run that marks the site again replaces them.
import { Node } from "../ts-morph.ts";
import { operations } from "../../mappings/index.ts";
import type { Problems } from "./rewrites/problems.ts";
import { shortReason } from "./mark-problems.ts";
import { redact } from "../redact.ts";
import { TODO_TAG } from "../prefilter.ts";
import type { Category, Finding, MarkDetail } from "../types.ts";
import type { Subject } from "../../formats/audit.ts";
import { fileOf, type Analysis, type FileState, type Mark } from "./state.ts";
import { oneLine, statementOf } from "./nodes.ts";
import { insertAt, textEdit } from "./text-edit.ts";

// What a mark without an operation is about, read back from its reason (the passes that write them
// word them so): the label `audit` gives it when no pass of this run wrote it again.
const MARK_SUBJECTS: [RegExp, Subject][] = [
  [/^(v1 base kept|the v2 base |this test's client |callers the codemod cannot see may set )/, "base"],
  [/^(reads the v1 error field |matches the error text |the error body of )/, "error-read"],
  [/^the client's hook /, "hook"],
  [/^the client's `paths` types /, "types"],
  [/^(the v1 path is computed|the URL is chosen at run time|the query string of |call on the bare v1 base URL|HTTP method not known)/, "call"],
  [/^(a v1 route path|v1 URL not passed|a v1 URL built at run time|string mentions the v1 host)/, "url"],
];

/** A mark of an operation's site away from its call (an error read, a hook: marks-for-sites.ts) keeps what the place is. */
const AWAY_FROM_CALL = new Set<Subject>(["error-read", "hook"]);

function subjectOf(operation: string | null, reason: string): { subject?: Subject } {
  const subject = markSubject(reason);
  return !operation || (subject && AWAY_FROM_CALL.has(subject)) ? { subject } : {};
}

export function markSubject(reason: string): Subject | undefined {
  return MARK_SUBJECTS.find(([re]) => re.test(reason))?.[1];
}

export const TODO_LINE = /^[ \t]*\/\/ TODO\(v2-migration\) (\S+) \((review|no-equivalent)\)(?: ×(\d+))?: (.*?)(?:; advice: (.*))?$/;

/** The mark of a site with these problems (riskiest first): the first briefly, and how many more. */
export function markText(op: string, category: Category, problems: Problems, times = 1): string {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : "";
  return `// ${TODO_TAG} ${op} (${category})${times > 1 ? ` ×${times}` : ""}: ${shortReason(oneLine(first.brief ?? first.reason))}${more}`;
}

/** How many sites the marks in a text stand for (a `×N` mark stands for N). */
export function countMarks(text: string): number {
  let n = 0;
  for (const line of text.split(/\r?\n/)) {
    const m = TODO_LINE.exec(line);
    if (m) n += m[3] ? Number(m[3]) : 1;
  }
  return n;
}

function withoutPositions(mark: string): string {
  return mark.replace(/(\.[cm]?[jt]sx?):\d+/g, "$1:#");
}

/** Leaves a mark above the statement of `at` naming one problem. */
export function todo(a: Analysis, at: Node, op: string, category: Category, reason: string, advice: string): void {
  todoAll(a, at, op, category, [{ reason, advice }]);
}

// Marks of earlier versions a run has already replaced, per file: each stands for one mark of this run.
const claimedOld = new WeakMap<FileState, Set<number>>();

/**
 * Leaves a mark above the statement of `at` naming the first of its problems (given riskiest
 * first: mark-problems.ts), once: an identical mark is not repeated, and a mark of an earlier
 * version for the same operation and category is replaced in place.
 */
export function todoAll(a: Analysis, at: Node, op: string, category: Category, problems: Problems): void {
  const file = fileOf(a, at);
  const st = statementOf(at);
  const start = st.getStart();
  const text = file.text;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  // A second site of the same statement with the same mark: the mark counts it.
  const key = markText(op, category, problems);
  const shared = file.marks.get(st)?.get(key);
  if (shared) {
    shared.times++;
    shared.sites.push(problems);
    const line = markText(op, category, problems, shared.times);
    if (shared.edit) shared.edit.text = shared.existing ? `${indent}${line}` : `${indent}${line}\n`;
    else if (shared.existing && line !== shared.existing.text) {
      shared.edit = textEdit(file.sf, shared.existing.start, shared.existing.end, `${indent}${line}`);
      file.edits.push(shared.edit);
      file.markEdits.add(shared.edit);
    }
    return;
  }
  const line = key;
  // Already there? Look at the comment lines right above the statement. Positions quoted in a
  // mark (`file.ts:12`) move when marks are added above them, and a count may change, so
  // neither makes a mark new.
  let pos = lineStart;
  let older: { start: number; end: number; text: string } | undefined;
  const claimed = claimedOld.get(file) ?? new Set<number>();
  claimedOld.set(file, claimed);
  while (pos > 0) {
    const prevStart = text.lastIndexOf("\n", pos - 2) + 1;
    // The line's end, before its \r in a CRLF file (a mark rewritten in place keeps its ending).
    const prevEnd = text[pos - 2] === "\r" ? pos - 2 : pos - 1;
    const prev = text.slice(prevStart, prevEnd).trim();
    if (!prev.startsWith("//")) break;
    if (sameMark(prev, line)) {
      const existing = { start: prevStart, end: prevEnd, text: prev };
      file.emittedTodos.add(`${file.sf.getLineAndColumnAtPos(start).line}|${prev}`);
      const mark: Mark = { times: 1, existing, sites: [problems] };
      if (countMarks(prev) !== 1) {
        mark.edit = textEdit(file.sf, prevStart, prevEnd, `${indent}${line}`);
        file.edits.push(mark.edit);
        file.markEdits.add(mark.edit);
      }
      remember(file, st, key, mark);
      return;
    }
    // The nearest long mark of an earlier version for this operation and category, not yet replaced.
    if (!older && !claimed.has(prevStart) && olderMark(prev, op, category)) older = { start: prevStart, end: prevEnd, text: prev };
    pos = prevStart;
  }
  if (older) {
    claimed.add(older.start);
    file.emittedTodos.add(`${file.sf.getLineAndColumnAtPos(start).line}|${older.text}`);
    const edit = textEdit(file.sf, older.start, older.end, `${indent}${line}`);
    file.edits.push(edit);
    file.markEdits.add(edit);
    remember(file, st, key, { times: 1, edit, existing: older, sites: [problems] });
    return;
  }
  const edit = insertAt(file.sf, lineStart, `${indent}${line}\n`);
  file.edits.push(edit);
  file.markEdits.add(edit);
  remember(file, st, key, { times: 1, edit, sites: [problems] });
}

/** A mark written by an earlier version (`…; advice: …`) for this operation and category. */
function olderMark(line: string, op: string, category: Category): boolean {
  const m = TODO_LINE.exec(line);
  return !!m && m[5] !== undefined && m[1] === op && m[2] === category;
}

function sameMark(x: string, y: string): boolean {
  return markKey(x) === markKey(y);
}

/** A mark as runs compare it: without its indentation, the positions it quotes and its count. */
export function markKey(line: string): string {
  return withoutPositions(line.trim()).replace(/\) ×\d+: /, "): ");
}

/** A mark's details and where its line is in the text the run read (its offset; then its edit's rank). */
export type PlacedDetail = MarkDetail & { at: number; rank?: number };

/**
 * The marks of a file for codemod/mark-details.ts, each with its site's problems: those this run
 * wrote or confirmed and those it read back (`kept`, from markFindings), in the order of the file.
 * Not in the order they were found: a first run writes a mark that a later run only reads back.
 */
export function fileMarks(file: FileState, kept: PlacedDetail[]): MarkDetail[] {
  const out: PlacedDetail[] = [...kept];
  for (const marks of file.marks.values()) {
    for (const m of marks.values()) {
      const line = m.edit?.text ?? m.existing?.text;
      // Marks inserted at one line go in the order of their edits (apply-edits.ts).
      const rank = m.edit && !m.existing ? file.edits.indexOf(m.edit) : undefined;
      if (line) out.push({ mark: markKey(line), sites: m.sites.map((ps) => ps.map(({ reason, advice }) => ({ reason, advice }))), at: m.edit?.start ?? m.existing?.start ?? 0, rank });
    }
  }
  return out.sort((x, y) => x.at - y.at || (x.rank ?? -1) - (y.rank ?? -1)).map(({ at: _at, rank: _rank, ...detail }) => detail);
}

function remember(file: FileState, st: Node, key: string, mark: Mark): void {
  const marks = file.marks.get(st) ?? new Map<string, Mark>();
  marks.set(key, mark);
  file.marks.set(st, marks);
}

/**
 * Marks left by an earlier run that this run did not write again: each is still a finding. Its
 * problems come from the details the run that wrote it kept (`details`: codemod/mark-details.ts),
 * else from the line itself. Returns those details too, to be kept for the next run.
 */
export function markFindings(file: FileState, details: MarkDetail[] = []): { findings: Finding[]; kept: PlacedDetail[] } {
  const out: Finding[] = [];
  const kept: PlacedDetail[] = [];
  const taken = new Set<MarkDetail>();
  const lines = file.lines;
  let lineStarts: number[] | undefined;
  lines.forEach((line, i) => {
    const m = TODO_LINE.exec(line);
    if (!m) return;
    const [, op, category, times, reason, advice] = m;
    const operation = op === "base" ? null : op!;
    const mapped = operation ? operations.find((o) => o.key === operation) : undefined;
    let next = i + 1;
    while (next < lines.length && TODO_LINE.test(lines[next]!)) next++;
    const target = lines[next] ?? line;
    // Two marks may read alike without their positions (`costPerHr (input.js:#)`): each takes the next
    // detail so keyed, in file order (codemod-marks.json keeps them so), a mark this run wrote again too.
    let detail = details.find((d) => !taken.has(d) && d.mark === markKey(line));
    if (detail) taken.add(detail);
    if (file.emittedTodos.has(`${next + 1}|${line.trim()}`) || file.staleMarks?.has(i)) return;
    // A mark of an earlier version (`…; advice: …`) no pass wrote again: shortened in place, its text kept as its detail.
    if (advice !== undefined && !detail) detail = shortenOlder(file, i, m, lineStarts ??= starts(file.text));
    if (detail) kept.push({ ...detail, at: (lineStarts ??= starts(file.text))[i]! });
    for (let k = 0; k < (times ? Number(times) : 1); k++) {
      const problems = detail?.sites[k] ?? detail?.sites.at(-1);
      out.push({
        file: file.display,
        line: next + 1,
        column: /^\s*/.exec(target)![0].length + 1,
        operation,
        v1: mapped ? { method: mapped.v1.method, path: mapped.v1.path } : null,
        v2: mapped?.v2 ? { method: mapped.v2.method, path: mapped.v2.path } : null,
        category: category as Category,
        reason: problems?.length ? problems.map((p) => p.reason).join("; ") : reason!,
        advice: problems?.length ? problems.map((p) => p.advice).join("; ") : advice ?? READ_BACK_ADVICE,
        snippet: redact(target.trim()),
        ...subjectOf(operation, reason!),
        ...(problems?.length ? { problems } : {}),
      });
    }
  });
  return { findings: out, kept };
}

/** Rewrites line `i`, a mark of an earlier version, in the short form; returns what it said, as its detail. */
function shortenOlder(file: FileState, i: number, m: RegExpExecArray, lineStarts: number[]): MarkDetail {
  const [whole, op, category, times, reason, advice] = m;
  const line = `${/^[ \t]*/.exec(whole)![0]}// ${TODO_TAG} ${op} (${category})${times ? ` ×${times}` : ""}: ${shortReason(reason!)}`;
  const start = lineStarts[i]!;
  const edit = textEdit(file.sf, start, start + file.lines[i]!.length, line);
  file.edits.push(edit);
  file.markEdits.add(edit);
  return { mark: markKey(line), sites: Array.from({ length: times ? Number(times) : 1 }, () => [{ reason: reason!, advice: advice! }]) };
}

function starts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) out.push(i + 1);
  return out;
}

/** The advice of a short mark read back without its details. */
const READ_BACK_ADVICE = "see what to do about the mark in docs/codemod.md (What to do about a mark)";
