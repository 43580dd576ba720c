// Resource limits and timeouts of the gateway: what a client or an upstream may cost before the
// gateway cuts it off. Kept apart from config.ts (which spreads these in) so the whole set of
// limits, their defaults and flags can be read in one place; docs/gateway.md has the same table.

export interface LimitOptions {
  /** Largest upstream answer (translated calls) in bytes; v1 502 above it. */
  maxResponseBytes?: number;
  /** Time a client has to send the complete request headers (Node `headersTimeout`). */
  headersTimeoutMs?: number;
  /** Time a client has to send the complete request, body included (Node `requestTimeout`). */
  requestTimeoutMs?: number;
  /** Total time for all upstream calls of one v1 request (emulation calls and retries included); v1 504 after it. */
  upstreamDeadlineMs?: number;
  /** Longest a SIGTERM/close waits for in-flight requests before cutting the remaining connections. */
  drainTimeoutMs?: number;
  /** Deepest JSON nesting accepted in a v1 request body; v1 400 beyond it. */
  maxJsonDepth?: number;
}

export type Limits = Required<LimitOptions>;

export const LIMIT_DEFAULTS: Limits = {
  maxResponseBytes: 32 * 1_048_576,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  upstreamDeadlineMs: 60_000,
  drainTimeoutMs: 25_000,
  maxJsonDepth: 64,
};

export const LIMIT_FIELDS: { key: keyof LimitOptions; flag: string; env: string; help: string }[] = [
  { key: "maxResponseBytes", flag: "--max-response-bytes <bytes>", env: "V2_BRIDGE_MAX_RESPONSE_BYTES", help: `largest upstream answer to a translated call; the upstream request is aborted and the client gets a v1 502 above it (default ${LIMIT_DEFAULTS.maxResponseBytes})` },
  { key: "headersTimeoutMs", flag: "--headers-timeout <ms>", env: "V2_BRIDGE_HEADERS_TIMEOUT_MS", help: `time a client has to send its request headers; the connection is closed after it (default ${LIMIT_DEFAULTS.headersTimeoutMs})` },
  { key: "requestTimeoutMs", flag: "--request-timeout <ms>", env: "V2_BRIDGE_REQUEST_TIMEOUT_MS", help: `time a client has to send its whole request, body included; 408 after it (default ${LIMIT_DEFAULTS.requestTimeoutMs})` },
  { key: "upstreamDeadlineMs", flag: "--upstream-deadline <ms>", env: "V2_BRIDGE_UPSTREAM_DEADLINE_MS", help: `total time for all upstream calls of one v1 request (retries included); v1 504 after it (default ${LIMIT_DEFAULTS.upstreamDeadlineMs})` },
  { key: "drainTimeoutMs", flag: "--drain-timeout <ms>", env: "V2_BRIDGE_DRAIN_TIMEOUT_MS", help: `on SIGTERM, longest wait for in-flight requests before the remaining connections are cut (default ${LIMIT_DEFAULTS.drainTimeoutMs})` },
  { key: "maxJsonDepth", flag: "--max-json-depth <n>", env: "V2_BRIDGE_MAX_JSON_DEPTH", help: `deepest JSON nesting accepted in a v1 request body; v1 400 beyond it (default ${LIMIT_DEFAULTS.maxJsonDepth})` },
];

export const LIMIT_KEYS = new Set<string>(LIMIT_FIELDS.map((f) => f.key));

type IntCheck = (name: string, value: number | undefined, fallback: number, min: number, max: number) => number;

/** Validates the limit options and fills defaults; `int` and `fail` are config.ts's checks (they throw ConfigError). */
export function resolveLimits(options: LimitOptions, int: IntCheck, fail: (message: string) => never): Limits {
  const limits: Limits = {
    maxResponseBytes: int("max response bytes", options.maxResponseBytes, LIMIT_DEFAULTS.maxResponseBytes, 1_024, 1_073_741_824),
    headersTimeoutMs: int("headers timeout", options.headersTimeoutMs, LIMIT_DEFAULTS.headersTimeoutMs, 50, 600_000),
    requestTimeoutMs: int("request timeout", options.requestTimeoutMs, LIMIT_DEFAULTS.requestTimeoutMs, 50, 3_600_000),
    upstreamDeadlineMs: int("upstream deadline", options.upstreamDeadlineMs, LIMIT_DEFAULTS.upstreamDeadlineMs, 1, 3_600_000),
    drainTimeoutMs: int("drain timeout", options.drainTimeoutMs, LIMIT_DEFAULTS.drainTimeoutMs, 0, 3_600_000),
    maxJsonDepth: int("max JSON depth", options.maxJsonDepth, LIMIT_DEFAULTS.maxJsonDepth, 1, 10_000),
  };
  // Node refuses a headers timeout longer than the request timeout: a defaulted request timeout follows
  // a longer headers timeout; two explicit, inconsistent values are a configuration error.
  if (limits.requestTimeoutMs < limits.headersTimeoutMs) {
    if (options.requestTimeoutMs !== undefined) fail(`request timeout (${limits.requestTimeoutMs} ms) must not be shorter than the headers timeout (${limits.headersTimeoutMs} ms)`);
    limits.requestTimeoutMs = limits.headersTimeoutMs;
  }
  return limits;
}

/**
 * Fastify options for the client-side timeouts (Envoy's request_headers_timeout / request_timeout),
 * shared by the public and the admin listener: a client that trickles its headers or body is cut.
 * Node checks them every connectionsCheckingInterval, so that follows the headers timeout instead of
 * Node's 30 s default.
 */
export function listenerTimeouts(limits: Pick<Limits, "headersTimeoutMs" | "requestTimeoutMs">): Record<string, unknown> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
  };
}
