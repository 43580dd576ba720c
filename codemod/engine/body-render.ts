// A v2 body written as text: the tree of its fields (each a source expression, with the comments
// that came with it), rendered in the layout of the literal it replaces, and literal values rendered
// in the file's quote.
import { quoteString } from "./urls.ts";

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** A JSON-like value as source text, strings in the file's quote. */
export function renderValue(value: unknown, quote: string): string {
  if (typeof value === "string") return quoteString(value, quote);
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => renderValue(v, quote)).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (!entries.length) return "{}";
    return `{ ${entries.map(([k, v]) => `${IDENT.test(k) ? k : quoteString(k, quote)}: ${renderValue(v, quote)}`).join(", ")} }`;
  }
  return "undefined";
}

export interface OutNode {
  source?: string;
  children?: Map<string, OutNode>;
  comments: string[];
  trailing: string[];
}

/** Puts a field at its v2 path (`gpu.count`), creating the objects above it; comments accumulate. */
export function setOut(root: Map<string, OutNode>, path: string[], source: string, comments: string[], trailing: string[]): void {
  let map = root;
  for (let i = 0; i < path.length - 1; i++) {
    let child = map.get(path[i]!);
    if (!child) map.set(path[i]!, (child = { children: new Map(), comments: [], trailing: [] }));
    if (!child.children) child.children = new Map(); // a literal object and a nested path: nested wins
    map = child.children;
  }
  const leaf = path[path.length - 1]!;
  const existing = map.get(leaf);
  map.set(leaf, { source, comments: [...(existing?.comments ?? []), ...comments], trailing: [...(existing?.trailing ?? []), ...trailing] });
}

function hasComments(n: OutNode): boolean {
  return n.comments.length > 0 || n.trailing.length > 0 || [...(n.children?.values() ?? [])].some(hasComments);
}

export interface Verbatim {
  comments: string[];
  text: string;
}

export function render(map: Map<string, OutNode>, multiline: boolean, indent: string, step: string, quote: string, verbatim: Verbatim[] = [], head: Verbatim[] = []): string {
  const key = (k: string) => (IDENT.test(k) ? k : quoteString(k, quote));
  const entries = [...map.entries()];
  if (!multiline) {
    const items = entries.map(([k, n]) => (!n.children && n.source === k && IDENT.test(k) ? k : `${key(k)}: ${n.children ? render(n.children, false, "", step, quote) : n.source}`));
    items.push(...verbatim.map((v) => v.text));
    items.unshift(...head.map((v) => v.text));
    return items.length ? `{ ${items.join(", ")} }` : "{}";
  }
  const inner = indent + step;
  const lines: string[] = [];
  for (const v of head) {
    for (const c of v.comments) lines.push(inner + c);
    lines.push(`${inner}${v.text},`);
  }
  for (const [k, n] of entries) {
    for (const c of n.comments) lines.push(inner + c);
    const value = n.children ? render(n.children, hasComments(n), inner, step, quote) : n.source;
    const entry = !n.children && n.source === k && IDENT.test(k) ? k : `${key(k)}: ${value}`;
    lines.push(`${inner}${entry},${n.trailing.length ? " " + n.trailing.join(" ") : ""}`);
  }
  for (const v of verbatim) {
    for (const c of v.comments) lines.push(inner + c);
    lines.push(`${inner}${v.text},`);
  }
  return `{\n${lines.join("\n")}\n${indent}}`;
}

export function lineIndent(text: string, pos: number): string {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Every field's source text, to see what the rendered body computes. */
export function outSources(map: Map<string, OutNode>): string[] {
  return [...map.values()].flatMap((n) => (n.children ? outSources(n.children) : n.source !== undefined ? [n.source] : []));
}

export function replaceSources(map: Map<string, OutNode>, replace: (s: string) => string): void {
  for (const n of map.values()) {
    if (n.source !== undefined) n.source = replace(n.source);
    if (n.children) replaceSources(n.children, replace);
  }
}
