// ts-morph, loaded with require. Imported from ESM, Node first scans a CommonJS module's source
// for its export names (cjs-module-lexer over ts-morph's ~1 MB bundle: ~0.1–0.3 s at every start
// on Node 20); require skips that scan. Types come from the package as usual.
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const Node = tsMorph.Node;
export type Node = TsMorph.Node;
export const Project = tsMorph.Project;
export type Project = TsMorph.Project;
export const ScriptKind = tsMorph.ScriptKind;
export type ScriptKind = TsMorph.ScriptKind;
export const SyntaxKind = tsMorph.SyntaxKind;
export type SyntaxKind = TsMorph.SyntaxKind;
export type { CallExpression, ExportDeclaration, ImportDeclaration, ObjectLiteralExpression, SourceFile } from "ts-morph";
/** The TypeScript compiler ts-morph carries (a syntax-only parse needs no project). */
export const ts = tsMorph.ts;
export type { ts as TypeScript } from "ts-morph";
