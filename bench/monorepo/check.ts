// The audit's findings against the planted sites, site by site (file, line, operation).
import type { PlantedSite } from "./client.ts";

export interface FindingLike {
  file: string;
  line: number;
  operation: string | null;
  reason?: string;
}

export interface SiteCheck {
  expected: number;
  /** Planted sites the audit reported. */
  found: number;
  missing: string[];
  /** Findings with an operation that no planted site accounts for. */
  unexpected: string[];
  /** Findings without an operation (a v1 base kept, a file not read): listed, not counted as sites. */
  other: string[];
}

const key = (s: { file: string; line: number; operation: string | null }) => `${s.file}:${s.line} ${s.operation}`;

export function checkSites(findings: readonly FindingLike[], planted: readonly PlantedSite[]): SiteCheck {
  const want = new Set(planted.map(key));
  const sites = findings.filter((f) => f.operation !== null);
  const got = new Set(sites.map(key));
  return {
    expected: want.size,
    found: [...want].filter((k) => got.has(k)).length,
    missing: [...want].filter((k) => !got.has(k)),
    unexpected: [...got].filter((k) => !want.has(k)),
    other: findings.filter((f) => f.operation === null).map((f) => `${f.file}:${f.line} ${f.reason ?? ""}`.trim()),
  };
}
