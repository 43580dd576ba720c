// A base held by a config object's property that other code assigns (`OpenAPI.BASE =
// process.env.RUNPOD_API_BASE` in the app's setup, after the generated `OpenAPI = { BASE: "…/v1" }`):
// what it writes takes precedence over the literal at run time, like `x ?? BASE`. The calls reading
// the property account for the literal, so its uses are never followed to that write: it is looked
// for here, among the property's references in the run and, by text, in every file of the project
// (a setup module that names no v1 host is not parsed; a write typed through the object's declared
// type is not among the literal property's references).
import path from "node:path";
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { references } from "./references.ts";
import { skipParens } from "./nodes.ts";
import { mayContain, projectText } from "./project-reads.ts";
import { envRead } from "./env-reads.ts";

const SCRIPT = /\.([cm]?[jt]sx?)$/;

/** What overrides the base `literal` initialises as an object's property: the right-hand sides written to it in the run, and the writes found as text elsewhere. */
export function propertyWrites(a: Analysis, literal: Node): { nodes: Node[]; texts: string[] } {
  const prop = skipParens(literal).getParent();
  if (!prop || !Node.isPropertyAssignment(prop) || prop.getInitializer() !== skipParens(literal)) return { nodes: [], texts: [] };
  const nodes: Node[] = [];
  for (const ref of references(prop.getNameNode())) {
    const access = ref.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getNameNode() !== ref) continue;
    const assign = access.getParent();
    if (assign && Node.isBinaryExpression(assign) && assign.getLeft() === access && assign.getOperatorToken().getKind() === SyntaxKind.EqualsToken) nodes.push(assign.getRight());
  }
  // By text only under the name of the variable holding the object (`OpenAPI.BASE = …`): another object's `BASE` is not this one.
  let obj: Node | undefined = prop.getParent();
  while (obj && obj.getParent() && [SyntaxKind.AsExpression, SyntaxKind.SatisfiesExpression, SyntaxKind.ParenthesizedExpression].includes(obj.getParent()!.getKind())) obj = obj.getParent();
  const holder = obj?.getParent();
  const holderName = holder && Node.isVariableDeclaration(holder) && Node.isIdentifier(holder.getNameNode()) ? holder.getName() : undefined;
  return { nodes, texts: holderName ? writtenInProject(a, holderName, prop.getName(), literal.getSourceFile().getFilePath()) : [] };
}

/** `HOLDER.NAME = value` in the project's files, by text (the property's references miss writes typed through its declared type, and files the run did not parse), as override texts ("the environment variable X", else "NAME as FILE sets it"). */
function writtenInProject(a: Analysis, holder: string, name: string, baseFile: string): string[] {
  if (!a.projectFiles || !/^[A-Za-z_$][\w$]*$/.test(name)) return [];
  const word = (w: string) => w.replace(/\$/g, "\\$");
  const write = new RegExp(`(?<![\\w$.])${word(holder)}\\.${word(name)}\\s*=(?![=>])\\s*([^;\\n]+)`, "g");
  const root = a.adapter?.root ?? path.dirname(baseFile);
  const out: string[] = [];
  for (const file of a.projectFiles) {
    if (!SCRIPT.test(file) || file.includes(`${path.sep}node_modules${path.sep}`) || !mayContain(a, file, `${holder}.${name}`)) continue;
    const text = projectText(a, file);
    if (text === null) continue;
    for (const m of text.matchAll(write)) {
      const value = m[1]!.trim();
      const env = envRead(value);
      out.push(env ? `the environment variable ${env.name}` : `${name} as ${path.relative(root, file).split(path.sep).join("/")} sets it (${value.length > 40 ? value.slice(0, 37) + "…" : value})`);
    }
  }
  return [...new Set(out)];
}
