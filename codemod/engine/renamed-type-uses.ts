// Whether a field declaration a site renames (or retypes) to its v2 name is used anywhere the run
// does not migrate with it. A record type usually lives in a module of its own and types more than
// the one answer the site follows: a component's props, a cache, a test's fixture, another
// resource's records. Renaming `Template.imageName` is only right when every use of that field
// moves to `image` in the same run: each reference the compiler finds must sit inside an edit of
// a site that applies and writes the same name, and no file the run did not parse may name the
// type and the field (it may read it: a page typed by the project's types module).
import { findReferencesAsNodes } from "./find-references.ts";
import { readFileSync } from "node:fs";
import { Node } from "../ts-morph.ts";
import { quotedPosition } from "./mark-positions.ts";
import type { Analysis, Site } from "./state.ts";

/** Why renaming this site's field declarations would leave a use behind, or undefined when none would. */
export function renamedFieldLeftBehind(a: Analysis, site: Site, applying: (s: Site) => boolean): string | undefined {
  for (const d of site.typeRenames ?? []) {
    if (!Node.isPropertySignature(d) && !Node.isPropertyDeclaration(d)) continue;
    const name = d.getNameNode();
    const path = d.getSourceFile().getFilePath();
    const own = site.edits.find((e) => e.file === path && e.start >= name.getStart() && e.end <= name.getEnd() && e.text !== e.old);
    if (!own) continue;
    const field = name.getText();
    const v2 = own.text;
    let refs: Node[];
    try {
      refs = findReferencesAsNodes(name);
    } catch {
      return `the uses of its record type's field ${field} (${quotedPosition(d)}) cannot be listed`;
    }
    for (const r of refs) {
      if (r === name || isDeclarationOf(r, d)) continue;
      if (!covered(a, r, v2, applying)) return `its record type's field ${field} (${quotedPosition(d)}) is also used at ${quotedPosition(r)}, which this run does not migrate with it`;
    }
    const holder = typeName(d);
    const unparsed = holder && unparsedMention(a, holder, field);
    if (unparsed) return `its record type ${holder} (field ${field}, ${quotedPosition(d)}) is named in ${unparsed}, which this run does not analyse`;
  }
  return undefined;
}

/** A reference inside an applying site's edit whose text writes the v2 name (a renamed read, a converted read, a renamed binding). */
function covered(a: Analysis, r: Node, v2: string, applying: (s: Site) => boolean): boolean {
  const file = r.getSourceFile().getFilePath();
  const start = r.getStart();
  const word = wordIn(v2);
  for (const s of a.sites) {
    if (!applying(s)) continue;
    for (const e of s.edits) {
      if (e.file !== file || !word.test(e.text)) continue;
      // An insertion at the name (`{ imageName }` → `{ image: imageName }`) or a replacement over it.
      if (e.start === e.end ? e.start === start : e.start <= start && r.getEnd() <= e.end) return true;
    }
  }
  return false;
}

/** Another declaration of the same member (a merged interface, an overload): not a use. */
function isDeclarationOf(r: Node, d: Node): boolean {
  const p = r.getParent();
  return !!p && (Node.isPropertySignature(p) || Node.isPropertyDeclaration(p)) && p.getNameNode() === r && p.getName() === (d as any).getName();
}

/** The name code uses the field's type by: its interface, or the alias of its type literal. */
function typeName(d: Node): string | undefined {
  const owner = d.getParent();
  if (owner && (Node.isInterfaceDeclaration(owner) || Node.isClassDeclaration(owner))) return owner.getName();
  const alias = owner?.getParent();
  return owner && Node.isTypeLiteral(owner) && alias && Node.isTypeAliasDeclaration(alias) ? alias.getName() : undefined;
}

const SCRIPT = /\.([cm]?[jt]sx?|vue|svelte)$/;

/**
 * The first file of the run the engine did not parse that names both the type and the field, or
 * undefined. The files are read once per run, for the names of every type the run's sites rename
 * (texts kept only for the files naming one).
 */
function unparsedMention(a: Analysis, type: string, field: string): string | undefined {
  if (!a.projectFiles) return undefined;
  const memo: Map<string, { file: string; text: string }[]> = (a.typeMentions ??= new Map());
  if (!memo.has(type)) scanUnparsed(a, memo, new Set([type, ...renamedTypeNames(a)].filter((n) => !memo.has(n))));
  const hit = memo.get(type)!.find((f) => wordIn(field).test(f.text));
  return hit && hit.file.split("/").slice(-2).join("/");
}

function renamedTypeNames(a: Analysis): string[] {
  const out = new Set<string>();
  for (const s of a.sites) for (const d of s.typeRenames ?? []) if (Node.isPropertySignature(d) || Node.isPropertyDeclaration(d)) out.add(typeName(d) ?? "");
  out.delete("");
  return [...out];
}

function scanUnparsed(a: Analysis, memo: Map<string, { file: string; text: string }[]>, names: Set<string>): void {
  for (const n of names) memo.set(n, []);
  const any = new RegExp(`(?<![\\w$])(${[...names].map((n) => n.replace(/[$]/g, "\\$")).join("|")})(?![\\w$])`, "g");
  for (const file of a.projectFiles ?? []) {
    if (a.files.has(file) || !SCRIPT.test(file) || /v2-bridge-adapter\.[cm]?[jt]s$/.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const found = new Set([...text.matchAll(any)].map((m) => m[1]!));
    for (const n of found) memo.get(n)!.push({ file, text });
  }
}

function wordIn(word: string): RegExp {
  return new RegExp(`(?<![\\w$])${word.replace(/[$]/g, "\\$")}(?![\\w$])`);
}
