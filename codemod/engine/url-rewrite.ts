// Spreads a rewritten URL back over the user's own literals: each changed run of text between two
// holes is edited in the literal that holds it, so the code keeps its shape (its template, its
// concatenation, its constants) and only the characters that differ change.
import type { Edit } from "../types.ts";
import { literalEdit } from "./literal-edits.ts";
import { HOLE, v2BaseFor, type LocatedUrl, type Part } from "./urls.ts";

/**
 * Rewrites the parts so the URL reads `newPath` (relative to the v2 base, `\0` for the same holes
 * in the same order), then `newQuery` (names v2 spells otherwise), and the inline base becomes
 * v2. Returns the literal edits, or null when the new text cannot be spread over the user's literals.
 */
export function rewriteUrl(url: LocatedUrl, newPath: string | null, newQuery = url.query): Edit[] | null {
  const oldS = url.parts.map((p) => (p.kind === "text" ? p.text : HOLE)).join("");
  const inlineNew = url.inlineBase ? v2BaseFor(url.inlineBase) : "";
  const versionNew = url.versionPrefix.replace("v1", "v2");
  const head = oldS.slice(0, oldS.length - url.pathText.length - url.query.length);
  const keptHead = head.slice(url.inlineBase.length + url.versionPrefix.length);
  let written = url.pathText;
  if (newPath !== null) written = url.leadingSlash || newPath === "" ? newPath : newPath.replace(/^\//, "");
  const newS = inlineNew + versionNew + keptHead + written + newQuery;
  if (newS === oldS) return [];
  return distribute(url.parts, oldS, newS);
}

export function distribute(parts: Part[], oldS: string, newS: string): Edit[] | null {
  const oldChunks = oldS.split(HOLE);
  const newChunks = newS.split(HOLE);
  if (oldChunks.length !== newChunks.length) return null;
  const runs: { part: Part & { kind: "text" }; offset: number }[][] = [[]];
  const offsets: number[] = [0];
  for (const p of parts) {
    if (p.kind === "hole") {
      runs.push([]);
      offsets.push(0);
      continue;
    }
    if (p.kind !== "text") return null;
    const i = runs.length - 1;
    runs[i]!.push({ part: p, offset: offsets[i]! });
    offsets[i]! += p.text.length;
  }
  const edits: Edit[] = [];
  for (let i = 0; i < oldChunks.length; i++) {
    const o = oldChunks[i]!;
    const n = newChunks[i]!;
    if (o === n) continue;
    const run = runs[i]!;
    if (!run.length) return null;
    let pre = 0;
    while (pre < o.length && pre < n.length && o[pre] === n[pre]) pre++;
    let suf = 0;
    while (suf < o.length - pre && suf < n.length - pre && o[o.length - 1 - suf] === n[n.length - 1 - suf]) suf++;
    const from = pre;
    const to = o.length - suf;
    const mid = n.slice(pre, n.length - suf);
    const holder = run.find((r) => from >= r.offset && to <= r.offset + r.part.text.length && (from < r.offset + r.part.text.length || r === run[run.length - 1]));
    if (holder?.part.fixed || (!holder && run.some((r) => r.part.fixed))) return null;
    if (holder) {
      const t = holder.part.text;
      edits.push(literalEdit(holder.part.node, (holder.part.stripped ?? "") + t.slice(0, from - holder.offset) + mid + t.slice(to - holder.offset)));
    } else {
      run.forEach((r, k) => edits.push(literalEdit(r.part.node, (r.part.stripped ?? "") + (k === 0 ? n : ""))));
    }
  }
  return edits;
}
