// The gateway's settings as `v2-bridge gateway` options: one commander Option per CONFIG_FIELDS
// entry, its V2_BRIDGE_* variable attached with Option.env(), so commander itself applies
// "flag, else environment, else default" (the default is resolveConfig's, not commander's).
import { Option, type Command } from "commander";
import { BOOLEAN, CONFIG_FIELDS, NUMERIC, type GatewayOptions } from "../gateway/config.ts";

/** `--log`: one pino line per request. A switch like --strict, kept out of GatewayOptions (the CLI decides the logger). */
export const LOG_ENV = "V2_BRIDGE_LOG";

export function addGatewayOptions(command: Command): void {
  for (const f of CONFIG_FIELDS) {
    const option = new Option(f.flag, f.help).env(f.env);
    // Not validated here: resolveConfig names the setting and its range (NaN included).
    if (NUMERIC.has(f.key)) option.argParser(Number);
    command.addOption(option);
  }
  command.addOption(new Option("--log", "log every request (pino, API keys redacted)").env(LOG_ENV));
}

/**
 * The settings given, by flag or by variable. Two rules commander does not have, kept from before:
 * an empty variable counts as unset, and a switch's variable is on only for `1` or `true`
 * (commander turns a switch on for any value, `V2_BRIDGE_STRICT=0` included).
 */
export function gatewayOptionsOf(command: Command, env: NodeJS.ProcessEnv = process.env): GatewayOptions & { log: boolean } {
  const out: Record<string, unknown> = {};
  const given = (attribute: string, name: string, isSwitch: boolean): unknown => {
    const value = command.getOptionValue(attribute);
    if (value === undefined || command.getOptionValueSource(attribute) !== "env") return value;
    const raw = env[name] ?? "";
    if (raw === "") return undefined;
    return isSwitch ? raw === "1" || raw.toLowerCase() === "true" : value;
  };
  for (const f of CONFIG_FIELDS) {
    const attribute = new Option(f.flag).attributeName();
    const value = given(attribute, f.env, BOOLEAN.has(f.key));
    if (value !== undefined) out[f.key] = value;
  }
  return { ...(out as GatewayOptions), log: given("log", LOG_ENV, true) === true };
}
