// Whether anything in the project may read a record field: the boundary adapter leaves a few v1
// fields out of pod and endpoint records (the hourly rate and GPU types need the live catalog),
// so a record that leaves the codemod's sight goes through it only where nothing names those
// fields. Scripts are read by their syntax (a property read, a destructuring, a key lookup; not a
// type member or a body's key): the engine's own files as parsed, the others parsed here where the
// word appears. Pages and components in other languages (.vue, .svelte, .html) are read by the
// word, which errs toward a read.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Node, SyntaxKind, ts, type TypeScript } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { TEST_PATH } from "./test-files.ts";
import { ADAPTER_BINDING } from "../adapter/index.ts";

/** The first file that may read one of `fields` (its path), or undefined when none does. */
export function projectReader(a: Analysis, fields: string[]): string | undefined {
  const key = fields.join(",");
  const memo = (a.projectReaders ??= new Map());
  if (memo.has(key)) return memo.get(key) ?? undefined;
  const found = search(a, fields);
  memo.set(key, found ?? null);
  return found;
}

function search(a: Analysis, fields: string[]): string | undefined {
  // Without the run's file list (one file through jscodeshift) nothing can be vouched for.
  if (!a.projectFiles) return "(the project's other files are not known in this run)";
  const word = new RegExp(`\\b(?:${fields.join("|")})\\b`);
  const root = a.adapter?.root;
  for (const file of a.projectFiles) {
    if (/v2-bridge-adapter\.[cm]?[jt]s$/.test(file)) continue;
    // The project's tests read mocks and their own helpers' output, not the API's records.
    if (TEST_PATH.test((root ? path.relative(root, file) : file).split(path.sep).join("/"))) continue;
    const parsed = a.files.get(file);
    if (parsed) {
      if (parsed.sf.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => fields.includes(id.getText()) && readsField(id))) return file;
      if (parsed.sf.getDescendantsOfKind(SyntaxKind.StringLiteral).some((s) => fields.includes(s.getLiteralText()) && readsByKey(s))) return file;
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return file;
    }
    if (!word.test(text)) continue;
    // A script the engine did not parse: its syntax, parsed now (only where the word is there).
    if (!SCRIPT.test(file) || scriptReads(file, text, fields)) return file;
  }
  return undefined;
}

const SCRIPT = /\.([cm]?[jt]sx?)$/;

/** The same reads as readsField / readsByKey, over a syntax-only parse of a file's text. */
function scriptReads(file: string, text: string, fields: string[]): boolean {
  const kind = /x$/.test(file) ? (/\.tsx$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.JSX) : /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const named = (n: TypeScript.Node | undefined) => !!n && (ts.isIdentifier(n) || ts.isStringLiteral(n)) && fields.includes(n.text);
  let found = false;
  const visit = (n: TypeScript.Node): void => {
    if (found) return;
    if (ts.isPropertyAccessExpression(n) && named(n.name) && !n.expression.getText(sf).startsWith(`${ADAPTER_BINDING}.`)) found = true;
    else if (ts.isElementAccessExpression(n) && named(n.argumentExpression)) found = true;
    else if (ts.isBindingElement(n) && named(n.propertyName ?? n.name)) found = true;
    else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword && named(n.left)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/**
 * `pod.costPerHr`, `const { costPerHr } = pod`: a read of the field. A type member declaring it,
 * an object literal's key (a body being written) or a variable of that name are not.
 */
function readsField(id: Node): boolean {
  const p = id.getParent();
  if (!p) return false;
  // `v2Adapter.toV1Record.networkVolume(…)`: an earlier run's adapter call names a resource, not a field.
  if (Node.isPropertyAccessExpression(p)) return p.getNameNode() === id && !p.getExpression().getText().startsWith(`${ADAPTER_BINDING}.`);
  if (Node.isBindingElement(p)) return (p.getPropertyNameNode() ?? p.getNameNode()) === id;
  return false;
}

/** `pod["costPerHr"]`, `"costPerHr" in pod`, `{ "costPerHr": c } = pod`. */
function readsByKey(s: Node): boolean {
  const p = s.getParent();
  if (!p) return false;
  if (Node.isElementAccessExpression(p)) return p.getArgumentExpression() === s;
  if (Node.isBinaryExpression(p)) return p.getOperatorToken().getKind() === SyntaxKind.InKeyword && p.getLeft() === s;
  return Node.isBindingElement(p);
}
