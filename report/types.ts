// Shapes of the report's inputs (defined once, as schemas, in formats/) and of the joined model
// that the HTML renderer draws.

import type { Category } from "../formats/audit.ts";

// The inputs' shapes come from their schemas (formats/): one definition each.
export { CATEGORIES } from "../formats/audit.ts";
export type { Audit, AuditFinding, Category } from "../formats/audit.ts";
export type { UsageClient, UsageDrop, UsageOperation, UsageSnapshot as Usage } from "../formats/usage.ts";

/** A v1 or v2 route in the joined model (from the mapping table, an audit or usage). */
export interface Route {
  method: string;
  path: string;
}

/** The slice of a mapping-table operation the report needs (exportTable() rows fit). */
export interface TableOperation {
  key: string;
  summary: string;
  v1: Route;
  v2: Route | null;
  status: "mapped" | "emulated" | "no-equivalent";
  decision?: { policy: string; message: string; advice: string } | null;
}

// ── joined model ───────────────────────────────────────────────────────────

export interface CallSite {
  file: string;
  line: number;
  column: number;
  category: Category;
  reason: string;
  advice: string;
  snippet: string;
  /** Where the link points (file:// under the audit root, or under --link-base). */
  href: string | null;
}

export interface TrafficCell {
  count: number;
  clients: number;
  firstSeen: string;
  lastSeen: string;
  statuses: Record<string, number>;
}

export interface OperationRow {
  /** Mapping key; for call sites the audit could not attribute, the pseudo key `(unidentified)` (base URLs, v1 host strings, unresolved paths). */
  key: string;
  /** False when the key is not in the mapping table (or is the unidentified bucket). */
  known: boolean;
  summary: string;
  v1: Route | null;
  v2: Route | null;
  status: TableOperation["status"] | "unknown";
  decision: { policy: string; message: string; advice: string } | null;
  code: Record<Category, number> & { total: number };
  sites: CallSite[];
  traffic: TrafficCell | null;
  /** Fingerprints of the listed clients (usage snapshot's client list) that still call this operation. */
  clientFingerprints: string[];
  /** Listed clients calling it: distinct (fingerprint, user agent) pairs, as the gateway counts clients. */
  listedClients: number;
}

export interface ClientRow {
  fingerprint: string;
  /** The gateway's fingerprint for requests without an API key. */
  anonymous: boolean;
  userAgent: string | null;
  count: number;
  firstSeen: string;
  lastSeen: string;
  operations: { key: string; known: boolean; noEquivalent: boolean; count: number; lastSeen: string }[];
}

/** One item of the "needs a decision" list at the top of the page. */
export interface AttentionItem {
  key: string;
  v1: Route | null;
  title: string;
  message: string;
  advice: string;
  codeSites: number;
  liveCalls: number;
  liveClients: number;
  sites: CallSite[];
}

export interface BurndownPoint {
  generatedAt: string;
  total: number;
  byCategory: Record<Category, number>;
  label: string;
}

export interface ReportModel {
  generatedAt: string;
  code: {
    /** Audits given, oldest first. The latest is the current state of the code. */
    audits: { generatedAt: string; root: string; files: number; filesWithFindings: number; findings: number }[];
    latest: { generatedAt: string; root: string; files: number; filesWithFindings: number } | null;
  };
  traffic: { generatedAt: string; since: string; source: string | null } | null;
  totals: {
    codeSites: number;
    byCategory: Record<Category, number>;
    liveRequests: number;
    liveClients: number;
    evictedClients: number;
    /** Operations of the mapping table with code sites or live calls left. */
    tableOperations: number;
    operationsInUse: number;
    operationsInCode: number;
    operationsInTraffic: number;
  };
  attention: AttentionItem[];
  operations: OperationRow[];
  /** Mapping-table operations with neither code sites nor live calls (done, or never used). */
  clearOperations: { key: string; v1: Route; status: TableOperation["status"] }[];
  clients: ClientRow[];
  burndown: BurndownPoint[];
  /** What clients send that v2 drops, per operation and v1 input (from the gateway's usage). */
  drops: DropRow[];
  notes: string[];
}

export interface DropRow {
  key: string;
  v1: Route | null;
  field: string;
  count: number;
  clients: number;
  /** Fingerprints of the listed clients that sent it. */
  clientFingerprints: string[];
}
