// One file on its own (the jscodeshift entry point sees one file at a time): the same engine
// over a project of that file. Facts that live in other modules (an imported base constant or
// helper) need the CLI's project run.
import path from "node:path";
import type { FileAnalysis } from "./types.ts";
import { buildProject, newProject } from "./project-index.ts";
import type { Project } from "./ts-morph.ts";
import { BOM } from "./source-files.ts";

/** One project for every single file (jscodeshift calls once per file): the standard library is parsed once. */
let shared: Project | undefined;
import { analyzeProject } from "./engine/index.ts";

export interface AnalyzeOptions {
  /** Absolute path (for the file's language). */
  fileName: string;
  /** File name written into findings (defaults to fileName). */
  displayName?: string;
}

export function analyzeSource(source: string, options: AnalyzeOptions): FileAnalysis {
  // A byte-order mark stays in front of the output and out of the analysis (positions, marks on line 1).
  const bom = source.startsWith(BOM);
  const text = bom ? source.slice(1) : source;
  const fileName = path.resolve(options.fileName);
  shared ??= newProject();
  const index = buildProject([fileName], new Map([[fileName, text]]), undefined, shared);
  try {
    const result = analyzeProject(index, () => options.displayName ?? options.fileName).files.get(fileName)!;
    return bom ? { ...result, output: BOM + result.output } : result;
  } finally {
    for (const sf of index.files) shared.removeSourceFile(sf);
  }
}
