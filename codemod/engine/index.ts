// The codemod engine over one project: an orchestrator of named passes, each in its own module.
//   1. call sites   (transports.ts, helpers.ts, call-site.ts, rewrites/*): every HTTP call and
//                   helper call on a v1 base, planned in full or with its problems named
//   1b. hand-moved  (hand-moved.ts): calls on the v2 base whose answer, body, query or error reads
//                   still speak v1, planned as sites whose URL is already v2's
//   2. base sources (base-sources.ts): every string naming the v1 host
//   3. do no harm   (do-no-harm.ts): bases flip only when every use is accounted for
//   3b. recall net  (recall-net.ts): v1 route literals no planned call consumed, in modules of a v1 client
//   4. old marks    (todo-marks.ts): marks of earlier runs still count, but those above a site or
//                   base this run decided and did not confirm are removed (stale-marks.ts)
//   5. apply        (apply-edits.ts): text edits on the original source, per file
// The audit is the same analysis with the output discarded.
import { SyntaxKind, type SourceFile } from "../ts-morph.ts";
import type { Edit, FileAnalysis, Finding, MarkDetail } from "../types.ts";
import { parseErrorOf, type ProjectIndex } from "../project-index.ts";
import { addFile, newAnalysis, planFor, type Analysis, type FileState, type Frozen, type Holds, type Site } from "./state.ts";
import { holdsFor, newHolds } from "./site-holds.ts";
import { httpCall } from "./transports/index.ts";
import { libraryCallee } from "./transports/library-callee.ts";
import { setCallReader, setLibraryCallee } from "./call-reader.ts";

setCallReader(httpCall);
setLibraryCallee(libraryCallee);
import { processCall } from "./call-site.ts";
import { registerCaughtReadsByShape, registerErrorReads, settleErrorReads } from "./error-reads.ts";
import { registerErrorTexts, settleErrorWording } from "./error-wording.ts";
import { scanLiterals } from "./base-sources.ts";
import { resolveDoNoHarm } from "./do-no-harm.ts";
import { markFindings, fileMarks } from "./todo-marks.ts";
import { applyEdits } from "./apply-edits.ts";
import { placeMarkPositions } from "./mark-positions.ts";
import { dropStaleMarks } from "./stale-marks.ts";
import { syntaxErrorOf } from "./output-parses.ts";
import { openapiTypes } from "./openapi-types.ts";
import { recallNet } from "./recall-net.ts";
import { undiciDispatches } from "./undici-dispatch.ts";
import { followCacheKeys } from "./swr-cache-keys.ts";
import { setModuleResolver } from "./module-exports.ts";
import type { AdapterOptions } from "../adapter/index.ts";
import { servesGeneratedRequests } from "./transports/route-config.ts";
import { handMovedCalls } from "./hand-moved.ts";
import { isGeneratedAdapter } from "./generated-adapter.ts";

export interface ProjectAnalysis {
  /** Absolute path → what happened to that file. */
  files: Map<string, FileAnalysis>;
  /** Adapter modules the rewritten files import: absolute path → variant. */
  adapters?: Map<string, AdapterOptions>;
  /** Files beside the sources the rewrite changes (an action's action.yml): absolute path → old and new text. */
  beside?: Map<string, { before: string; after: string }>;
}

function callSites(a: Analysis, sf: SourceFile): void {
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const http = httpCall(a, call);
    // (A generated client's own transport call serves the request configs its callers give it.)
    if (http && !http.routeConfig && servesGeneratedRequests(a, call)) continue;
    if (http) processCall(a, http);
  }
}

export interface AnalyzeOptions {
  /** Absolute path → why the run may not write it (a read-only file). */
  frozen?: Map<string, string>;
  /** Absolute path → the files that import it but could not be analysed. */
  blocked?: Map<string, string[]>;
  /** Absolute path → where its exports may be used unseen (an auto-import convention's users the run does not hold: codemod/auto-imports.ts). */
  unseenUses?: Map<string, string[]>;
  /** Where the boundary adapter module goes (the run's root); absent: no adapter (--no-adapter). */
  adapterRoot?: string;
  /** Every file of the run, pages and components included (what may read a record field). */
  projectFiles?: string[];
  /** Files of the run already read, and their bytes (an ASCII file's text: project-reads.ts reads it no more). */
  projectBytes?: Map<string, Buffer>;
  /** The details an earlier run kept of a file's marks (codemod/mark-details.ts): a mark read back takes its problems from them. */
  markDetails?: (file: string) => MarkDetail[] | undefined;
  /** The run writes (or shows) files beside the sources: an action's action.yml (engine/action-inputs.ts). */
  writesBeside?: boolean;
}

export function analyzeProject(index: ProjectIndex, displayName: (file: string) => string, options: AnalyzeOptions = {}): ProjectAnalysis {
  // A file whose edits cannot all be applied (two plans overlap, or an edit does not fit its text)
  // is held: the analysis runs again with only its marks written there, so its bases stay v1 for
  // every caller and its sites keep v1, marked. It converges: held files only grow.
  // Where the overlapping edits are a site's (or a base's), only that site is held (site-holds.ts).
  const held = new Map<string, Frozen>();
  const holds = newHolds();
  let run = analyzeOnce(index, displayName, options, held, holds);
  for (let round = 0; round < 5 && (run.held.size || run.holds.sites.size || run.holds.bases.size); round++) {
    const before = held.size + holds.sites.size + holds.bases.size;
    for (const [f, h] of run.held) if (!held.has(f)) held.set(f, h);
    for (const kind of ["sites", "bases"] as const) for (const [k, h] of run.holds[kind]) if (!holds[kind].has(k)) holds[kind].set(k, h);
    if (held.size + holds.sites.size + holds.bases.size === before) break;
    run = analyzeOnce(index, displayName, options, held, holds);
  }
  return { files: run.files, adapters: run.adapters, beside: run.beside };
}

const WRITABLE = "make the file writable or pass --force, then run rewrite again";
const BY_HAND = "migrate this by hand (v2 path, body and answer: docs/mapping.md) and report the file to v2-bridge";

function conflictHold(file: FileState, at: number): Frozen {
  // Named as `file.ts:line`, which marks of later runs read without the line (marks move lines).
  const line = file.sf.getLineAndColumnAtPos(at).line;
  return { why: `two rewrites planned in ${file.display} overlap (at ${file.sf.getBaseName()}:${line}), so only marks are written there`, advice: BY_HAND, marks: true };
}

function overlapHold(file: FileState, at: number): Frozen {
  const line = file.sf.getLineAndColumnAtPos(at).line;
  return { why: `two rewrites planned in this file overlap here (at ${file.sf.getBaseName()}:${line})`, advice: BY_HAND };
}

function unparseableHold(file: FileState, error: string): Frozen {
  return { why: `the codemod's rewrite of ${file.display} would not parse (internal error: ${error.replace(/^\d+:\d+ /, "")}), so only marks are written there`, advice: BY_HAND, marks: true };
}

function refusedHold(file: FileState, e: Edit): Frozen {
  const what = e.file !== file.sf.getFilePath() ? `an edit made for ${e.file.split("/").pop()} was given to it` : "an edit does not fit its text";
  return { why: `the codemod planned an edit in ${file.display} it could not apply (internal error: ${what}), so only marks are written there`, advice: BY_HAND, marks: true };
}

function analyzeOnce(index: ProjectIndex, displayName: (file: string) => string, options: AnalyzeOptions, held: Map<string, Frozen>, holds: Holds): ProjectAnalysis & { held: Map<string, Frozen>; holds: Holds } {
  const hold = new Map<string, Frozen>();
  const more = newHolds();
  const a = newAnalysis(index.resolve);
  a.holds = holds;
  setModuleResolver(index.project, index.resolve);
  if (options.adapterRoot) a.adapter = { root: options.adapterRoot, used: new Map() };
  a.projectFiles = options.projectFiles;
  a.projectBytes = options.projectBytes;
  a.writesBeside = options.writesBeside;
  for (const [f, why] of options.frozen ?? []) a.frozen.set(f, { why, advice: WRITABLE });
  for (const [f, h] of held) if (!a.frozen.has(f)) a.frozen.set(f, h);
  for (const [f, by] of options.blocked ?? []) a.blocked.set(f, by);
  for (const [f, by] of options.unseenUses ?? []) a.unseenUses.set(f, by);
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
  // The adapter module as generated holds nothing any pass looks for (generated-adapter.ts).
  const generated = new Set(parsed.filter((sf) => isGeneratedAdapter(sf.getFilePath(), sf.getFullText())));
  const guarded = (pass: (a: Analysis, sf: SourceFile) => void) => {
    for (const sf of parsed) {
      if (failed.has(sf.getFilePath()) || generated.has(sf)) continue;
      try {
        pass(a, sf);
      } catch (error) {
        const why = `the codemod failed on ${displayName(sf.getFilePath())} (${(error as Error).message.split("\n")[0]}); it is left as it is`;
        failed.set(sf.getFilePath(), why);
        a.frozen.set(sf.getFilePath(), { why, advice: "migrate this file by hand and report the error" });
      }
    }
  };
  guarded(callSites);
  guarded(handMovedCalls);
  // Error reads on the calls' failure paths, wherever they are (shared code included); settled below.
  guarded(registerErrorReads);
  guarded(registerCaughtReadsByShape);
  guarded(registerErrorTexts);
  guarded(openapiTypes);
  guarded(scanLiterals);
  guarded(undiciDispatches);
  guarded(recallNet);
  resolveDoNoHarm(a);
  followCacheKeys(a);
  settleErrorReads(a);
  settleErrorWording(a);
  dropStaleMarks(a);
  // The edits each file is written with: none for a file left alone, only marks for a held one.
  const written = (file: FileState) => {
    const frozen = a.frozen.get(file.sf.getFilePath());
    return frozen && !frozen.marks ? [] : frozen ? file.edits.filter((e) => file.markEdits.has(e)) : file.edits;
  };
  placeMarkPositions(a, written);
  for (const sf of parsed) {
    const path = sf.getFilePath();
    const file = a.files.get(path)!;
    const internal = failed.get(path);
    const readBack = markFindings(file, options.markDetails?.(path));
    const findings: Finding[] = [...file.findings, ...readBack.findings].sort((x, y) => x.line - y.line || x.column - y.column);
    const marks = fileMarks(file, readBack.kept);
    if (internal) findings.unshift({ file: file.display, line: 1, column: 1, operation: null, v1: null, v2: null, category: "review", reason: `not processed (internal error): ${internal}`, advice: "migrate this file by hand and report the error", snippet: "", subject: "file" });
    const sites = a.sites.filter((s) => s.file === file && s.finding && s.call.getKind() === SyntaxKind.CallExpression);
    const found = sites.length + (file.netSites ?? 0);
    const frozen = a.frozen.get(path);
    if (frozen && !frozen.marks) {
      result.set(path, { findings, edits: file.edits, output: file.text, callSites: found, rewritten: 0, marks });
      continue;
    }
    const edits = written(file);
    const { output, conflicts, refused } = applyEdits(path, file.text, edits);
    const broken = !conflicts.length && !refused.length && output !== file.text ? syntaxErrorOf(sf, output) : undefined;
    if (broken && !frozen) hold.set(path, unparseableHold(file, broken));
    if (conflicts.length || refused.length || broken) {
      // Nothing of it is written this round: the next one holds the file (and any file an edit was meant for).
      for (const e of refused) {
        hold.set(path, refusedHold(file, e));
        const meant = a.files.get(e.file);
        if (meant && meant !== file) hold.set(e.file, refusedHold(meant, e));
      }
      const local = conflicts.length && !hold.has(path) && !frozen ? holdsFor(a, file, conflicts, edits, holds, overlapHold(file, conflicts[0]!.start)) : undefined;
      if (local) for (const kind of ["sites", "bases"] as const) for (const [k, h] of local[kind]) more[kind].set(k, h);
      else if (conflicts.length && !hold.has(path)) hold.set(path, conflictHold(file, conflicts[0]!.start));
      const why = (hold.get(path) ?? frozen ?? overlapHold(file, conflicts[0]!.start)).why.replace(/, so only marks are written there$/, "");
      const safe = findings.map((f) => (f.category === "auto" ? { ...f, category: "review" as const, reason: `${f.reason}; left unchanged: ${why}`, advice: BY_HAND } : f));
      result.set(path, { findings: safe, edits: [], output: file.text, callSites: found, rewritten: 0, marks });
      continue;
    }
    result.set(path, { findings, edits, output, callSites: found, rewritten: frozen ? 0 : sites.filter(fullyMigrated).length, marks });
  }
  // Files beside the sources (action.yml), changed only where every edit planned there applies.
  const beside = new Map<string, { before: string; after: string }>();
  for (const [file, { text, edits }] of a.besideEdits ?? []) {
    const { output, conflicts, refused } = applyEdits(file, text, edits);
    if (!conflicts.length && !refused.length && output !== text) beside.set(file, { before: text, after: output });
  }
  return { files: result, held: hold, holds: more, adapters: a.adapter?.used, beside };
}

/**
 * A site the rewrite finished: nothing kept it on v1, and no mark stands for it (a site moved to v2
 * whose behaviour differs, `includeEndpointBoundTemplates` not given, or whose error branch matches
 * v1's wording is marked, and audit reports it).
 */
function fullyMigrated(s: Site): boolean {
  return s.complete && !s.markedElsewhere && (!s.finding || s.finding.category === "auto");
}
