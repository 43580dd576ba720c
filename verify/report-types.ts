// The verify report: what `--format json` prints and what the text report is rendered from.

/** Where in the client's code a call was made: the innermost frame of the project, and its callers. */
export type Site = {
  /** Relative to the tree the run used (absolute when outside it). */
  file: string;
  line: number;
  column: number;
  fn?: string;
  /** The frames around it, innermost first, as "file:line (fn)". */
  chain: string[];
};

/** One v2 operation as a run made it. */
export type StepView = {
  /** Position among the run's operations (1-based). */
  index: number;
  /** operationId of the v2 document (with the action, for pod actions), else "METHOD /route". */
  operation: string;
  method: string;
  /** The concrete path, ids replaced by labels (pod#1). */
  path: string;
  status: number;
  /** Which host the client called: v1 (through the gateway) or v2 (directly). */
  api: "v1" | "v2" | "unknown";
  /** The door the client's call went through (fetch, undici, http/https), when the preload saw it. */
  via?: "fetch" | "undici" | "http";
  site: Site | null;
};

export type DifferenceKind =
  | "divergence"
  | "status"
  | "changed"
  | "missing"
  | "extra"
  | "body"
  | "record"
  | "exit-code"
  | "output"
  | "gateway-only"
  | "v1-left"
  | "auth"
  | "no-calls";

export type Difference = {
  kind: DifferenceKind;
  /** A difference makes the runs different; a note is worth reading and changes nothing. */
  severity: "difference" | "note";
  message: string;
  before?: StepView;
  after?: StepView;
  /** Field-level detail (request bodies, records, output lines), already free of keys and secrets. */
  details?: string[];
};

export type RunSummary = {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** Node processes the preload reached. */
  processes: number;
  /** Calls the client made to the API hosts, by host. */
  calls: { v1: number; v2: number };
  /** v2 requests that reached the sandbox (the gateway's included). */
  v2Requests: number;
  /** v2 operations compared (one per client call, one per write). */
  operations: number;
  /** The end of stderr, when the command failed. */
  stderrTail?: string;
  /** Every operation compared, in order (JSON only). */
  trace: StepView[];
};

export type Coverage = {
  /** v2 operations made, with how often in each run. */
  operations: { operation: string; before: number; after: number }[];
  /** v1 operations the original client called (through the gateway). */
  v1Operations: { operation: string; calls: number }[];
  /** Call sites the codemod found in the original tree that no call of the before run went through. */
  neverExercised: { file: string; line: number; operation: string }[];
  /** How many of the codemod's call sites the before run went through. */
  sitesExercised: number;
  sitesFound: number;
};

export type Verdict = "equivalent" | "different" | "no-calls" | "error";

export type VerifyReport = {
  tool: "v2-bridge";
  kind: "verify";
  version: 1;
  toolVersion: string;
  verdict: Verdict;
  command: string[];
  root: string;
  after: { dir: string; how: "rewrite" | "dir" | "ref"; filesChanged?: number; leftForReview?: number };
  seed: string;
  hosts: { v1: string; v2: string };
  runs: { before: RunSummary; after: RunSummary };
  /** The first place the runs part ways, if they do. */
  divergence: Difference | null;
  differences: Difference[];
  notes: Difference[];
  coverage: Coverage;
  /** What verify cannot see. */
  scope: string;
  error?: string;
};

export const SCOPE =
  "Only Node.js processes are redirected (the preload reaches fetch, undici, http/https and the libraries on them: axios, got, node-fetch, ky). " +
  "Non-Node clients (Python, Go, curl, a browser) are out of scope for now: their calls are neither redirected nor compared.";

export function exitCodeOf(verdict: Verdict): number {
  return verdict === "equivalent" ? 0 : verdict === "different" ? 1 : 2;
}
