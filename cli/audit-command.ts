// `v2-bridge audit <paths…>`: every remaining v1 usage, for people (text), scripts (json) and
// code-scanning UIs (sarif). Exit 0: none found; 1: some found; 2: error.
import { writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import { runCodemod } from "../codemod/project.ts";
import { auditJson, auditSarif, auditText } from "../codemod/report.ts";
import { progressReporter } from "../codemod/progress.ts";
import { DEFAULT_MAX_FILE_BYTES, parseSize } from "../codemod/source-files.ts";

export async function audit(paths: string[], opts: { format: "text" | "json" | "sarif"; out?: string; root?: string; progress?: boolean; textFiles?: boolean; maxFileSize?: number }): Promise<number> {
  try {
    const progress = progressReporter("audit", opts.progress !== false);
    const result = await runCodemod({ paths, root: opts.root, onProgress: progress.update, textFiles: opts.textFiles !== false, maxFileSize: opts.maxFileSize });
    progress.stop();
    const text =
      opts.format === "json" ? JSON.stringify(auditJson(result), null, 2) + "\n" : opts.format === "sarif" ? JSON.stringify(auditSarif(result), null, 2) + "\n" : auditText(result);
    if (opts.out) writeFileSync(opts.out, text);
    else process.stdout.write(text);
    if (result.parseErrors.length && opts.format !== "text") for (const e of result.parseErrors) process.stderr.write(`${e.file}: could not parse (${e.error})\n`);
    for (const s of result.skipped ?? []) if (s.why !== "binary") process.stderr.write(`${s.file}: not read (${s.why}); check it by hand\n`);
    return result.findings.length ? 1 : 0;
  } catch (error) {
    process.stderr.write(`v2-bridge audit: ${(error as Error).message}\n`);
    return 2;
  }
}

export function registerAuditCommand(program: Command): void {
  program
    .command("audit")
    .description("List remaining v1 usage (exit 0: none, 1: some, 2: error)")
    .argument("[paths...]", "files or directories (default: .)", [])
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json", "sarif"]).default("text"))
    .option("-o, --out <file>", "write the report to a file")
    .option("--root <dir>", "directory findings are relative to")
    .option("--max-file-size <bytes>", "skip (with a finding) files larger than this", (v) => parseSize(v), DEFAULT_MAX_FILE_BYTES)
    .option("--no-text-files", "only JavaScript/TypeScript sources (skip scripts, configs and docs)")
    .option("--no-progress", "no progress bar")
    .action(async (paths: string[], opts) => {
      process.exitCode = await audit(paths, opts);
      // Nothing is left to do once the report is out, and Node's own teardown of the compiler's heap
      // (~200 MB, freed page by page) cost the monorepo bench ~80 ms: exit now, unless a stream still
      // holds queued output (a pipe is written asynchronously on macOS). The 'exit' listeners still run.
      if (!process.stdout.writableLength && !process.stderr.writableLength) process.exit();
    });
}
