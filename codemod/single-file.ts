// One file on its own (the jscodeshift entry point sees one file at a time): the same engine
// over a project of that file. Facts that live in other modules (an imported base constant or
// helper) need the CLI's project run.
import path from "node:path";
import type { FileAnalysis } from "./types.ts";
import { buildProject } from "./project-index.ts";
import { analyzeProject } from "./engine/index.ts";

export interface AnalyzeOptions {
  /** Absolute path (for the file's language). */
  fileName: string;
  /** File name written into findings (defaults to fileName). */
  displayName?: string;
}

export function analyzeSource(text: string, options: AnalyzeOptions): FileAnalysis {
  const fileName = path.resolve(options.fileName);
  const index = buildProject([fileName], new Map([[fileName, text]]), undefined);
  const result = analyzeProject(index, () => options.displayName ?? options.fileName);
  return result.files.get(fileName)!;
}
