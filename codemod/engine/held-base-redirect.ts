// A marked call whose URL starts with a name that holds the v1 base plus a fixed path, written
// outside the call's function (`private base = \`${environment.apiUrl}/endpoints\`` read as
// `this.base` / `\`${this.base}/${id}\``, or a module `const PODS = BASE + "/pods"`): the holder
// serves the calls that migrate too, so it flips with them (its path rewritten to v2's). The kept
// call reads the same URL without it: its read is replaced by the declared v1 base and the fixed
// path as written (`\`${RUNPOD_V1_BASE}/endpoints\``). Sound only when the holder has one value for
// every call: a `const`, or a class field given once where it is declared and never written again.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { enclosingFunction } from "./scope.ts";
import { escapeFor, resolveParts, unwrapExpression, type LocatedUrl, type Part } from "./urls.ts";
import { bind, urlContext } from "./values.ts";
import { replaceNode, textEdit } from "./text-edit.ts";
import { nameFor, type Redirect } from "./v1-redirect.ts";

type Held = { read: Node; holder: string; rest: string } | { why: string };

/** The redirect of a kept call whose URL reads a holder of the base and a fixed path (undefined when the URL has no such read). */
export function heldBaseRedirect(a: Analysis, http: HttpCall, url: LocatedUrl, parts: Part[]): Redirect | undefined {
  const held = heldRead(a, http, url, parts);
  if (!held || "why" in held) return undefined;
  const target = nameFor(url.anchor!.value)!;
  const inner = `\${${target.name}}${target.slash ? "/" : ""}${escapeFor(held.rest, true)}`;
  const span = held.read.getParent();
  // `\`${this.base}/${id}\``: the read's `${…}` becomes the v1 base and the path, in the same template.
  if (span && Node.isTemplateSpan(span) && span.getExpression() === held.read) {
    const template = span.getFirstAncestorByKind(SyntaxKind.TemplateExpression);
    const before = template && template.getTemplateSpans()[0] === span ? template.getHead() : undefined;
    if (before) return { edits: [textEdit(held.read, before.getEnd() - 2, span.getLiteral().getStart() + 1, inner)], names: [target.name] };
  }
  return { edits: [replaceNode(held.read, `\`${inner}\``)], names: [target.name] };
}

/** Why a kept call whose URL reads a holder of the base cannot be given a base of its own there, when that is what blocks it. */
export function heldBaseWhy(a: Analysis, http: HttpCall, url: LocatedUrl, parts: Part[]): string | undefined {
  const held = heldRead(a, http, url, parts);
  return held && "why" in held ? held.why : undefined;
}

function heldRead(a: Analysis, http: HttpCall, url: LocatedUrl, parts: Part[]): Held | undefined {
  const first = parts[0];
  if (!http.urlNode || !url.anchor?.node || first?.kind !== "base" || first.node !== url.anchor.node) return undefined;
  const target = nameFor(url.anchor.value);
  if (!target) return undefined;
  const read = headRead(http.urlNode);
  if (!read || enclosingFunction(first.node) === enclosingFunction(http.call) && first.node.getSourceFile() === http.call.getSourceFile()) return undefined;
  const own = resolveParts(read, urlContext(a)).filter((p) => !(p.kind === "text" && p.text === ""));
  if (own[0]?.kind !== "base" || own[0].node !== first.node) return undefined;
  const name = read.getText();
  if (own.slice(1).some((p) => p.kind !== "text")) return { why: `${name} holds the v1 base and a path built at run time, which the kept call cannot be given apart` };
  const why = holderWhy(a, read);
  if (why) return { why };
  return { read, holder: name, rest: own.slice(1).map((p) => (p as { text: string }).text).join("") };
}

/** The head of the URL: itself, the first `${…}` of a template with nothing before it, the left of a `+`. */
function headRead(urlNode: Node): Node | undefined {
  let n = unwrapExpression(urlNode);
  for (let i = 0; i < 4; i++) {
    if (Node.isTemplateExpression(n) && n.getHead().getLiteralText() === "") n = unwrapExpression(n.getTemplateSpans()[0]!.getExpression());
    else if (Node.isBinaryExpression(n) && n.getOperatorToken().getText() === "+") n = unwrapExpression(n.getLeft());
    else break;
  }
  return Node.isPropertyAccessExpression(n) || Node.isIdentifier(n) ? n : undefined;
}

/** Why the holder may hold another value when the call runs (undefined when it has one value). */
function holderWhy(a: Analysis, read: Node): string | undefined {
  if (Node.isIdentifier(read)) {
    const b = bind(a, read);
    return b?.kind === "var" && b.isConst && b.path.length === 0 ? undefined : `${read.getText()} is not a constant, so what it holds when the kept call runs is not known`;
  }
  if (!Node.isPropertyAccessExpression(read) || read.getExpression().getKind() !== SyntaxKind.ThisKeyword) return `${read.getText()} is not a field of this class or a constant`;
  const cls = read.getFirstAncestor((n) => Node.isClassDeclaration(n) || Node.isClassExpression(n));
  const field = cls && (cls as Node & { getProperty(name: string): Node | undefined }).getProperty(read.getName());
  if (!field || !Node.isPropertyDeclaration(field) || !field.getInitializer()) return `${read.getText()} is not given where it is declared`;
  const hidden = field.hasModifier(SyntaxKind.PrivateKeyword) || field.hasModifier(SyntaxKind.ReadonlyKeyword) || field.getName().startsWith("#");
  if (!hidden) return `${read.getText()} is a public field, which code outside the class may set`;
  const written = cls!.getDescendantsOfKind(SyntaxKind.BinaryExpression).find((b) => {
    const op = b.getOperatorToken().getKind();
    const left = unwrapExpression(b.getLeft());
    return op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment && Node.isPropertyAccessExpression(left) && left.getName() === read.getName() && left.getExpression().getKind() === SyntaxKind.ThisKeyword;
  });
  return written ? `${read.getText()} is written again (${written.getSourceFile().getBaseName()}:${written.getStartLineNumber()})` : undefined;
}
