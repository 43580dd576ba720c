// The codemod engine over one project: an orchestrator of named passes, each in its own module.
//   1. call sites   (transports.ts, helpers.ts, call-site.ts, rewrites/*): every HTTP call and
//                   helper call on a v1 base, planned in full or with its problems named
//   2. base sources (base-sources.ts): every string naming the v1 host
//   3. do no harm   (do-no-harm.ts): bases flip only when every use is accounted for
//   3b. recall net  (recall-net.ts): v1 route literals no planned call consumed, in modules of a v1 client
//   4. old marks    (todo-marks.ts): marks of earlier runs still count
//   5. apply        (apply-edits.ts): text edits on the original source, per file
// The audit is the same analysis with the output discarded.
import { SyntaxKind, type SourceFile } from "../ts-morph.ts";
import type { FileAnalysis, Finding } from "../types.ts";
import { parseErrorOf, type ProjectIndex } from "../project-index.ts";
import { addFile, newAnalysis, type Analysis } from "./state.ts";
import { httpCall } from "./transports/index.ts";
import { setCallReader } from "./call-reader.ts";

setCallReader(httpCall);
import { processCall } from "./call-site.ts";
import { registerCaughtReadsByShape, registerErrorReads, settleErrorReads } from "./error-reads.ts";
import { scanLiterals } from "./base-sources.ts";
import { resolveDoNoHarm } from "./do-no-harm.ts";
import { markFindings } from "./todo-marks.ts";
import { applyEdits } from "./apply-edits.ts";
import { openapiTypes } from "./openapi-types.ts";
import { recallNet } from "./recall-net.ts";
import type { AdapterOptions } from "../adapter/index.ts";

export interface ProjectAnalysis {
  /** Absolute path → what happened to that file. */
  files: Map<string, FileAnalysis>;
  /** Adapter modules the rewritten files import: absolute path → variant. */
  adapters?: Map<string, AdapterOptions>;
}

function callSites(a: Analysis, sf: SourceFile): void {
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const http = httpCall(a, call);
    if (http) processCall(a, http);
  }
}

export interface AnalyzeOptions {
  /** Absolute path → why the run may not write it (a read-only file). */
  frozen?: Map<string, string>;
  /** Absolute path → the files that import it but could not be analysed. */
  blocked?: Map<string, string[]>;
  /** Where the boundary adapter module goes (the run's root); absent: no adapter (--no-adapter). */
  adapterRoot?: string;
  /** Every file of the run, pages and components included (what may read a record field). */
  projectFiles?: string[];
}

export function analyzeProject(index: ProjectIndex, displayName: (file: string) => string, options: AnalyzeOptions = {}): ProjectAnalysis {
  const first = analyzeOnce(index, displayName, options);
  // A file whose edits overlap is left as it is; bases there must then stay v1 for every caller,
  // so the analysis runs again with that file frozen (it converges: frozen files only grow).
  for (let round = 0; round < 3 && first.conflicted.size; round++) {
    const frozen = new Map(options.frozen ?? []);
    for (const [f, why] of first.conflicted) frozen.set(f, why);
    const again = analyzeOnce(index, displayName, { ...options, frozen });
    if (!again.conflicted.size || [...again.conflicted.keys()].every((f) => frozen.has(f))) return { files: again.files, adapters: again.adapters };
    Object.assign(first, again);
  }
  return { files: first.files, adapters: first.adapters };
}

function analyzeOnce(index: ProjectIndex, displayName: (file: string) => string, options: AnalyzeOptions): ProjectAnalysis & { conflicted: Map<string, string> } {
  const conflicted = new Map<string, string>();
  const a = newAnalysis(index.resolve);
  if (options.adapterRoot) a.adapter = { root: options.adapterRoot, used: new Map() };
  a.projectFiles = options.projectFiles;
  for (const [f, why] of options.frozen ?? []) a.frozen.set(f, why);
  for (const [f, by] of options.blocked ?? []) a.blocked.set(f, by);
  const result = new Map<string, FileAnalysis>();
  const parsed: SourceFile[] = [];
  for (const sf of index.files) {
    const error = parseErrorOf(sf);
    const text = sf.getFullText();
    if (error) {
      result.set(sf.getFilePath(), { findings: [], edits: [], output: text, parseError: error, callSites: 0, rewritten: 0 });
      continue;
    }
    addFile(a, sf, displayName(sf.getFilePath()));
    parsed.push(sf);
  }
  // A pass that fails on a file leaves that file alone (and nothing may depend on it), the rest goes on.
  const failed = new Map<string, string>();
  const guarded = (pass: (a: Analysis, sf: SourceFile) => void) => {
    for (const sf of parsed) {
      if (failed.has(sf.getFilePath())) continue;
      try {
        pass(a, sf);
      } catch (error) {
        const why = `the codemod failed on ${displayName(sf.getFilePath())} (${(error as Error).message.split("\n")[0]}); it is left as it is`;
        failed.set(sf.getFilePath(), why);
        a.frozen.set(sf.getFilePath(), why);
      }
    }
  };
  guarded(callSites);
  // Error reads on the calls' failure paths, wherever they are (shared code included); settled below.
  guarded(registerErrorReads);
  guarded(registerCaughtReadsByShape);
  guarded(openapiTypes);
  guarded(scanLiterals);
  guarded(recallNet);
  resolveDoNoHarm(a);
  settleErrorReads(a);
  for (const sf of parsed) {
    const file = a.files.get(sf.getFilePath())!;
    const internal = failed.get(sf.getFilePath());
    const findings: Finding[] = [...file.findings, ...markFindings(file)].sort((x, y) => x.line - y.line || x.column - y.column);
    if (internal) findings.unshift({ file: file.display, line: 1, column: 1, operation: null, v1: null, v2: null, category: "review", reason: `not processed (internal error): ${internal}`, advice: "migrate this file by hand and report the error", snippet: "" });
    const sites = a.sites.filter((s) => s.file === file && s.finding && s.call.getKind() === SyntaxKind.CallExpression);
    const { output, conflicts } = a.frozen.has(sf.getFilePath()) ? { output: file.text, conflicts: [] } : applyEdits(file.text, file.edits);
    if (conflicts.length) {
      conflicted.set(sf.getFilePath(), "its edits overlap (two plans disagree), so it is left as it is");
      // Overlapping edits mean two plans disagree: leave the file alone and say so.
      const safe = findings.map((f) => (f.category === "auto" ? { ...f, category: "review" as const, reason: `${f.reason}; overlapping edits, left unchanged`, advice: "rewrite this file by hand" } : f));
      result.set(sf.getFilePath(), { findings: safe, edits: [], output: file.text, callSites: sites.length, rewritten: 0 });
      continue;
    }
    result.set(sf.getFilePath(), { findings, edits: file.edits, output, callSites: sites.length, rewritten: sites.filter((s) => s.complete).length });
  }
  return { files: result, conflicted, adapters: a.adapter?.used };
}
