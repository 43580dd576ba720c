// jscodeshift entry point for teams that run codemods through jscodeshift's runner. It hands the
// file's source to the same ts-morph engine the CLI uses and returns its output, so both give the
// same result for a file (cross-module facts, such as a base constant imported from another
// file, need the CLI's project run: jscodeshift sees one file at a time).
//
//   jscodeshift -t codemod/jscodeshift.cjs src/          (CommonJS shim: the compiled transform when installed, this through tsx in a checkout)
//   node --import tsx node_modules/.bin/jscodeshift -t codemod/jscodeshift.ts src/
import path from "node:path";
import { analyzeSource } from "./single-file.ts";

interface FileInfo {
  path: string;
  source: string;
}

export default function transformer(file: FileInfo, _api?: unknown, options: { report?: (msg: string) => void } = {}): string | undefined {
  const fileName = path.resolve(file.path);
  const result = analyzeSource(file.source, { fileName, displayName: file.path });
  if (result.parseError) {
    options.report?.(`${file.path}: could not parse (${result.parseError}); left alone`);
    return undefined;
  }
  for (const f of result.findings) if (f.category !== "auto") options.report?.(`${file.path}:${f.line}:${f.column} ${f.category}: ${f.reason}`);
  return result.output === file.source ? undefined : result.output;
}

/** The engine parses by itself; jscodeshift's parser choice does not matter. */
export const parser = "tsx";
