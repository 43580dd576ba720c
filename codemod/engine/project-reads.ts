// Whether anything in the project may read a record field: the boundary adapter leaves a few v1
// fields out of pod and endpoint records (the hourly rate and GPU types need the live catalog),
// so a record that leaves the codemod's sight goes through it only where nothing names those
// fields. Scripts are read by their syntax (a property read, a destructuring, a key lookup; not a
// type member or a body's key), one walk for the engine's own parses and for the files parsed here
// where the word appears. Pages and components in other languages (.vue, .svelte, .html) are read by the
// word, which errs toward a read. Each file is read and parsed at most once per run.
import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ts, type TypeScript } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { TEST_PATH } from "./test-files.ts";
import { ADAPTER_BINDING } from "../adapter/index.ts";
import { packageRoot } from "./package-root.ts";

const SCRIPT = /\.([cm]?[jt]sx?)$/;

/**
 * The first file that may read one of `fields` of a record the site in `siteFile` hands on (its
 * path, and the first such read: its field and line), or undefined when none does. Where it can be read: code that imports the site's module
 * (the engine parsed every importer), and the site's own package, whose pages fetch what its
 * routes answer.
 */
/** A file that may read the record, with the first read found in it where it is a script. */
type Reader = { file: string; read?: { field: string; line: number } };

export function projectReader(a: Analysis, fields: string[], siteFile: string, resource?: string): Reader | undefined {
  const pkg = packageRoot(siteFile, a.adapter?.root ?? path.dirname(siteFile));
  const key = `${pkg}\0${fields.join(",")}\0${resource ?? ""}`;
  const memo = (a.projectReaders ??= new Map());
  if (memo.has(key)) return memo.get(key) ?? undefined;
  const found = search(a, fields, pkg, resource);
  memo.set(key, found ?? null);
  return found;
}

function search(a: Analysis, fields: string[], pkg: string, resource: string | undefined): Reader | undefined {
  // Without the run's file list (one file through jscodeshift) nothing can be vouched for.
  if (!a.projectFiles) return { file: "(the project's other files are not known in this run)" };
  const word = new RegExp(`\\b(?:${fields.join("|")})\\b`);
  const cache = (a.projectFileReads ??= new Map());
  let first: Reader | undefined;
  for (const file of scope(a, pkg)) {
    const text = projectText(a, file);
    const entry = cache.get(file)!;
    if (text === null) return { file };
    const m = word.exec(text);
    if (!m) continue;
    if (!SCRIPT.test(file)) return { file, read: { field: m[0], line: text.slice(0, m.index).split("\n").length } };
    entry.reads ??= readNames(a, file, text);
    const hit = fields.find((f) => entry.reads!.has(f));
    if (!hit) continue;
    const found = { file, read: { field: hit, line: entry.reads.get(hit)! } };
    // A file whose every read is of another declared type (`form.gpuTypeIds` of a `CreatePodInput`)
    // is named only when no file may read the record itself.
    if (resource && readsOnlyOtherTypes(a, file, fields, resource)) {
      first ??= found;
      continue;
    }
    return found;
  }
  return first;
}

/**
 * Every read of the fields in a file is on a name that the file declares with a named type that is
 * not the resource's (`(form: CreatePodInput) => form.gpuTypeIds`, `useState<CreatePodInput>(…)`
 * for an endpoint's record). A read on anything else (an untyped name, a member chain, a type
 * named for the resource) may read it.
 */
function readsOnlyOtherTypes(a: Analysis, file: string, fields: string[], resource: string): boolean {
  const text = projectText(a, file);
  if (text === null) return false;
  const sf = scriptOf(a, file, text);
  const stem = resource.toLowerCase().replace(/[^a-z]/g, "");
  const declared = new Map<string, (string | undefined)[]>();
  const reads: TypeScript.PropertyAccessExpression[] = [];
  const typeName = (t: TypeScript.TypeNode | undefined) => (t && ts.isTypeReferenceNode(t) ? t.typeName.getText(sf) : undefined);
  const visit = (n: TypeScript.Node): void => {
    if ((ts.isParameter(n) || ts.isVariableDeclaration(n)) && ts.isIdentifier(n.name)) {
      // `const x: T`, `(x: T)`, or `const x = useState<T>(…)` / `const [x] = useState<T>(…)`.
      const init = ts.isVariableDeclaration(n) && n.initializer && ts.isCallExpression(n.initializer) ? n.initializer : undefined;
      const t = typeName(n.type) ?? (init?.typeArguments?.length === 1 ? typeName(init.typeArguments[0]) : undefined);
      declared.set(n.name.text, [...(declared.get(n.name.text) ?? []), t]);
    }
    if (ts.isVariableDeclaration(n) && ts.isArrayBindingPattern(n.name) && n.initializer && ts.isCallExpression(n.initializer) && n.initializer.typeArguments?.length === 1) {
      const first = n.name.elements[0];
      if (first && ts.isBindingElement(first) && ts.isIdentifier(first.name)) declared.set(first.name.text, [...(declared.get(first.name.text) ?? []), typeName(n.initializer.typeArguments[0])]);
    }
    if (ts.isPropertyAccessExpression(n) && fields.includes(n.name.text)) reads.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return (
    reads.length > 0 &&
    reads.every((r) => {
      const names = ts.isIdentifier(r.expression) ? declared.get(r.expression.text) : undefined;
      return !!names?.length && names.every((t) => !!t && !t.toLowerCase().includes(stem));
    })
  );
}

/** The files a package's records can be read in, once per package: its own, and every importer the engine parsed; not the adapter, not tests. */
function scope(a: Analysis, pkg: string): string[] {
  const scopes = (a.projectScopes ??= new Map());
  let files = scopes.get(pkg);
  if (files) return files;
  const root = a.adapter?.root;
  const prefix = pkg.endsWith(path.sep) ? pkg : pkg + path.sep;
  files = a.projectFiles!.filter((file) => {
    if (!a.files.has(file) && !file.startsWith(prefix)) return false;
    if (/v2-bridge-adapter\.[cm]?[jt]s$/.test(file)) return false;
    // The project's tests read mocks and their own helpers' output, not the API's records.
    return !TEST_PATH.test((root ? path.relative(root, file) : file).split(path.sep).join("/"));
  });
  scopes.set(pkg, files);
  return files;
}

function readText(a: Analysis, file: string): string | null {
  const parsed = a.files.get(file);
  if (parsed) return parsed.text;
  // Read by the run's pre-filter: ASCII bytes are their own UTF-8 text.
  const bytes = a.projectBytes?.get(file);
  if (bytes !== undefined && isAscii(bytes)) return bytes.toString("latin1");
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Whether a file of the run may contain `word`: not when the bytes the pre-filter read lack its UTF-8 bytes (no read, no decoding). */
export function mayContain(a: Analysis, file: string, word: string): boolean {
  const bytes = a.projectBytes?.get(file);
  return bytes === undefined || bytes.includes(word, 0, "utf8");
}

/** A project file's text, read at most once per run (null when it cannot be read). */
export function projectText(a: Analysis, file: string): string | null {
  const cache = (a.projectFileReads ??= new Map());
  let entry = cache.get(file);
  if (!entry) cache.set(file, (entry = { text: readText(a, file) }));
  return entry.text;
}

/** The files under `dir` (the run's root: every package) that may fetch an app's route; not the adapter, not tests. */
export function relayScope(a: Analysis, dir: string): string[] {
  return scope(a, dir);
}

/** A script's syntax: the engine's parse, or one made here once a run. */
export function scriptOf(a: Analysis, file: string, text: string): TypeScript.SourceFile {
  const parsed = a.files.get(file);
  if (parsed) return parsed.sf.compilerNode;
  const entry = a.projectFileReads!.get(file)!;
  return (entry.sf ??= ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file)));
}

function scriptKind(file: string): TypeScript.ScriptKind {
  return /x$/.test(file) ? (/\.tsx$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.JSX) : /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}

/**
 * The field names a script reads: `x.name`, `x["name"]`, `{ name } = x`, `"name" in x`. A type
 * member declaring it, an object literal's key (a body being written) or a variable of that name
 * are not reads. The engine's files are read from their parse, the others parsed here.
 */
function readNames(a: Analysis, file: string, text: string): Map<string, number> {
  const parsed = a.files.get(file);
  const sf = parsed ? parsed.sf.compilerNode : (a.projectFileReads!.get(file)!.sf ??= ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file)));
  /** Each name read, and the line of its first read. */
  const out = new Map<string, number>();
  const add = (n: TypeScript.Node | undefined) => {
    if (n && (ts.isIdentifier(n) || ts.isStringLiteral(n)) && !out.has(n.text)) out.set(n.text, sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1);
  };
  const visit = (n: TypeScript.Node): void => {
    // `v2Adapter.toV1Record.networkVolume(…)`: an earlier run's adapter call names a resource, not a field.
    if (ts.isPropertyAccessExpression(n) && !n.expression.getText(sf).startsWith(`${ADAPTER_BINDING}.`)) add(n.name);
    else if (ts.isElementAccessExpression(n)) add(n.argumentExpression);
    else if (ts.isBindingElement(n)) add(n.propertyName ?? n.name);
    else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword) add(n.left);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * A project file outside the run that names `name` as a word (a caller the engine did not parse:
 * a module importing a shared helper that no v1 code imports), or undefined. Tests and the
 * adapter are not callers; without the run's file list none is known.
 */
export function namedOutsideRun(a: Analysis, name: string, fromFile: string): string | undefined {
  if (!a.projectFiles) return undefined;
  const pkg = packageRoot(fromFile, a.adapter?.root ?? path.dirname(fromFile));
  const word = new RegExp(`\\b${name.replace(/[$]/g, "\\$")}\\b`);
  for (const file of scope(a, pkg)) {
    if (a.files.has(file) || !SCRIPT.test(file)) continue;
    const text = projectText(a, file);
    if (text !== null && word.test(text)) return file;
  }
  return undefined;
}
