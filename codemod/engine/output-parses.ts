// The last check before a file is written: its rewritten text must parse as the original did. A
// rewrite that would leave a file unparseable (a bug in a pass) is never written; the file is held
// instead, so its sites stay v1 and marked, and the bases they use stay v1 for every caller.
import { ts, type SourceFile, type TypeScript } from "../ts-morph.ts";

/** The first syntax error of `output` parsed as `sf` was (`line:column message`), or undefined. */
export function syntaxErrorOf(sf: SourceFile, output: string): string | undefined {
  const kind = (sf.compilerNode as { scriptKind?: number }).scriptKind;
  const parsed = ts.createSourceFile(sf.getFilePath(), output, ts.ScriptTarget.Latest, false, kind);
  const diags = ((parsed as unknown as { parseDiagnostics?: TypeScript.Diagnostic[] }).parseDiagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  const d = diags[0];
  if (!d) return undefined;
  const pos = parsed.getLineAndCharacterOfPosition(d.start ?? 0);
  return `${pos.line + 1}:${pos.character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
}
