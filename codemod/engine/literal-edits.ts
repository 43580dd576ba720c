// Edits of the user's own string literals: a new value written inside the literal's quotes (or
// template piece), escaped for that quote style, so a rewritten URL keeps the author's spelling.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import { textEdit } from "./text-edit.ts";

/** Raw-content range and escaping for a literal piece (string literal or template head/middle/tail). */
function contentRange(node: Node): { start: number; end: number; template: boolean; quote?: string } {
  const start = node.getStart();
  const end = node.getEnd();
  switch (node.getKind()) {
    case SyntaxKind.StringLiteral:
      return { start: start + 1, end: end - 1, template: false, quote: node.getText()[0] };
    case SyntaxKind.NoSubstitutionTemplateLiteral:
    case SyntaxKind.TemplateTail:
      return { start: start + 1, end: end - 1, template: true };
    case SyntaxKind.TemplateHead:
    case SyntaxKind.TemplateMiddle:
      return { start: start + 1, end: end - 2, template: true };
    default:
      throw new Error(`not a literal piece: ${node.getKindName()}`);
  }
}

export function escapeFor(text: string, template: boolean, quote = '"'): string {
  let out = text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
  if (template) out = out.replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
  else out = out.split(quote).join("\\" + quote);
  return out;
}

/** An edit that sets the literal piece's value to `text`, keeping its quotes. */
export function literalEdit(node: Node, text: string): Edit {
  const range = contentRange(node);
  if (text === "" && Node.isStringLiteral(node)) {
    // `… + id + ""` reads badly: drop the operand instead.
    const parent = node.getParent();
    if (parent && Node.isBinaryExpression(parent) && parent.getRight() === node && parent.getOperatorToken().getKind() === SyntaxKind.PlusToken) {
      return textEdit(node, parent.getLeft().getEnd(), node.getEnd(), "");
    }
  }
  return textEdit(node, range.start, range.end, escapeFor(text, range.template, range.quote));
}

/** Source text of a string value in the file's quote style. */
export function quoteString(value: string, quote: string): string {
  return quote + escapeFor(value, false, quote) + quote;
}
