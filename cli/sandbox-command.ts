// `v2-bridge sandbox`: run the strict, stateful v2 sandbox locally until SIGINT/SIGTERM.
import { existsSync } from "node:fs";
import { Command, Option } from "commander";
import { parseKeySpec } from "../sandbox/auth.ts";
import { parseRateLimitSpec } from "../sandbox/rate-limit.ts";
import { DEFAULT_BOOT_MS } from "../sandbox/pod-lifecycle.ts";
import { startSandbox } from "../sandbox/server.ts";
import { closeOnSignal } from "./close-on-signal.ts";
import { requireReference } from "./require-reference.ts";

export function registerSandboxCommand(program: Command): void {
  program
    .command("sandbox")
    .description(
      "Run a local, strict, stateful v2 API (in-memory) for tests and demos: bearer auth, closed request " +
        "bodies, problem+json errors, per-key rate limits.",
    )
    .option("-p, --port <port>", "TCP port to listen on (0 picks a free port)", (v) => parsePort(v), 8787)
    .option("-H, --host <host>", "interface to bind", "127.0.0.1")
    .option(
      "--openapi <path>",
      "v2 OpenAPI document for request validation and GET /v2/openapi.json (default: <reference dir>/v2-openapi.json)",
    )
    .addOption(
      new Option(
        "--key <token[:ro]>",
        "accept exactly these API keys (repeatable); ':ro' makes a key read-only. Default: any sandbox_* token, sandbox_ro_* read-only",
      ).argParser((value: string, previous: string[] | undefined) => {
        parseKeySpec(value);
        return [...(previous ?? []), value];
      }),
    )
    .option(
      "--rate-limit <spec>",
      "per-key quotas, e.g. minute=60,hour=3000,day=50000 (default minute=600,hour=20000,day=200000)",
    )
    .option("--no-rate-limit", "disable rate limiting (no RateLimit headers, no 429s)")
    .option("--boot-ms <ms>", "pod boot time: create → PROVISIONING → STARTING → RUNNING over <ms> (start/restart take half); 0 = instant", (v) => parseBootMs(v), DEFAULT_BOOT_MS)
    .option("--seed <seed>", "reproducible ids, times and boot timing: the clock starts at 2026-01-01T00:00:00Z and moves 1 s per client call (requests sharing an x-request-id count once)")
    .option("--log", "log every request (Fastify logger)", false)
    .option("--no-validation", "start without the v2 document: request bodies are not schema-checked")
    .option("--fetch-reference", "download missing reference documents into the user cache before starting")
    .action(async (opts: { port: number; host: string; openapi?: string; key?: string[]; rateLimit?: string | boolean; bootMs: number; seed?: string; log: boolean; validation: boolean; fetchReference?: boolean }) => {
      if (opts.openapi && opts.validation && !existsSync(opts.openapi)) {
        console.error(`v2-bridge sandbox: not starting: --openapi ${opts.openapi} not found; or start with --no-validation to run without schema validation`);
        process.exit(2);
      }
      const validation = opts.openapi ? "on" : await requireReference({ command: "sandbox", names: ["v2-openapi.json"], validation: opts.validation, fetch: opts.fetchReference });
      const rateLimit = opts.rateLimit === false ? false : typeof opts.rateLimit === "string" ? parseRateLimitSpec(opts.rateLimit) : undefined;
      const sandbox = await startSandbox({
        port: opts.port,
        host: opts.host,
        openapiPath: validation === "off" ? false : opts.openapi,
        keys: opts.key,
        rateLimit,
        bootMs: opts.bootMs,
        seed: opts.seed,
        logger: opts.log,
      });
      const token = opts.key?.[0]?.replace(/:(ro|rw)$/, "") ?? "sandbox_demo";
      console.log(`v2 sandbox listening on ${sandbox.url}`);
      console.log(`  schema validation: ${sandbox.openapiPath ?? "OFF (--no-validation)"}`);
      if (opts.seed !== undefined) console.log(`  seeded (${JSON.stringify(opts.seed)}): the same calls make the same ids, times and boot progress on every run`);
      console.log(`  try: curl -H "Authorization: Bearer ${token}" ${sandbox.url}/v2/pods`);
      closeOnSignal("the sandbox", () => sandbox.close());
    });
}

export function parseBootMs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 600_000) throw new Error(`invalid --boot-ms '${value}' (0 to 600000)`);
  return n;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid port '${value}'`);
  return n;
}
