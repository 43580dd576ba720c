// Readers of the audit and usage formats: static audits from files, gateway usage from a file, a
// running gateway (`<url>/_bridge/usage`) or the gateways' Redis store. Every failure is a
// ReportInputError with a message that names the input and what is wrong; the CLI turns it into
// exit code 2. Nothing here imports the gateway: the Redis reader is handed in (RedisUsageReader).
import { readFile } from "node:fs/promises";
import type { Audit } from "./audit.ts";
import type { UsageSnapshot as Usage } from "./usage.ts";
import { checkAudit, checkUsage } from "./validate.ts";

export class ReportInputError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "ReportInputError";
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ReportInputError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ReportInputError(`cannot read ${what}: ${code === "ENOENT" ? "no such file" : (err as Error).message}`);
  }
}

/** Validates parsed audit JSON; `what` names it in errors. */
export function parseAudit(data: unknown, what = "audit"): Audit {
  const check = checkAudit(data);
  if (!check.ok) {
    throw new ReportInputError(
      `${what} is not a v2-bridge audit (expected the output of \`v2-bridge audit --format json\`):\n  ${check.errors.join("\n  ")}`,
    );
  }
  return data as Audit;
}

/** Validates parsed usage JSON; `what` names it in errors. */
export function parseUsage(data: unknown, what = "usage"): Usage {
  const check = checkUsage(data);
  if (!check.ok) {
    throw new ReportInputError(
      `${what} is not a gateway usage snapshot (expected the JSON of GET /_bridge/usage):\n  ${check.errors.join("\n  ")}`,
    );
  }
  return data as Usage;
}

export async function loadAudit(file: string): Promise<Audit> {
  const what = `audit file ${file}`;
  return parseAudit(parseJson(await readText(file, what), what), what);
}

/** Audits oldest first (by generatedAt); the order of the files on the command line does not matter. */
export async function loadAudits(files: string[]): Promise<Audit[]> {
  const audits = await Promise.all(files.map(loadAudit));
  return audits.sort((a, b) => Date.parse(a.generatedAt) - Date.parse(b.generatedAt));
}

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** `http://host:port` or `…/_bridge` or `…/_bridge/usage` → the usage endpoint. */
export function usageUrl(base: string): string {
  const url = new URL(base);
  let p = url.pathname.replace(/\/+$/, "");
  if (p.endsWith("/_bridge/usage")) p = p.slice(0, -"/_bridge/usage".length);
  else if (p.endsWith("/_bridge")) p = p.slice(0, -"/_bridge".length);
  url.pathname = `${p}/_bridge/usage`;
  url.search = "";
  url.hash = "";
  return url.toString();
}

/** Why a gateway refused the usage page, in words an operator can act on. */
function refusalHint(status: number, token: string | undefined): string {
  if (status === 401) return token ? " (the admin token was not accepted)" : " (this gateway's operator pages need a token: --traffic-token or V2_BRIDGE_ADMIN_TOKEN)";
  if (status === 404) return " (the operator pages are served on the gateway's admin port, --admin-port: point --traffic there)";
  return "";
}

export async function fetchUsage(base: string, timeoutMs = 10_000, token?: string): Promise<Usage> {
  let target: string;
  try {
    target = usageUrl(base);
  } catch {
    throw new ReportInputError(`--traffic ${base} is not a valid URL`);
  }
  let res: Response;
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    res = await fetch(target, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new ReportInputError(`cannot fetch gateway usage from ${target}: ${why}`);
  }
  const text = await res.text();
  if (!res.ok) {
    throw new ReportInputError(`gateway usage at ${target} answered HTTP ${res.status}${refusalHint(res.status, token)}: ${text.slice(0, 200)}`);
  }
  const what = `gateway usage from ${target}`;
  return parseUsage(parseJson(text, what), what);
}

export async function loadUsageFile(file: string): Promise<Usage> {
  const what = `usage file ${file}`;
  return parseUsage(parseJson(await readText(file, what), what), what);
}

/** Reads the gateways' shared Redis store; the gateway's own reader (gateway/usage/usage-redis.ts) fits. */
export interface RedisUsageReader {
  readUsageFromRedis(url: string): Promise<unknown>;
  /** The URL without its password, for messages. */
  displayRedisUrl(url: string): string;
}

/** Loaded on demand: reading files or a gateway URL needs no Redis client. */
export type RedisUsageReaderLoader = () => Promise<RedisUsageReader>;

/** The fleet's usage from the gateways' shared Redis store (`--usage-store redis://…`). */
export async function loadRedisUsage(url: string, loadReader?: RedisUsageReaderLoader): Promise<Usage> {
  if (!loadReader) throw new ReportInputError("a redis:// usage store is read by the v2-bridge CLI (this caller gave no Redis reader)");
  const { readUsageFromRedis, displayRedisUrl } = await loadReader();
  const what = `gateway usage in ${displayRedisUrl(url)}`;
  let data: unknown;
  try {
    data = await readUsageFromRedis(url);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    throw new ReportInputError(`cannot read ${what}: ${e.code ?? e.message}`);
  }
  return parseUsage(data, what);
}

/** `--traffic`: a gateway URL (http/https; its admin listener, with the admin token if it needs one), a redis:// usage store, or a usage JSON file. */
export async function loadTraffic(source: string, options: { token?: string; redisReader?: RedisUsageReaderLoader } = {}): Promise<Usage> {
  if (/^rediss?:\/\//i.test(source)) return loadRedisUsage(source, options.redisReader);
  return isUrl(source) ? fetchUsage(source, undefined, options.token) : loadUsageFile(source);
}
