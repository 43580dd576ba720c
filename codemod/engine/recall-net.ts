// The recall net: what the engine cannot follow is still counted. A string or template literal
// whose text is a v1 route path of the table (dynamic segments included: `/pods/${id}/stop`) in a
// module connected to a v1 base (the module names one, or imports one that does) is a v1 site when
// no planned call has consumed it. It gets a finding and a mark at its statement; the base it
// belongs to is already kept on v1 by the do-no-harm check (its use was not followed).
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { V1_HOST, V2_BASE } from "../../mappings/bases.ts";
import { functionNamed } from "./record-callees.ts";
import { optionsOf } from "./evaluate/value.ts";
import { addFinding, fileOf, type Analysis } from "./state.ts";
import { todo } from "./todo-marks.ts";
import { uniqueMatches } from "./v1-match.ts";
import { statementOf } from "./nodes.ts";
import { V1_BASE_NAME, V1_ORIGIN_NAME } from "./v1-redirect.ts";
import { TODO_TAG } from "../prefilter.ts";

/** Whether an earlier run's mark sits right above the literal's statement (that mark already counts the site). */
function alreadyMarked(text: string, n: Node): boolean {
  const start = statementOf(n).getStart();
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  while (lineStart > 0) {
    const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
    const prev = text.slice(prevStart, lineStart - 1).trim();
    if (!prev.startsWith("//")) return false;
    if (prev.includes(TODO_TAG)) return true;
    lineStart = prevStart;
  }
  return false;
}

const HOLE = "\u0000";

/** The literal's text with holes for substitutions, when it reads as a path (starts with `/`). */
function pathText(n: Node): string | undefined {
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  if (Node.isTemplateExpression(n)) return n.getHead().getLiteralText() + n.getTemplateSpans().map((s) => HOLE + s.getLiteral().getLiteralText()).join("");
  return undefined;
}

/** Whether the file names the v1 host or imports a parsed module that does. */
function connected(a: Analysis, sf: SourceFile): boolean {
  if (namesV1Host(sf.getFullText())) return true;
  for (const imp of sf.getImportDeclarations()) {
    const target = a.resolve?.(sf.getFilePath(), imp.getModuleSpecifierValue());
    if (target && namesV1Host(target.getFullText())) return true;
  }
  return false;
}

/** The v1 host outside the declared base of marked calls (that base only serves calls already marked). */
function namesV1Host(text: string): boolean {
  return text.replace(DECLARED_V1_BASE, "").includes(V1_HOST);
}

const DECLARED_V1_BASE = new RegExp(`^const (?:${V1_BASE_NAME}|${V1_ORIGIN_NAME}) = .*$`, "gm");

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
    if (alreadyMarked(fileOf(a, n).text, n)) continue;
    const text = pathText(n);
    if (!text || !text.startsWith("/") || text.includes(V1_HOST)) continue;
    const path = text.split(/[?#]/)[0]!.replace(/\/$/, "");
    if (!path || path === "/" || /^\/v[12]\b/.test(path)) continue;
    const matches = uniqueMatches(path);
    if (!matches.length) continue;
    // The path of a call on the v2 base (a migrated helper: v1 and v2 share `/pods/{id}`).
    if (onV2Base(a, n)) continue;
    const op = matches.length === 1 ? matches[0]!.operation : undefined;
    const reason = `a v1 route path (${path.replace(/\0/g, "{…}")}) in a module of a v1 client, not tied to a call the codemod can follow`;
    const advice = "migrate this call by hand (its v2 path, method, body and answer: docs/mapping.md), or write it as a call on the client's base";
    todo(a, n, op?.key ?? "base", "review", reason, advice);
    addFinding(a, n, { operation: op?.key ?? null, v1: op ? { method: op.v1.method, path: op.v1.path } : null, v2: op?.v2 ? { method: op.v2.method, path: op.v2.path } : null, category: "review", reason, advice });
  }
}

/**
 * The literal is the path argument of a project function that joins it onto the v2 base
 * (`runpodRest("/templates")` with `` `${API}${path}` `` and API the v2 base): a v2 call, not a v1 site.
 */
function onV2Base(a: Analysis, literal: Node): boolean {
  const call = literal.getParent();
  if (!call || !Node.isCallExpression(call)) return false;
  const index = call.getArguments().indexOf(literal as any);
  const fn = index < 0 ? undefined : functionNamed(a, call.getExpression());
  const param = fn && ((fn as any).getParameters?.() as Node[] | undefined)?.[index];
  const name = param && Node.isParameterDeclaration(param) ? param.getNameNode() : undefined;
  if (!fn || !name || !Node.isIdentifier(name)) return false;
  for (const t of fn.getDescendantsOfKind(SyntaxKind.TemplateExpression)) {
    const spans = t.getTemplateSpans();
    if (t.getHead().getLiteralText() !== "" || spans.length < 2 || spans[1]!.getExpression().getText() !== name.getText()) continue;
    try {
      if (optionsOf(a.evaluator.evaluate(spans[0]!.getExpression())).some((o) => o.kind === "string" && o.text.replace(/\/+$/, "") === V2_BASE)) return true;
    } catch {
      /* not known: counted */
    }
  }
  return false;
}
