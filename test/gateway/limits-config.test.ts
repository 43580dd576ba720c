// The limit settings: defaults, environment variables, flags in --help, and refusals of values
// Node would reject at listen time.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../gateway/config.ts";
import { envOptions } from "../helpers/gateway-flags.ts";
import { LIMIT_DEFAULTS, LIMIT_FIELDS } from "../../gateway/limits/limits.ts";
import { BUILT_CLI } from "../helpers/cli.ts";

describe("limit settings", () => {
  it("defaults, and numbers from V2_BRIDGE_* variables", () => {
    expect(resolveConfig({ upstream: "http://x" })).toMatchObject(LIMIT_DEFAULTS);
    const config = resolveConfig(envOptions({ V2_BRIDGE_UPSTREAM: "http://x", V2_BRIDGE_MAX_RESPONSE_BYTES: "2048", V2_BRIDGE_HEADERS_TIMEOUT_MS: "500", V2_BRIDGE_UPSTREAM_DEADLINE_MS: "900", V2_BRIDGE_MAX_JSON_DEPTH: "8", V2_BRIDGE_DRAIN_TIMEOUT_MS: "0" }));
    expect(config).toMatchObject({ maxResponseBytes: 2048, headersTimeoutMs: 500, upstreamDeadlineMs: 900, maxJsonDepth: 8, drainTimeoutMs: 0 });
  });

  it("refuses out-of-range values and a request timeout shorter than the headers timeout", () => {
    expect(() => resolveConfig({ upstream: "http://x", maxResponseBytes: 10 })).toThrow(/max response bytes/);
    expect(() => resolveConfig({ upstream: "http://x", maxJsonDepth: 0 })).toThrow(ConfigError);
    expect(() => resolveConfig({ upstream: "http://x", headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).toThrow(/must not be shorter than the headers timeout/);
    // A defaulted request timeout follows a longer headers timeout.
    expect(resolveConfig({ upstream: "http://x", headersTimeoutMs: 45_000 }).requestTimeoutMs).toBe(45_000);
  });

  it("every limit is a documented `v2-bridge gateway` flag", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BUILT_CLI, "gateway", "--help"]);
    for (const f of LIMIT_FIELDS) expect(stdout).toContain(f.flag.split(" ")[0]);
  });
});
