// Public surface of the report: load inputs, join them with the mapping table, render HTML.
// The CLI (`v2-bridge report`) and the gateway's live page (`GET /_bridge/`) both come here.
import { exportTable } from "../mappings/index.ts";
import { buildReport, type JoinOptions } from "./join.ts";
import { isSafeHref } from "./escape.ts";
import { loadAudits, loadTraffic, ReportInputError, type RedisUsageReaderLoader } from "../formats/read-inputs.ts";
import { renderReportHtml, type RenderOptions } from "./render-html.ts";
import type { Audit, ReportModel, TableOperation, Usage } from "./types.ts";

export { buildReport, siteHref, UNIDENTIFIED } from "./join.ts";
export { renderReportHtml } from "./render-html.ts";
export { burndownSvg } from "./burndown-svg.ts";
export { escapeHtml } from "./escape.ts";
export {
  ReportInputError,
  loadAudit,
  loadAudits,
  loadTraffic,
  loadUsageFile,
  fetchUsage,
  parseAudit,
  parseUsage,
  usageUrl,
  type RedisUsageReader,
  type RedisUsageReaderLoader,
} from "../formats/read-inputs.ts";
export { Audit as auditSchema } from "../formats/audit.ts";
export { UsageSnapshot as usageSchema } from "../formats/usage.ts";
export { checkAudit, checkUsage } from "../formats/validate.ts";
export type * from "./types.ts";

/** The mapping table as the report reads it. */
export function mappingTable(): TableOperation[] {
  return exportTable();
}

export interface ReportPageInput extends JoinOptions, RenderOptions {
  audits?: readonly Audit[];
  usage?: Usage | null;
  /** Defaults to the live mapping table. */
  table?: readonly TableOperation[];
}

/** Model + HTML from inputs already in memory (the gateway's live page calls this). */
export function renderReportPage(input: ReportPageInput): { model: ReportModel; html: string } {
  const model = buildReport(input.table ?? mappingTable(), input.audits ?? [], input.usage ?? null, input);
  return { model, html: renderReportHtml(model, input) };
}

export interface GenerateReportOptions extends JoinOptions, RenderOptions {
  /** Audit JSON files (any order; sorted by generatedAt). */
  code?: string[];
  /** Gateway base URL or usage JSON file. */
  traffic?: string;
  /** Bearer token for a gateway whose operator pages need one (--admin-token). */
  trafficToken?: string;
  /** How to read a redis:// traffic source (the CLI hands in the gateway's reader). */
  redisReader?: RedisUsageReaderLoader;
}

/** A traffic source as the page may print it: a URL's password never reaches the HTML. */
function displaySource(source: string): string {
  try {
    const url = new URL(source);
    if (url.password) url.password = "***";
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? url.toString() : source;
  } catch {
    return source;
  }
}

/** A link option that would not pass the links' check is an input error, not a link silently dropped. */
function refuseUnsafeLink(flag: string, href: string | undefined): void {
  if (href === undefined || isSafeHref(href)) return;
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1];
  const what = scheme ? `a ${scheme.toLowerCase()}: URL` : "not an absolute URL";
  throw new ReportInputError(`${flag} must be an http://, https:// or file:// URL; the one given is ${what}, refused`);
}

/** Loads and validates the inputs (ReportInputError on bad input), then renders. */
export async function generateReport(options: GenerateReportOptions): Promise<{ model: ReportModel; html: string }> {
  refuseUnsafeLink("--mapping-href", options.mappingDocHref);
  refuseUnsafeLink("--link-base", options.linkBase);
  const [audits, usage] = await Promise.all([
    loadAudits(options.code ?? []),
    options.traffic ? loadTraffic(options.traffic, { token: options.trafficToken, redisReader: options.redisReader }) : Promise.resolve(null),
  ]);
  return renderReportPage({ ...options, audits, usage, trafficSource: options.traffic && displaySource(options.traffic) });
}
