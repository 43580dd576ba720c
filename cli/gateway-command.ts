// `v2-bridge gateway`: the translating v1 gateway. Without --upstream it starts the embedded v2
// sandbox and fronts that; with --upstream https://api.runpod.io it fronts the real v2.
// Every setting also comes from a V2_BRIDGE_* environment variable (flags win).
import type { Command } from "commander";
import path from "node:path";
import { CONFIG_FIELDS, ConfigError, DEFAULTS, resolveConfig } from "../gateway/config.ts";
import { displayRedisUrl } from "../gateway/usage/usage-redis.ts";
import { startGateway } from "../gateway/server.ts";
import { DEFAULT_BOOT_MS } from "../sandbox/pod-lifecycle.ts";
import { startSandbox } from "../sandbox/server.ts";
import { parseBootMs } from "./sandbox-command.ts";
import { closeOnSignal } from "./close-on-signal.ts";
import { requireReference } from "./require-reference.ts";
import { referenceFile } from "../openapi/reference.ts";
import { addGatewayOptions, gatewayOptionsOf, LOG_ENV } from "./gateway-options.ts";

export function registerGatewayCommand(program: Command): void {
  const command = program
    .command("gateway")
    .description(
      "Run the v1→v2 translating gateway: legacy v1 clients change only their base URL to http://<gateway>/v1. " +
        "/v2/* passes through unchanged; /_bridge/health answers on the public port, and the operator pages " +
        "(/_bridge/usage, /_bridge/metrics, /_bridge/ live report) on the admin port (loopback by default).",
    );
  addGatewayOptions(command);
  command
    .option("--no-validation", "start without the reference documents: v1 requests (and the embedded sandbox's v2 requests) are not schema-checked")
    .option("--fetch-reference", "download missing reference documents into the user cache before starting (npm start does)")
    .option("--boot-ms <ms>", "embedded sandbox only: pod boot time, create → PROVISIONING → STARTING → RUNNING (0 = instant)", (v) => parseBootMs(v), DEFAULT_BOOT_MS)
    .addHelpText(
      "after",
      "\nEnvironment variables:\n" + [...CONFIG_FIELDS.map((f) => `  ${f.env}`), `  ${LOG_ENV}`].join("\n") +
        "\n(a flag wins over its variable; a switch's variable is on for 1 or true)" +
        "\n\nWithout --upstream an embedded v2 sandbox is started (keys: any sandbox_* token; sandbox_ro_* is read-only).",
    )
    .action(async (flags: Record<string, string | boolean | undefined>) => {
      const { log, ...options } = gatewayOptionsOf(command);
      // The command keeps state by default (salt, local usage store); startGateway in code does not.
      options.stateDir ??= path.resolve(DEFAULTS.stateDir);
      // v1 requests are checked against the v1 document; the embedded sandbox needs the v2 one.
      const names = options.upstream ? (["v1-openapi.json"] as const) : (["v1-openapi.json", "v2-openapi.json"] as const);
      const validation = await requireReference({ command: "gateway", names, dir: options.referenceDir || undefined, validation: flags.validation !== false, fetch: flags.fetchReference === true });
      if (validation === "off") options.referenceDir = false;
      let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
      let gateway: Awaited<ReturnType<typeof startGateway>>;
      try {
        if (!options.upstream) {
          sandbox = await startSandbox({ port: 0, host: "127.0.0.1", bootMs: flags.bootMs as unknown as number, openapiPath: validation === "off" ? false : referenceFile("v2-openapi.json", options.referenceDir || undefined) });
          options.upstream = sandbox.url;
        }
        resolveConfig(options); // validate before binding
        gateway = await startGateway({ ...options, logger: log ? true : false });
      } catch (err) {
        await sandbox?.close();
        if (err instanceof ConfigError) {
          console.error(`v2-bridge gateway: ${err.message}`);
          process.exit(2);
        }
        throw err;
      }
      console.log(`v2-bridge gateway listening on ${gateway.url}  (v1 clients: ${gateway.url}/v1)`);
      console.log(sandbox ? `  upstream: embedded v2 sandbox at ${sandbox.url}` : `  upstream: ${gateway.config.upstream.origin}`);
      if (validation === "off") console.log("  schema validation: OFF (--no-validation)");
      console.log(`  reset policy: ${gateway.config.resetPolicy}; upstream timeout ${gateway.config.timeoutMs} ms`);
      console.log(`  health: ${gateway.url}/_bridge/health`);
      const store = gateway.config.usageStore;
      console.log(`  usage store: ${store === "file" ? path.join(gateway.config.stateDir!, "usage.json") : store === "memory" ? "memory only" : displayRedisUrl(store)}`);
      const admin = gateway.adminUrl;
      console.log(`  operator pages (admin listener${gateway.config.adminToken ? ", bearer token required" : ""}): ${admin}/_bridge/  usage: ${admin}/_bridge/usage  metrics: ${admin}/_bridge/metrics`);
      if (gateway.config.adminOnPublic) console.log(`  operator pages also on the public port, bearer token required`);
      console.log(`  try: curl -H "Authorization: Bearer sandbox_demo" ${gateway.url}/v1/pods`);
      closeOnSignal("the gateway after in-flight requests", async () => {
        await gateway.close();
        await sandbox?.close();
      });
    });
}
