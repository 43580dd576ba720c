// `v2-bridge verify [options] -- <command…>`: runs the client's own command before and after the
// rewrite against local servers and compares the two runs by effect (exit 0 equivalent,
// 1 different, 2 error or nothing verified).
import { writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import { parseBootMs } from "./sandbox-command.ts";
import { requireReference } from "./require-reference.ts";

type Opts = {
  root?: string;
  after?: string;
  afterRef?: string;
  compareOutput?: boolean;
  format: "text" | "json";
  out?: string;
  seed: string;
  bootMs: number;
  timeout: number;
  referenceDir?: string;
  fetchReference?: boolean;
  keep?: boolean;
  showOutput?: boolean;
};

export function registerVerifyCommand(program: Command): void {
  program
    .command("verify")
    .description(
      "Prove a migration on the client's own workload: run <command> on the original tree (v1 host → gateway → a fresh " +
        "seeded sandbox) and on the rewritten tree (v2 host → a fresh sandbox of the same seed), record the v2 requests " +
        "reaching the sandbox and compare the runs by effect. Node.js clients only (fetch, undici, http/https: axios, got, " +
        "node-fetch, ky); non-Node clients are out of scope. No account, no network, no cost.",
    )
    .usage("[options] -- <command...>")
    .argument("<command...>", "the client's command, after `--` (its tests, a script, a CLI invocation)")
    .option("--root <dir>", "the project: the original tree (default: the current directory); the command runs at the same place in both trees")
    .option("--after <dir>", "the rewritten tree (default: a temporary copy of the project rewritten by `rewrite --write`)")
    .option("--after-ref <git-ref>", "the rewritten tree is this git ref of the project (checked out into a temporary directory)")
    .option("--compare-output", "compare the command's stdout too (ids and times normalised)")
    .addOption(new Option("-f, --format <format>", "report format").choices(["text", "json"]).default("text"))
    .option("-o, --out <file>", "write the report to a file")
    .option("--seed <seed>", "the sandboxes' seed (ids, times, boot timing)", "v2-bridge-verify")
    .option("--boot-ms <ms>", "pod boot time in the sandboxes, on their virtual clock (0: pods run at once, so clients that poll do so alike)", (v) => parseBootMs(v), 0)
    .option("--timeout <ms>", "time limit per run; the command and everything it started are stopped after it", (v) => parseTimeout(v), 600_000)
    .option("--reference-dir <dir>", "directory with v1-openapi.json and v2-openapi.json")
    .option("--fetch-reference", "download missing reference documents into the user cache first")
    .option("--keep", "keep the temporary rewritten tree (its path is in the report)")
    .option("--show-output", "show the command's own output (on stderr) as it runs")
    .action(async (command: string[], opts: Opts) => {
      process.exitCode = await verify(command, opts);
    });
}

async function verify(command: string[], opts: Opts): Promise<number> {
  if (opts.after && opts.afterRef) {
    process.stderr.write("v2-bridge verify: give --after or --after-ref, not both\n");
    return 2;
  }
  await requireReference({ command: "verify", names: ["v1-openapi.json", "v2-openapi.json"], dir: opts.referenceDir, validation: true, fetch: opts.fetchReference });
  const { runVerify, exitCodeOf, Interrupted } = await import("../verify/index.ts");
  const { renderText } = await import("../verify/render-text.ts");
  try {
    const report = await runVerify({
      command,
      root: opts.root,
      after: opts.after,
      afterRef: opts.afterRef,
      compareOutput: opts.compareOutput,
      seed: opts.seed,
      bootMs: opts.bootMs,
      timeoutMs: opts.timeout,
      referenceDir: opts.referenceDir,
      keep: opts.keep,
      progress: (line) => process.stderr.write(`v2-bridge verify: ${line}\n`),
      echo: opts.showOutput ? (chunk) => process.stderr.write(chunk) : undefined,
    });
    const text = opts.format === "json" ? JSON.stringify(report, null, 2) + "\n" : renderText(report);
    if (opts.out) writeFileSync(opts.out, text);
    else process.stdout.write(text);
    return exitCodeOf(report.verdict);
  } catch (error) {
    process.stderr.write(`v2-bridge verify: ${(error as Error).message}\n`);
    // Stopped by a signal: the shell's usual status for it (128 + its number).
    if (error instanceof Interrupted) return error.signal === "SIGINT" ? 130 : 143;
    return 2;
  }
}

function parseTimeout(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1_000 || n > 86_400_000) throw new Error(`invalid --timeout '${value}' (1000 to 86400000 ms)`);
  return n;
}
