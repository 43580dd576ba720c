// Gateway configuration: defaults, flags and environment variables (V2_BRIDGE_*), validation.
// One place answers "what can be configured and how?"; the CLI's options (flags, variables, --help)
// are built from CONFIG_FIELDS by cli/gateway-options.ts.

import { V2_ORIGIN } from "../mappings/bases.ts";
import { LIMIT_FIELDS, LIMIT_KEYS, resolveLimits, type LimitOptions, type Limits } from "./limits/limits.ts";

export type ResetPolicy = "reject" | "restart";

export interface GatewayOptions extends LimitOptions {
  /** Listen port (0 = any free port). */
  port?: number;
  host?: string;
  /** Upstream v2 origin, e.g. https://api.runpod.io. Required by startGateway (the CLI starts a sandbox when absent). */
  upstream?: string;
  /** Public v2 base used in `Link: rel="successor-version"` headers. */
  publicV2Base?: string;
  /** Upstream timeout (connect + headers + body) in milliseconds. */
  timeoutMs?: number;
  /** Largest accepted v1 request body in bytes. */
  bodyLimit?: number;
  /** What v1 `POST /pods/{podId}/reset` does: a v1 400 (default) or the v2 restart action. */
  resetPolicy?: ResetPolicy;
  /** Directory holding v1-openapi.json (served at /v1/openapi.json, used to validate v1 input); false: none. */
  referenceDir?: string | false;
  /** Salt for API-key fingerprints (default: from the state directory; random per process without one). */
  fingerprintSalt?: string;
  /** Usage audit bounds. */
  maxClients?: number;
  maxOperationsPerClient?: number;
  /** Catalog cache bounds (entries = API keys) and freshness. */
  catalogMaxKeys?: number;
  catalogTtlMs?: number;
  /** Upstream connection pool size. */
  connections?: number;
  /** Static audit JSON (`v2-bridge audit --format json`) shown beside live traffic at GET /_bridge/; re-read on each view. */
  auditFile?: string;
  /** Refuse (v1 400 naming the field) every v1 input v2 would drop, instead of warning. */
  strict?: boolean;
  /** Fastify/pino logger: false (default in code), true, or a pino options object. */
  logger?: boolean | Record<string, unknown>;
  /** Operator pages (/_bridge/usage, /_bridge/metrics, /_bridge/) listen here: default port + 1 (any free port when port is 0). */
  adminPort?: number;
  /** Admin listener address (default 127.0.0.1: reachable from this host only). */
  adminHost?: string;
  /** Also serve the operator pages on the public listener; requires adminToken. */
  adminOnPublic?: boolean;
  /** Bearer token the operator pages require (on every listener) when set. */
  adminToken?: string;
  /** Directory for state that outlives the process: the fingerprint salt (unless given) and the local usage store. */
  stateDir?: string;
  /** `memory`, `file` (the state directory; default when there is one) or `redis://host:port` (shared by replicas). */
  usageStore?: string;
  /** How often usage is saved (file) or sent (redis), in ms. */
  usageFlushMs?: number;
  /** Test hook: called for every upstream request the gateway makes. */
  onUpstreamRequest?: (req: { method: string; path: string; headers: Record<string, string>; body?: string }) => void;
}

export interface GatewayConfig extends Limits {
  port: number;
  host: string;
  upstream: URL;
  publicV2Base: string;
  timeoutMs: number;
  bodyLimit: number;
  resetPolicy: ResetPolicy;
  referenceDir?: string | false;
  fingerprintSalt: string;
  maxClients: number;
  maxOperationsPerClient: number;
  catalogMaxKeys: number;
  catalogTtlMs: number;
  connections: number;
  auditFile?: string;
  /** --strict: every v1 input v2 would drop is refused with a v1 400 naming it. */
  strict: boolean;
  logger: boolean | Record<string, unknown>;
  onUpstreamRequest?: GatewayOptions["onUpstreamRequest"];
  adminPort: number;
  adminHost: string;
  adminOnPublic: boolean;
  adminToken?: string;
  stateDir?: string;
  /** "memory", "file" or a redis:// URL. */
  usageStore: string;
  usageFlushMs: number;
}

export const DEFAULTS = {
  port: 8080,
  host: "127.0.0.1",
  publicV2Base: V2_ORIGIN,
  timeoutMs: 30_000,
  bodyLimit: 1_048_576,
  resetPolicy: "reject" as ResetPolicy,
  maxClients: 1_000,
  maxOperationsPerClient: 64,
  catalogMaxKeys: 500,
  catalogTtlMs: 60_000,
  connections: 64,
  adminHost: "127.0.0.1",
  usageFlushMs: 5_000,
  /** The CLI's state directory when none is given (resolved against the working directory). */
  stateDir: ".v2-bridge",
};

/** Shortest admin token accepted: a guessable token on a public port is no protection. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** Every setting with its CLI flag and environment variable (the CLI help lists these). */
export const CONFIG_FIELDS: { key: keyof GatewayOptions; flag: string; env: string; help: string }[] = [
  { key: "port", flag: "--port <n>", env: "V2_BRIDGE_PORT", help: `listen port (default ${DEFAULTS.port})` },
  { key: "host", flag: "--host <addr>", env: "V2_BRIDGE_HOST", help: `listen address (default ${DEFAULTS.host})` },
  { key: "upstream", flag: "--upstream <url>", env: "V2_BRIDGE_UPSTREAM", help: "v2 origin to front, e.g. https://api.runpod.io (default: start the embedded sandbox)" },
  { key: "publicV2Base", flag: "--public-v2-base <url>", env: "V2_BRIDGE_PUBLIC_V2_BASE", help: `v2 base named in Link: rel="successor-version" (default ${DEFAULTS.publicV2Base})` },
  { key: "timeoutMs", flag: "--timeout <ms>", env: "V2_BRIDGE_TIMEOUT_MS", help: `upstream timeout in ms; v1 504 after it (default ${DEFAULTS.timeoutMs})` },
  { key: "bodyLimit", flag: "--body-limit <bytes>", env: "V2_BRIDGE_BODY_LIMIT", help: `largest v1 request body; v1 413 above it (default ${DEFAULTS.bodyLimit})` },
  { key: "resetPolicy", flag: "--reset-policy <policy>", env: "V2_BRIDGE_RESET_POLICY", help: "v1 pod reset: reject (v1 400, default) or restart (send the v2 restart action)" },
  { key: "referenceDir", flag: "--reference-dir <dir>", env: "V2_BRIDGE_REFERENCE_DIR", help: "directory with v1-openapi.json / v2-openapi.json (default: the user cache filled by `v2-bridge reference fetch`, else ../shared/reference beside a checkout)" },
  { key: "fingerprintSalt", flag: "--fingerprint-salt <salt>", env: "V2_BRIDGE_FINGERPRINT_SALT", help: "salt for API-key fingerprints in the usage audit; the same on every replica (default: kept in the state directory; random per process without one)" },
  { key: "maxClients", flag: "--max-clients <n>", env: "V2_BRIDGE_MAX_CLIENTS", help: `clients kept by the usage audit, LRU-evicted (default ${DEFAULTS.maxClients})` },
  { key: "maxOperationsPerClient", flag: "--max-operations-per-client <n>", env: "V2_BRIDGE_MAX_OPERATIONS_PER_CLIENT", help: `operations kept per client (default ${DEFAULTS.maxOperationsPerClient})` },
  { key: "catalogMaxKeys", flag: "--catalog-max-keys <n>", env: "V2_BRIDGE_CATALOG_MAX_KEYS", help: `API keys whose GPU catalog is cached (default ${DEFAULTS.catalogMaxKeys})` },
  { key: "catalogTtlMs", flag: "--catalog-ttl <ms>", env: "V2_BRIDGE_CATALOG_TTL_MS", help: `catalog cache freshness in ms (default ${DEFAULTS.catalogTtlMs})` },
  { key: "connections", flag: "--connections <n>", env: "V2_BRIDGE_CONNECTIONS", help: `upstream connection pool size (default ${DEFAULTS.connections})` },
  { key: "strict", flag: "--strict", env: "V2_BRIDGE_STRICT", help: "refuse (v1 400 naming the field) every v1 field or query parameter v2 would drop, instead of forwarding without it and warning" },
  { key: "auditFile", flag: "--audit <file>", env: "V2_BRIDGE_AUDIT", help: "audit JSON (v2-bridge audit --format json) to show with live traffic at /_bridge/; re-read on each view" },
  { key: "stateDir", flag: "--state-dir <dir>", env: "V2_BRIDGE_STATE_DIR", help: `keeps the fingerprint salt and the local usage store (CLI default ${DEFAULTS.stateDir}/ under the working directory)` },
  { key: "usageStore", flag: "--usage-store <store>", env: "V2_BRIDGE_USAGE_STORE", help: "where usage is kept: file (state directory; default), memory, or redis://host:port shared by replicas (needs --fingerprint-salt)" },
  { key: "usageFlushMs", flag: "--usage-flush-ms <ms>", env: "V2_BRIDGE_USAGE_FLUSH_MS", help: `how often usage is saved or sent to Redis, and on shutdown (default ${DEFAULTS.usageFlushMs})` },
  { key: "adminPort", flag: "--admin-port <n>", env: "V2_BRIDGE_ADMIN_PORT", help: "port of the operator pages /_bridge/usage, /_bridge/metrics, /_bridge/ (default --port + 1; any free port when --port is 0)" },
  { key: "adminHost", flag: "--admin-host <addr>", env: "V2_BRIDGE_ADMIN_HOST", help: `address of the operator listener (default ${DEFAULTS.adminHost}: this host only)` },
  { key: "adminOnPublic", flag: "--admin-on-public", env: "V2_BRIDGE_ADMIN_ON_PUBLIC", help: "also serve the operator pages on the public port (requires --admin-token)" },
  { key: "adminToken", flag: "--admin-token <token>", env: "V2_BRIDGE_ADMIN_TOKEN", help: `bearer token the operator pages then require, on every listener (at least ${MIN_ADMIN_TOKEN_LENGTH} characters)` },
  ...LIMIT_FIELDS,
];

/** Numbers: converted from the flag or variable by the CLI (cli/gateway-options.ts), checked by resolveConfig. */
export const NUMERIC = new Set<keyof GatewayOptions>(["port", "timeoutMs", "bodyLimit", "maxClients", "maxOperationsPerClient", "catalogMaxKeys", "catalogTtlMs", "connections", "adminPort", "usageFlushMs", ...(LIMIT_KEYS as Set<keyof GatewayOptions>)]);
/** Switches: set by `1`/`true` in the environment, by the bare flag on the command line. */
export const BOOLEAN = new Set<keyof GatewayOptions>(["adminOnPublic", "strict"]);

export class ConfigError extends Error {}

function int(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got ${value})`);
  return v;
}

function httpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name} must use http or https`);
  if (url.username || url.password) throw new ConfigError(`${name} must not carry credentials`);
  return url;
}

/** Validates options and fills defaults. The upstream keeps only its origin: paths are always /v2/… built by the gateway. */
export function resolveConfig(options: GatewayOptions): GatewayConfig {
  if (!options.upstream) throw new ConfigError("upstream is required (a v2 origin such as https://api.runpod.io)");
  const upstreamUrl = httpUrl("upstream", options.upstream);
  const resetPolicy = options.resetPolicy ?? DEFAULTS.resetPolicy;
  if (resetPolicy !== "reject" && resetPolicy !== "restart") throw new ConfigError(`reset policy must be "reject" or "restart" (got ${JSON.stringify(resetPolicy)})`);
  const publicV2Base = httpUrl("public v2 base", options.publicV2Base ?? DEFAULTS.publicV2Base).origin;
  const port = int("port", options.port, DEFAULTS.port, 0, 65535);
  const admin = resolveAdmin(options, port);
  const usage = resolveUsageStore(options);
  return {
    ...admin,
    ...usage,
    port,
    host: options.host ?? DEFAULTS.host,
    upstream: new URL(upstreamUrl.origin),
    publicV2Base,
    timeoutMs: int("timeout", options.timeoutMs, DEFAULTS.timeoutMs, 1, 600_000),
    bodyLimit: int("body limit", options.bodyLimit, DEFAULTS.bodyLimit, 64, 100 * 1_048_576),
    resetPolicy,
    referenceDir: options.referenceDir,
    fingerprintSalt: options.fingerprintSalt ?? "", // filled from the state directory by startGateway when empty
    maxClients: int("max clients", options.maxClients, DEFAULTS.maxClients, 1, 1_000_000),
    maxOperationsPerClient: int("max operations per client", options.maxOperationsPerClient, DEFAULTS.maxOperationsPerClient, 1, 10_000),
    catalogMaxKeys: int("catalog max keys", options.catalogMaxKeys, DEFAULTS.catalogMaxKeys, 1, 1_000_000),
    catalogTtlMs: int("catalog ttl", options.catalogTtlMs, DEFAULTS.catalogTtlMs, 0, 86_400_000),
    connections: int("connections", options.connections, DEFAULTS.connections, 1, 4096),
    auditFile: options.auditFile,
    strict: options.strict === true,
    logger: options.logger ?? false,
    onUpstreamRequest: options.onUpstreamRequest,
    ...resolveLimits(options, int, (message) => {
      throw new ConfigError(message);
    }),
  };
}

/** The operator listener: its own port (loopback by default); on the public port only behind a token. */
function resolveAdmin(options: GatewayOptions, port: number): Pick<GatewayConfig, "adminPort" | "adminHost" | "adminOnPublic" | "adminToken"> {
  const adminPort = int("admin port", options.adminPort, port === 0 ? 0 : port + 1, 0, 65535);
  if (adminPort !== 0 && adminPort === port) throw new ConfigError(`admin port must differ from the public port (${port}); to serve the operator pages on the public port use --admin-on-public with --admin-token`);
  const adminToken = options.adminToken || undefined;
  if (adminToken !== undefined && (adminToken.length < MIN_ADMIN_TOKEN_LENGTH || /\s/.test(adminToken))) {
    throw new ConfigError(`admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters with no whitespace`);
  }
  const adminOnPublic = options.adminOnPublic === true;
  if (adminOnPublic && !adminToken) throw new ConfigError("--admin-on-public requires --admin-token: the public port never serves the operator pages to anyone");
  return { adminPort, adminHost: options.adminHost ?? DEFAULTS.adminHost, adminOnPublic, adminToken };
}

/** Where usage outlives the process. A shared store needs a shared salt, or replicas name one client differently. */
function resolveUsageStore(options: GatewayOptions): Pick<GatewayConfig, "stateDir" | "usageStore" | "usageFlushMs"> {
  const stateDir = options.stateDir || undefined;
  const store = options.usageStore ?? (stateDir ? "file" : "memory");
  const usageFlushMs = int("usage flush interval", options.usageFlushMs, DEFAULTS.usageFlushMs, 10, 3_600_000);
  if (store === "memory") return { stateDir, usageStore: store, usageFlushMs };
  if (store === "file") {
    if (!stateDir) throw new ConfigError("--usage-store file needs --state-dir");
    return { stateDir, usageStore: store, usageFlushMs };
  }
  let url: URL;
  try {
    url = new URL(store);
  } catch {
    throw new ConfigError(`usage store must be memory, file or a redis:// URL (got ${JSON.stringify(store.replace(/:[^:@/]*@/, ":***@"))})`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw new ConfigError("usage store must be memory, file or a redis:// (rediss://) URL");
  if (!options.fingerprintSalt) {
    throw new ConfigError("--usage-store redis://… needs --fingerprint-salt (the same on every replica), or replicas give one client different fingerprints");
  }
  return { stateDir, usageStore: store, usageFlushMs };
}
