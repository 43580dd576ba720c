// The state of one analysis over a project: per-file text, edits, findings and marks, and the
// facts the do-no-harm check needs (which bases each site depends on, which uses were followed).
import type { Category, Edit, Finding, HelperSignature } from "../types.ts";
import { Node, type SourceFile } from "../ts-morph.ts";
import type { TypeScript } from "../ts-morph.ts";
import type { RouteReads } from "./relay-consumers.ts";
import type { ModuleResolver } from "./symbols.ts";
import { redact } from "../redact.ts";
import { Evaluator } from "./evaluate/evaluator.ts";
import { textEdit } from "./text-edit.ts";
import type { Redirect } from "./v1-redirect.ts";
import type { AdapterOptions } from "../adapter/index.ts";
import type { Problems } from "./rewrites/problems.ts";
import type { HttpCall } from "./transports/transport.ts";

export interface FileState {
  sf: SourceFile;
  /** Path written into findings. */
  display: string;
  text: string;
  lines: string[];
  quote: string;
  /** Edits applied whatever the do-no-harm check decides (TODO marks). */
  edits: Edit[];
  findings: Finding[];
  /** Marks this run wrote or confirmed: `line|mark`, so the audit of old marks does not count them twice. */
  emittedTodos: Set<string>;
  /** v1 base names this run declared in the file (`RUNPOD_V1_BASE`). */
  declared: Set<string>;
  /** Marks of this run per statement, by their text without a count. */
  marks: Map<Node, Map<string, Mark>>;
  /** Route literals the recall net reported as call sites it cannot follow (counted in the summary). */
  netSites?: number;
  /** The edits that write marks (all a held file gets). */
  markEdits: Set<Edit>;
  /** Lines (0-based) of marks this run removes as no longer true (stale-marks.ts): not read back. */
  staleMarks?: Set<number>;
}

/** A mark this run writes (edit) or finds already there (existing); `times` sites share it. */
export interface Mark {
  times: number;
  /** The problems of each site it stands for (mark-details.ts keeps them for later runs). */
  sites: Problems[];
  edit?: Edit;
  existing?: { start: number; end: number; text: string };
}

/** One v1 call site the engine planned (rewritten, or marked). */
export interface Site {
  call: Node;
  file: FileState;
  /** Base literals (or env defaults) the call's URL takes its v1 base from. */
  deps: Set<Node>;
  /** Edits of the rewrite, applied only when every base it depends on flips to v2. */
  edits: Edit[];
  /** Absent for a request helper's own transport call (its callers are the sites). */
  finding?: Finding;
  /** Whether every part of the site was rewritten (no mark). */
  complete: boolean;
  /** A call (or URL) that is left whole when marked: its rewrite edits are dropped, it keeps a v1 base. */
  whole?: boolean;
  /** How a marked call keeps its own v1 base when the base it shares flips (absent: the base cannot flip). */
  redirect?: Redirect;
  /** Runs when the site's edits are applied (a mark that is only true once they are). */
  onApply?: () => void;
  /** What a reader of the migrated site should know (a record now shown with v2 fields): in the finding's reason. */
  notes?: string[];
  /** The record reads the rewrite changes with the call (renamed, converted): listed in the details when the site is marked, since a user moving it to v2 by hand must change them too. */
  readChanges?: { reason: string; advice: string }[];
  /** A mark away from the call stands for it (an error branch matching v1's wording, error-wording.ts): the site is not counted as rewritten. */
  markedElsewhere?: boolean;
  /** Differences the migrated call keeps (plan.cautions): marked where the site settles, in one mark with any other. */
  cautions?: { reason: string; advice: string; brief?: string }[];
  /** Field declarations of the project's own types, and parameters of the project's functions, whose reads this site renames to v2 names. */
  typeRenames?: Set<Node>;
  /** The same migration through the adapter (the app keeps the v1 record), taken when a type it renames is shared with a v1-shaped record. */
  adapterRoute?: { edits: Edit[]; typeRenames: Set<Node> | undefined; onApply: (() => void) | undefined; uses: Node[] };
  /** The adapter converts its v2 record back to v1: what it hands on keeps v1 field names, as a call that stays v1. */
  keepsV1Record?: boolean;
  /** The schemas of the app's own validating its answer that the adapter hands the v1 form, or refused to with a reason of its own (rewrites/answer-schemas.ts). */
  adaptedSchemas?: Map<Node, "wrapped" | "refused">;
  /** The edits that close the `toV1List(…)` calls this site writes, where the list's v1 filters go (query-moves.ts). */
  adapterLists?: AdapterListClose[];
  /** Field declarations its v1 record is typed through where it leaves sight, and parameters it hands its record to (they must keep v1 reads while it stays v1). */
  typeUses?: Set<Node>;
  /** The call as read (its failure path is followed to the error reads it reaches). */
  http?: HttpCall;
  /** Why a marked call cannot be given a v1 base of its own through its helper (threaded-base.ts), when known. */
  noRedirect?: string;
  /** Set by do no harm when its rewrite lands: the call now talks to v2 (and fails with v2 problems). */
  applied?: boolean;
}

/** A v1 error-field read (`body.message`, `{ error }`) and the calls whose failure reaches it. */
export interface SharedErrorRead {
  node: Node;
  field: "message" | "error";
  /** A schema of the app's own validating the body (`ApiErrorSchema.safeParse(body)`, `node` the body): handed v2's problem as v1's message. */
  schema?: Node;
  sites: Set<Site>;
  /** Also reached by calls that are not v1 sites (a global interceptor, a wrapper other code uses): never v2-only. */
  foreign: boolean;
  /** The functions the body was handed to on its way (`fail(op, status, body)`): a call of one that no v1 call's failure reaches makes the read foreign. */
  through?: Set<Node>;
  /** Each call the body went through to the read, with the argument as written there. */
  hops?: { fn: Node; call: Node; arg: Node }[];
}

/** A v1 base string the run found: it flips to v2 only when all its uses are accounted for. */
export interface BaseSource {
  literal: Node;
  file: FileState;
  /** The edit that flips it (and, for an env default, the variable rename). */
  flip: Edit[];
  /** `process.env.X` when the base is the default of an environment variable. */
  env?: string;
  /** The base is a default given with `||` (an empty value falls through to it). */
  or?: boolean;
  /** SvelteKit's `$env` variable the base is the default of (`RUNPOD_API_BASE` of `$env/static/private`). */
  kitEnv?: string;
  /** The expression that overrides the base when set (`opts.baseUrl ?? DEFAULT`): its values are not seen. */
  override?: string;
  /** Where the override is written beside the base (`opts.baseUrl` of `opts.baseUrl ?? DEFAULT`), when not an environment read. */
  setBy?: Node[];
  /** The declared v1 base of marked calls (`RUNPOD_V1_BASE`): it never flips. */
  pinned?: boolean;
  /** Set for a base written inline in a request helper's URL: its uses are the helper's callers. */
  helper?: Node;
  /** The GitHub Action input whose action.yml default is this v1 base (action-inputs.ts): it flips with the base, renamed. */
  input?: ActionInput;
}

/** An action input whose action.yml default is the v1 base, and the edits that move it to v2 under a new name. */
export interface ActionInput {
  /** action.yml (absolute path), its text as read, and the line of the default. */
  file: string;
  text: string;
  line: number;
  name: string;
  renamed: string;
  /** In action.yml: the key renamed and the default made the v2 base (byte-exact, nothing else). */
  yaml: Edit[];
  /** In the sources: each `core.getInput("<name>")` reading it, renamed. */
  reads: Edit[];
}

export interface Analysis {
  files: Map<string, FileState>;
  /** SWR cache keys (`mutate(key)`) and the hook key each names: written as the hook's key is, once do no harm settles (swr-cache-keys.ts). */
  cacheKeys?: { cache: Node[]; hook: Node[] }[];
  resolve: ModuleResolver | undefined;
  sites: Site[];
  bases: Map<Node, BaseSource>;
  /** Reference nodes consumed by a planned site (URL parts, callees): followed uses. */
  accounted: Set<Node>;
  /** URL parts inside request helpers: followed only when every call of the helper is. */
  helperParts: Map<Node, Node[]>;
  /** Which base literal a resolved base part (identifier, member, `??`) comes from. */
  baseSource: Map<Node, Node>;
  /** The other v1 base literals a base part can hold (another caller's), beyond `baseSource`. */
  moreBaseSources: Map<Node, Node[]>;
  helperCache: Map<Node, HelperSignature | null>;
  wrapperCache: Map<Node, WrapperSignature | null>;
  baseCache: Map<Node, string | null>;
  consumed: Set<Node>;
  /** Files the run may not rewrite (read-only, or where its edits disagreed): no rewrite lands there, so nothing may depend on one. */
  frozen: Map<string, Frozen>;
  /** v1 route paths the recall net counted (recall-net.ts) → the files whose v1 bases they may be sent on: uses of those bases not followed. */
  netUses?: Map<Node, Set<string>>;
  /** Call sites and bases an earlier round held because their edits overlapped others (site-holds.ts). */
  holds?: Holds;
  /** Files imported by files the run could not analyse: their bases may be used unseen. */
  blocked: Map<string, string[]>;
  /** Files whose exports may be used where the run cannot see (an auto-import convention's users outside it). */
  unseenUses: Map<string, string[]>;
  /** Which strings and objects an expression can hold (one evaluator per analysis, memoised). */
  evaluator: Evaluator;
  /** A request helper → the base expression in its own URL (`${BASE}${path}`), for redirecting its marked calls. */
  helperAnchors: Map<Node, { node: Node; value: string }>;
  /** Shared redirect edits already applied (a helper's new base parameter). */
  sharedRedirects: Set<string>;
  /** The boundary adapter: where the module goes, and which variants the run used (absent: --no-adapter). */
  adapter?: { root: string; used: Map<string, AdapterOptions> };
  /** Every file of the run (sources and the app's pages), for what may read a field (project-reads.ts); absent for one file. */
  projectFiles?: string[];
  /** The bytes of files of the run the pre-filter read (project.ts): an ASCII file's text is taken from them, not read again. */
  projectBytes?: Map<string, Buffer>;
  /** Fields joined → the first file that may read one of them (null: none). */
  projectReaders?: Map<string, { file: string; read?: { field: string; line: number } } | null>;
  /** Per file of the run, read once: its text (null: unreadable) and the field names it reads. */
  projectFileReads?: Map<string, { text: string | null; reads?: Map<string, number>; sf?: TypeScript.SourceFile }>;
  /** A relay route (its path as shown) → what the code fetching it reads of its answer (relay-consumers.ts). */
  routeReads?: Map<string, RouteReads>;
  /** A type's name → the files the engine did not parse that name it, with their text (renamed-type-uses.ts). */
  typeMentions?: Map<string, { file: string; text: string }[]>;
  /** Package folder → the files its records may be read in (project-reads.ts). */
  projectScopes?: Map<string, string[]>;
  /** Base literal → what can override it at run time, as the evaluator found (an env variable, a caller's option). */
  overrides: Map<Node, Set<string>>;
  /** The run writes files beside the sources (an action's action.yml); a one-file run (jscodeshift) does not. */
  writesBeside?: boolean;
  /** Edits to files the engine does not parse (action.yml), by absolute path, with the text they were planned on. */
  besideEdits?: Map<string, { text: string; edits: Edit[] }>;
  /** A parameter that takes planned sites' records → where they are handed to it (calls, callback references). */
  readerEntries: Map<Node, Set<Node>>;
  /** A request helper → its own transport calls (their failure is its callers'). */
  helperTransports: Map<Node, HttpCall[]>;
  /** Error-field reads on the failure path of planned calls, settled after do no harm (error-reads.ts). */
  errorReads: Map<Node, SharedErrorRead>;
  /** got/ky hook entries on planned calls' failure path that the engine cannot read → the calls they serve (marked when one migrates). */
  unfollowedHooks: Map<Node, Set<Site>>;
  /** Function (or constructor) → its calls that planned calls' error bodies were handed through (handed-on.ts). */
  errorHops: Map<Node, Set<Node>>;
  /** A call handing planned calls' error bodies to a callee the engine cannot resolve → why, and the calls (marked if one migrates). */
  unfollowedErrorHands: Map<Node, { why: string; sites: Set<Site> }>;
}

/** What a round holds because its edits overlapped others: call sites and bases by `file:offset` (stable across rounds). */
export interface Holds {
  sites: Map<string, Frozen>;
  bases: Map<string, Frozen>;
}

/** Why a file may not be rewritten, what to do about it, and whether its marks may still be written. */
export interface Frozen {
  why: string;
  advice: string;
  /** The file is writable: the marks of its sites are written, nothing else. */
  marks?: boolean;
}

/** A function that forwards its URL (and init) argument to a transport: `fetchWithRetry(url, init)`. */
export interface WrapperSignature {
  kind: "wrapper";
  /** The wrapper and its own transport call (its request's headers are read there). */
  fn: Node;
  transport: Node;
  lib: "fetch" | "axios" | "got" | "ky" | "undici-request" | "openapi-fetch";
  urlIndex: number;
  optionsIndex?: number;
  /** Whether a call's awaited value is the parsed response body (`return res.json()`). */
  returnsBody: boolean;
  /** Whether it is the transport's own answer (`return fetch(url, init)`, `const res = await fetch(…); … return res`). */
  returnsResponse?: boolean;
  /** With no options parameter, what the wrapper's own request sends (wrapper-request.ts): its method, fixed or a parameter's, and its body parameter. */
  fixedMethod?: import("../../mappings/index.ts").HttpMethod;
  methodIndex?: number;
  defaultMethod?: import("../../mappings/index.ts").HttpMethod;
  methodUnknown?: boolean;
  bodyIndex?: number;
  serialisesBody?: boolean;
  bodyUnknown?: boolean;
}

export function newAnalysis(resolve: ModuleResolver | undefined): Analysis {
  return {
    files: new Map(),
    resolve,
    sites: [],
    bases: new Map(),
    accounted: new Set(),
    helperParts: new Map(),
    baseSource: new Map(),
    moreBaseSources: new Map(),
    helperCache: new Map(),
    wrapperCache: new Map(),
    baseCache: new Map(),
    consumed: new Set(),
    frozen: new Map(),
    blocked: new Map(),
    unseenUses: new Map(),
    evaluator: new Evaluator(resolve),
    overrides: new Map(),
    helperAnchors: new Map(),
    sharedRedirects: new Set(),
    readerEntries: new Map(),
    helperTransports: new Map(),
    errorReads: new Map(),
    unfollowedHooks: new Map(),
    errorHops: new Map(),
    unfollowedErrorHands: new Map(),
  };
}

export function addFile(a: Analysis, sf: SourceFile, display: string): FileState {
  const text = sf.getFullText();
  const firstString = sf.getFirstDescendant((n) => Node.isStringLiteral(n));
  const state: FileState = {
    sf,
    display,
    text,
    lines: text.split(/\r?\n/),
    quote: firstString ? firstString.getText()[0]! : '"',
    edits: [],
    findings: [],
    emittedTodos: new Set(),
    declared: new Set(),
    marks: new Map(),
    markEdits: new Set(),
  };
  a.files.set(sf.getFilePath(), state);
  return state;
}

export function fileOf(a: Analysis, node: Node): FileState {
  const f = a.files.get(node.getSourceFile().getFilePath());
  if (!f) throw new Error(`internal: ${node.getSourceFile().getFilePath()} is not part of the analysis`);
  return f;
}

/**
 * One site being planned, handed explicitly to every rewrite: its edits (applied only if its bases
 * flip), the facts it depends on, and the problems that become its one mark.
 */
/** A `toV1List` call's closing edit: `at` is the list read it wraps, `withFilters` its text given the filters. */
export interface AdapterListClose {
  edit: Edit;
  at: Node;
  withFilters: (filters: string) => string;
}

export interface Plan {
  readonly a: Analysis;
  readonly site: Site;
  readonly problems: Problems;
  /** Differences the call keeps however it is sent (the gateway answers a v1 call the same): marked, yet migrated. */
  readonly cautions: Problems;
}

export function planFor(a: Analysis, site: Site, problems: Problems = []): Plan {
  return { a, site, problems, cautions: [] };
}

/**
 * An edit of the site being planned, in `at`'s file (its positions are that file's): applied only
 * when the do-no-harm check lets the site flip. An edit made elsewhere keeps its own file: siteEdits.
 */
export function edit(p: Plan, at: Node, e: { start: number; end: number; text: string; file?: never }): void {
  heldEdit(p, at, e);
}

/** `edit`, returning the edit made: a later pass of the same site may still write its text (query-moves.ts). */
export function heldEdit(p: Plan, at: Node, e: { start: number; end: number; text: string; file?: never }): Edit {
  const made = textEdit(at, e.start, e.end, e.text);
  p.site.edits.push(made);
  return made;
}

/** Edits of the site being planned that were made from their own nodes (a URL's literals, in any file). */
export function siteEdits(p: Plan, edits: Edit[]): void {
  p.site.edits.push(...edits);
}

/** Adds an edit to the file it names (never to another: its positions are that file's). */
export function addEdit(a: Analysis, e: Edit): void {
  const file = a.files.get(e.file);
  if (!file) throw new Error(`internal: an edit names ${e.file}, which is not part of the analysis`);
  file.edits.push(e);
}

export function quoteOf(a: Analysis, at: Node): string {
  return fileOf(a, at).quote;
}

export function q(a: Analysis, at: Node, s: string): string {
  const quote = quoteOf(a, at);
  return quote + s + quote;
}

/** A finding at a node (snippet: the line, secrets redacted). */
export function makeFinding(a: Analysis, at: Node, f: Omit<Finding, "file" | "line" | "column" | "snippet">): Finding {
  const file = fileOf(a, at);
  const pos = file.sf.getLineAndColumnAtPos(at.getStart());
  return { file: file.display, line: pos.line, column: pos.column, snippet: redact((file.lines[pos.line - 1] ?? "").trim()), ...f };
}

export function addFinding(a: Analysis, at: Node, f: Omit<Finding, "file" | "line" | "column" | "snippet">): Finding {
  const finding = makeFinding(a, at, f);
  fileOf(a, at).findings.push(finding);
  return finding;
}

export type { Category };
