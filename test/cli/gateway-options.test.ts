// `v2-bridge gateway` settings through commander's Option.env(): every V2_BRIDGE_* variable still
// sets its setting, a flag wins over its variable, and with neither resolveConfig's default applies
// (docs/gateway.md). Kept from the hand-written reader: an empty variable is unset, and a switch's
// variable is on only for 1 or true. Then the same in a real gateway process.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BOOLEAN, CONFIG_FIELDS, DEFAULTS, NUMERIC, resolveConfig, type GatewayOptions } from "../../gateway/config.ts";
import { startGatewayProcess } from "../gateway/gateway-process.ts";
import { gatewayFlags } from "../helpers/gateway-flags.ts";

/** A value of the right kind for each setting, as the environment spells it and as the option holds it. */
function sample(key: keyof GatewayOptions, n: number): { raw: string; value: unknown } {
  if (BOOLEAN.has(key)) return { raw: "1", value: true };
  if (NUMERIC.has(key)) return { raw: String(4000 + n), value: 4000 + n };
  return { raw: `${key}-${n}`, value: `${key}-${n}` };
}

const flagName = (flag: string) => flag.split(" ")[0]!;

describe("gateway settings: flag > environment > default", () => {
  it("every setting comes from its variable, its flag wins over the variable, and neither leaves it unset", () => {
    expect(CONFIG_FIELDS.length).toBeGreaterThan(20);
    for (const [i, f] of CONFIG_FIELDS.entries()) {
      const fromEnv = sample(f.key, i);
      const fromFlag = sample(f.key, i + 100);
      const flagArgs = BOOLEAN.has(f.key) ? [flagName(f.flag)] : [flagName(f.flag), fromFlag.raw];
      expect(gatewayFlags([], { [f.env]: fromEnv.raw })[f.key], f.env).toEqual(fromEnv.value);
      expect(gatewayFlags(flagArgs, {})[f.key], f.flag).toEqual(fromFlag.value);
      // A switch's flag and variable both say "on"; for the rest the two values differ.
      const flagWins = BOOLEAN.has(f.key) ? gatewayFlags(flagArgs, { [f.env]: "0" }) : gatewayFlags(flagArgs, { [f.env]: fromEnv.raw });
      expect(flagWins[f.key], `${f.flag} over ${f.env}`).toEqual(fromFlag.value);
      expect(f.key in gatewayFlags([], {}), f.key).toBe(false);
    }
  });

  it("defaults come from resolveConfig when neither is given", () => {
    const config = resolveConfig({ ...gatewayFlags([], { V2_BRIDGE_UPSTREAM: "http://up.example" }) });
    expect(config).toMatchObject({ port: DEFAULTS.port, host: DEFAULTS.host, timeoutMs: DEFAULTS.timeoutMs, strict: false, adminOnPublic: false });
    expect(resolveConfig(gatewayFlags(["--port", "9001"], { V2_BRIDGE_UPSTREAM: "http://up.example", V2_BRIDGE_PORT: "9002" })).port).toBe(9001);
    expect(resolveConfig(gatewayFlags([], { V2_BRIDGE_UPSTREAM: "http://up.example", V2_BRIDGE_PORT: "9002" })).port).toBe(9002);
  });

  it("an empty variable is unset (not port 0, not an empty host)", () => {
    const options = gatewayFlags([], { V2_BRIDGE_PORT: "", V2_BRIDGE_HOST: "", V2_BRIDGE_STRICT: "", V2_BRIDGE_UPSTREAM: "http://up.example" });
    expect(options).toEqual({ upstream: "http://up.example", log: false });
    expect(resolveConfig(options)).toMatchObject({ port: DEFAULTS.port, host: DEFAULTS.host, strict: false });
  });

  it("a switch's variable is on for 1 or true only; the bare flag is on whatever the variable says", () => {
    const strict = (value: string) => gatewayFlags([], { V2_BRIDGE_STRICT: value }).strict;
    expect(["1", "true", "TRUE", "True"].map(strict)).toEqual([true, true, true, true]);
    expect(["0", "false", "no", "yes", "on"].map(strict)).toEqual([false, false, false, false, false]);
    expect(gatewayFlags(["--strict"], { V2_BRIDGE_STRICT: "0" }).strict).toBe(true);
    expect(gatewayFlags(["--admin-on-public"], { V2_BRIDGE_ADMIN_ON_PUBLIC: "false" }).adminOnPublic).toBe(true);
    expect(gatewayFlags([], { V2_BRIDGE_LOG: "1" }).log).toBe(true);
    expect(gatewayFlags([], { V2_BRIDGE_LOG: "0" }).log).toBe(false);
    expect(gatewayFlags(["--log"], {}).log).toBe(true);
    expect(gatewayFlags([], {}).log).toBe(false);
  });

  it("numbers stay unchecked until resolveConfig, which names the setting", () => {
    const options = gatewayFlags([], { V2_BRIDGE_UPSTREAM: "http://up.example", V2_BRIDGE_TIMEOUT_MS: "soon" });
    expect(options.timeoutMs).toBeNaN();
    expect(() => resolveConfig(options)).toThrow(/timeout must be an integer/);
  });

  it("a real gateway process: variables apply, a flag wins over its variable", { timeout: 60_000 }, async () => {
    const token = "t".repeat(24);
    // startGatewayProcess passes --port 0 itself: it must win over V2_BRIDGE_PORT.
    const gw = await startGatewayProcess(["--timeout", "4321"], {
      cwd: mkdtempSync(path.join(os.tmpdir(), "v2b-gwopts-")),
      env: { V2_BRIDGE_PORT: "1", V2_BRIDGE_TIMEOUT_MS: "1234", V2_BRIDGE_RESET_POLICY: "restart", V2_BRIDGE_ADMIN_TOKEN: token, V2_BRIDGE_USAGE_STORE: "memory", V2_BRIDGE_STRICT: "0" },
    });
    try {
      expect(new URL(gw.url).port).not.toBe("1");
      expect(gw.output()).toContain("reset policy: restart; upstream timeout 4321 ms");
      expect(gw.output()).toContain("usage store: memory only");
      expect(gw.output()).toContain("bearer token required");
      expect((await fetch(`${gw.adminUrl}/_bridge/usage`)).status).toBe(401);
      expect((await fetch(`${gw.adminUrl}/_bridge/usage`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await gw.stop();
    }
  });
});
