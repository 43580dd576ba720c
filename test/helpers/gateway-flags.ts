// `v2-bridge gateway`'s settings as commander parses them (cli/gateway-options.ts), from the given
// arguments and environment only: every V2_BRIDGE_* variable of the test process is hidden meanwhile.
import { Command } from "commander";
import { vi } from "vitest";
import { addGatewayOptions, gatewayOptionsOf, LOG_ENV } from "../../cli/gateway-options.ts";
import { CONFIG_FIELDS, type GatewayOptions } from "../../gateway/config.ts";

export function gatewayFlags(argv: string[], env: Record<string, string> = {}): GatewayOptions & { log: boolean } {
  for (const name of [...CONFIG_FIELDS.map((f) => f.env), LOG_ENV]) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    const command = new Command("gateway").exitOverride();
    addGatewayOptions(command);
    command.parse(argv, { from: "user" });
    return gatewayOptionsOf(command);
  } finally {
    vi.unstubAllEnvs();
  }
}

/** The settings from the environment alone (what optionsFromEnv returned before commander read them). */
export function envOptions(env: Record<string, string>): GatewayOptions {
  const { log: _log, ...options } = gatewayFlags([], env);
  return options;
}
