// The recall net: what the engine cannot follow is still counted. A string or template literal
// whose text is a v1 route path of the table (dynamic segments included: `/pods/${id}/stop`) in a
// module connected to a v1 base (the module names one, or imports one that does) is a v1 site when
// no planned call has consumed it. It gets a finding and a mark at its statement; the base it
// belongs to is already kept on v1 by the do-no-harm check (its use was not followed).
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { V1_HOST } from "../../mappings/bases.ts";
import { addFinding, fileOf, type Analysis } from "./state.ts";
import { todo } from "./todo-marks.ts";
import { uniqueMatches } from "./call-site.ts";

const HOLE = "\u0000";

/** The literal's text with holes for substitutions, when it reads as a path (starts with `/`). */
function pathText(n: Node): string | undefined {
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  if (Node.isTemplateExpression(n)) return n.getHead().getLiteralText() + n.getTemplateSpans().map((s) => HOLE + s.getLiteral().getLiteralText()).join("");
  return undefined;
}

/** Whether the file names the v1 host or imports a parsed module that does. */
function connected(a: Analysis, sf: SourceFile): boolean {
  if (sf.getFullText().includes(V1_HOST)) return true;
  for (const imp of sf.getImportDeclarations()) {
    const target = a.resolve?.(sf.getFilePath(), imp.getModuleSpecifierValue());
    if (target && target.getFullText().includes(V1_HOST)) return true;
  }
  return false;
}

export function recallNet(a: Analysis, sf: SourceFile): void {
  if (!connected(a, sf)) return;
  const literals = [
    ...sf.getDescendantsOfKind(SyntaxKind.StringLiteral),
    ...sf.getDescendantsOfKind(SyntaxKind.NoSubstitutionTemplateLiteral),
    ...sf.getDescendantsOfKind(SyntaxKind.TemplateExpression),
  ];
  for (const n of literals) {
    if (a.consumed.has(n) || (Node.isTemplateExpression(n) && a.consumed.has(n.getHead()))) continue;
    if (n.getFirstAncestor((x) => Node.isImportDeclaration(x) || Node.isExportDeclaration(x) || Node.isTypeNode(x))) continue;
    const text = pathText(n);
    if (!text || !text.startsWith("/") || text.includes(V1_HOST)) continue;
    const path = text.split(/[?#]/)[0]!.replace(/\/$/, "");
    if (!path || path === "/" || /^\/v[12]\b/.test(path)) continue;
    const matches = uniqueMatches(path);
    if (!matches.length) continue;
    const op = matches.length === 1 ? matches[0]!.operation : undefined;
    const reason = `a v1 route path (${path.replace(/\0/g, "{…}")}) in a module of a v1 client, not tied to a call the codemod can follow`;
    const advice = "migrate this call by hand (its v2 path, method, body and answer: docs/mapping.md), or write it as a call on the client's base";
    todo(a, n, op?.key ?? "base", "review", reason, advice);
    addFinding(a, n, { operation: op?.key ?? null, v1: op ? { method: op.v1.method, path: op.v1.path } : null, v2: op?.v2 ? { method: op.v2.method, path: op.v2.path } : null, category: "review", reason, advice });
    fileOf(a, n);
  }
}
