// Shapes shared by the codemod engine, the project runner, the CLI commands and the reports.
import type { AuditFinding, Category as AuditCategory } from "../formats/audit.ts";

export type Category = AuditCategory;

/**
 * One v1 usage found in a file (the audit prints these; rewrite counts them). Its shape is the audit
 * JSON's finding, defined once in formats/audit.ts: `file` is relative to the run's root (set by the
 * project runner; the engine uses the file name it was given); `operation` is the mapping key, or
 * null when only the base URL is known.
 */
export type Finding = AuditFinding;

/**
 * A text edit on the original source: replace [start, end) with text. Insertions have start === end.
 * It names its file and the text it replaces as the planner saw it: applying refuses an edit made
 * for another file, or whose range no longer holds that text (engine/apply-edits.ts).
 */
export interface Edit {
  start: number;
  end: number;
  text: string;
  /** Absolute path of the file the edit applies to. */
  file: string;
  /** The text of [start, end) when the edit was planned ("" for an insertion). */
  old: string;
  /**
   * The edit changes the value of a shorthand property (`{ body }`): applying it writes the key
   * once at `at` (`body: …`), however many edits wrap or replace that value (apply-edits.ts).
   */
  shorthand?: { at: number; key: string };
  /**
   * The edit's text holds a copy of the file's text at [start, end) (a base moved into a parameter's
   * default): the other edits planned inside that range are applied to the copy too (apply-edits.ts).
   */
  copies?: { start: number; end: number };
  /**
   * An import line: among insertions at one position it goes first, so that a declaration written
   * after a file's imports (a kept v1 base, a converted read's helper) follows the import it may use.
   */
  import?: true;
}

/**
 * A project's own request helper whose path parameter reaches an HTTP call on the v1 base:
 * `request(path, method, body)` (positional) or `api(path, { method, body })` (options).
 */
export interface HelperSignature {
  kind: "helper";
  /** The v1 base the helper joins its path to. */
  base: string;
  /** The helper joins the path with `new URL(path, base)`: a caller's absolute path drops the base's /v1. */
  urlJoin?: boolean;
  /** The helper sends a full URL it is given as it is (`path.startsWith("http") ? path : base + path`). */
  fullUrl?: boolean;
  pathIndex: number;
  methodIndex?: number;
  bodyIndex?: number;
  optionsIndex?: number;
  /** Set when the path is a property of an options argument (`request({ path, method })`): its key. */
  pathKey?: string;
  /** The options argument is the library's whole request config (`call(config) => api.request(config)`): one built elsewhere is the call's URL, unread. */
  configForm?: boolean;
  /** Keys of the method and body in the options argument (default `method` / `body`). */
  methodKey?: string;
  bodyKey?: string;
  /** Option keys the helper builds its body from (`json` it serialises, `body` it passes on). */
  bodyKeys?: { key: string; serialised: boolean }[];
  /** Option keys the helper sends as the URL's query (`q(path, opts.query)`): a call's query parameters are read there. */
  queryKeys?: string[];
  /** The argument the helper serialises whole as the URL's query (`request(method, path, query)`). */
  queryIndex?: number;
  /** The helper's own query, where following it to its names stopped (no caller gives it). */
  queryUnfollowed?: import("./ts-morph.ts").Node;
  /** The parameters that unfollowed query is read from: a call giving none of them sends none of it. */
  queryUnfollowedFrom?: number[];
  /** Set when the helper sends no request body at all (a v2 body cannot be passed through it). */
  dropsBody?: boolean;
  /** The body the helper builds around a parameter (`{ ...data, source }`), shortened: a caller's v1 body cannot be converted through it. */
  bodyBuiltFrom?: string;
  /** Literal text the helper puts between its base and the path argument (`${BASE}/${kind}` → "/"). */
  pathPrefix?: string;
  /** The path parameter's declared type, when narrower than string (`kind: Kind`): its values cannot change at a call site. */
  pathType?: string;
  /** The method when the call passes none: the method parameter's default, or the one the helper fixes. */
  defaultMethod?: string;
  /** Why no call can know the method: the helper sends one it reads from elsewhere (`method: options.writeVerb`). */
  methodUnknown?: string;
  /** Whether the helper fixes the method itself (call sites cannot change it). */
  fixedMethod?: boolean;
  /** Whether a `method` in the caller's options reaches the transport over the helper's own (options-method.ts); unset: not followed. */
  optionsMethod?: { reaches: boolean; at?: import("./ts-morph.ts").Node };
  /** Whether a call's awaited value is the parsed response body (the helper returns `res.json()` / `res.data`). */
  returnsBody: boolean;
  /** Whether a call's awaited value is the transport's own answer (fetch's Response, axios's response): callers read it as that library's. */
  returnsResponse?: boolean;
  /** The helper returns its transport's Observable as it is: what it emits (its callers' values are followed as the transport's: engine/observable-flow.ts). */
  observable?: "body" | "response" | "unknown";
  /** With `returnsResponse`: whose answer it is (fetch's when absent): axios's is read by `.data`. */
  answerLib?: "fetch" | "axios" | "superagent";
  /** The helper returns its own result object with the parsed body under this key (`{ ok, detail, corps }`). */
  resultBodyKey?: string;
  /** With `resultBodyKey`: the result's boolean member and the value that says the body is there (`ok: true`), where the result has one. */
  resultSuccess?: { key: string; value: boolean };
  /** The helper returns an array (a tuple) with the parsed body at this index (`[error, body]`). */
  resultBodyIndex?: number;
  /** The helper validates the body it returns with the schema its caller gives at this argument (`rp(PodSchema, path)`). */
  schemaIndex?: number;
  /** The helper validates the body it returns with a schema of its own (a ts-morph Node). */
  schema?: unknown;
  /** The helper returns the parsed body wrapped by a call (`ok(body)`, a Result's constructor): that call's callee, named in the mark. */
  resultWrapper?: string;
  /** Whether the helper serialises the body itself (call sites pass plain objects). */
  serialisesBody: boolean;
  /** The helper's own transport call (its request's headers are read there: engine/request-headers.ts). */
  transport?: unknown;
  /** A method whose transport is reached through `this.<key>` (`this.instance.get(url)`): each call's base is its receiver's. */
  receiverKey?: string;
  /** The helper function itself (its callers are the sites; its base flips only when all are followed). */
  fn?: unknown;
  /** The base literal the helper's URL takes its v1 base from (absent for an inline base). */
  baseSource?: unknown;
  /** Every v1 base literal the helper's base can hold (the first is `baseSource`). */
  baseSources?: unknown[];
}

export interface FileAnalysis {
  findings: Finding[];
  edits: Edit[];
  /** The rewritten source (equal to the input when nothing changes). */
  output: string;
  /** Set when the file does not parse: it is reported and left alone. */
  parseError?: string;
  /** Number of v1 call sites found (HTTP calls and helper calls on v1 paths). */
  callSites: number;
  /** Call sites rewritten completely (no TODO left). */
  rewritten: number;
  /** The marks in the file as written, with each marked site's problems (codemod/mark-details.ts). */
  marks?: MarkDetail[];
}

/** One mark in a file: its line (as todo-marks.ts `markKey` compares it) and every problem of each site it stands for (×N: N sites). */
export interface MarkDetail {
  mark: string;
  sites: { reason: string; advice: string }[][];
}
