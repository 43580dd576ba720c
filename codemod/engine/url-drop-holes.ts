// A URL rewritten to a v2 path that no longer holds some of its run-time segments
// (`${BASE}/pods/${id}/${action}` → `${BASE}/pods/${id}/action`, the action going to the body).
// The text around a dropped segment is rewritten as one literal piece, which needs the pieces to
// sit side by side in one template (`/${action}`) or one `+` chain (`"/" + action`); otherwise
// no edit is possible (null) and the caller marks the site.
import { Node } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import { HOLE, escapeFor, quoteString, v2BaseFor, type LocatedUrl, type Part } from "./urls.ts";
import { distribute } from "./url-rewrite.ts";
import { textEdit } from "./text-edit.ts";

const DROPPED = "\u0001";

/**
 * Edits that make the URL read `newPath` and `newQuery` (holes in the same order, without
 * `dropped`), or null. `queryMarks(url, dropped)` is the old query with the dropped holes marked,
 * for a caller that leaves them out of the query.
 */
export function rewriteUrlWithout(url: LocatedUrl, newPath: string, dropped: Node[], newQuery = url.query): Edit[] | null {
  const isDropped = (p: Part) => p.kind === "hole" && dropped.includes(p.node);
  const oldS = url.parts.map((p) => (p.kind === "text" ? p.text : isDropped(p) ? DROPPED : HOLE)).join("");
  const inlineNew = url.inlineBase ? v2BaseFor(url.inlineBase) : "";
  const head = oldS.slice(0, oldS.length - url.pathText.length - url.query.length);
  const keptHead = head.slice(url.inlineBase.length + url.versionPrefix.length);
  const written = url.leadingSlash || newPath === "" ? newPath : newPath.replace(/^\//, "");
  const newS = inlineNew + url.versionPrefix.replace("v1", "v2") + keptHead + written + newQuery;
  const oldChunks = oldS.split(HOLE);
  const newChunks = newS.split(HOLE);
  if (oldChunks.length !== newChunks.length || newS.includes(DROPPED)) return null;
  // The parts between kept holes, chunk by chunk.
  const chunks: Part[][] = [[]];
  const kept: Part[] = [];
  for (const p of url.parts) {
    if (p.kind === "hole" && !isDropped(p)) {
      kept.push(p);
      chunks.push([]);
    } else chunks[chunks.length - 1]!.push(p);
  }
  const edits: Edit[] = [];
  const keptParts: Part[] = [];
  const oldKept: string[] = [];
  const newKept: string[] = [];
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) keptParts.push(kept[i - 1]!);
    if (!oldChunks[i]!.includes(DROPPED)) {
      keptParts.push(...chunks[i]!);
      oldKept.push(oldChunks[i]!);
      newKept.push(newChunks[i]!);
      continue;
    }
    const e = pieceEdit(chunks[i]!, newChunks[i]!);
    if (!e) return null;
    edits.push(e);
    oldKept.push("");
    newKept.push("");
  }
  const rest = distribute(keptParts, oldKept.join(HOLE), newKept.join(HOLE));
  return rest && [...edits, ...rest];
}

/** The URL's query text with the holes in `dropped` marked (the query's holes are the URL's last ones). */
export function queryMarks(url: LocatedUrl, dropped: Node[]): string {
  const holes = url.parts.filter((p) => p.kind === "hole");
  let i = holes.length - (url.query.match(new RegExp(HOLE, "g")) ?? []).length;
  return url.query.replace(new RegExp(HOLE, "g"), () => (dropped.includes(holes[i++]!.node) ? DROPPED : HOLE));
}

/** One edit writing `text` over side-by-side pieces (literals and dropped holes) of one template or `+` chain. */
function pieceEdit(pieces: Part[], text: string): Edit | null {
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (!first || !last || first.kind !== "text" || pieces.some((p) => p.kind === "text" && p.fixed)) return null;
  const source = first.node.getSourceFile().getFullText();
  const gaps = pieces.slice(1).map((p, i) => source.slice(pieces[i]!.node.getEnd(), p.node.getStart()));
  if (Node.isTemplateHead(first.node) || Node.isTemplateMiddle(first.node)) {
    // `/${action}` and the literal after it: the `${` and `}` belong to the literal pieces.
    const templateOf = (n: Node) => (Node.isTemplateExpression(n.getParent()!) ? n.getParent() : n.getParent()?.getParent());
    const template = templateOf(first.node);
    const inTemplate = (n: Node) => !!template && Node.isTemplateExpression(template) && templateOf(n) === template;
    if (!pieces.every((p) => inTemplate(p.node)) || gaps.some((g) => g.trim())) return null;
    // An empty literal after the last hole is not a part of its own (`/${action}\``): it closes the range.
    const span = last.node.getParent();
    const closing = last.kind === "text" ? last.node : span && Node.isTemplateSpan(span) && span.getExpression() === last.node ? span.getLiteral() : undefined;
    if (!closing) return null;
    const end = Node.isTemplateTail(closing) ? closing.getEnd() - 1 : closing.getEnd() - 2;
    return textEdit(first.node, first.node.getStart() + 1, end, escapeFor(text, true));
  }
  if (Node.isStringLiteral(first.node)) {
    // `"/" + action`: one string literal in their place.
    if (gaps.some((g) => !/^\s*\+\s*$/.test(g)) || pieces.some((p) => p.kind === "text" && !Node.isStringLiteral(p.node))) return null;
    return textEdit(first.node, first.node.getStart(), last.node.getEnd(), quoteString(text, first.node.getText()[0]!));
  }
  return null;
}
