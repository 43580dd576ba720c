// `v2-bridge rewrite <paths…>`: dry run by default (unified diff + summary); --write applies it;
// --check exits 1 when anything would change.
import { Command } from "commander";
import { runCodemod } from "../codemod/project.ts";
import { progressReporter } from "../codemod/progress.ts";
import { DEFAULT_MAX_FILE_BYTES, parseSize } from "../codemod/source-files.ts";

export async function rewrite(paths: string[], opts: { write?: boolean; check?: boolean; diff?: boolean; root?: string; progress?: boolean; maxFileSize?: number; force?: boolean; adapter?: boolean }): Promise<number> {
  try {
    const progress = progressReporter(opts.write ? "rewrite" : "rewrite (dry run)", opts.progress !== false);
    const result = await runCodemod({ paths, root: opts.root, write: !!opts.write, diff: !opts.write && opts.diff !== false, onProgress: progress.update, maxFileSize: opts.maxFileSize, force: !!opts.force, adapter: opts.adapter !== false });
    progress.stop();
    const out = process.stdout;
    for (const f of result.files) if (f.diff) out.write(f.diff);
    for (const e of result.parseErrors) process.stderr.write(`${e.file}: could not parse (${e.error}); left alone\n`);
    for (const f of result.findings) if (f.reason.startsWith("not processed (")) process.stderr.write(`${f.file}: ${f.reason}; left alone\n`);
    const s = result.summary;
    const verb = opts.write ? "rewritten" : "would be rewritten";
    process.stderr.write(
      [
        `files scanned:        ${s.files}`,
        `files parsed:         ${s.filesParsed} (the rest cannot contain v1 usage)`,
        `v1 call sites found:  ${s.callSites}`,
        `rewritten:            ${s.rewritten}`,
        `left for review:      ${s.leftForReview} (TODO(v2-migration) marks; see \`v2-bridge audit\`)`,
        `files ${verb}: ${s.filesChanged}`,
        ...(s.parseErrors ? [`files not parsed:     ${s.parseErrors}`] : []),
      ].join("\n") + "\n",
    );
    if (opts.check && s.filesChanged > 0) return 1;
    return s.parseErrors && opts.check ? 2 : 0;
  } catch (error) {
    process.stderr.write(`v2-bridge rewrite: ${(error as Error).message}\n`);
    return 2;
  }
}

export function registerRewriteCommand(program: Command): void {
  program
    .command("rewrite")
    .description("Rewrite v1 client code to call v2 (dry run unless --write)")
    .argument("[paths...]", "files or directories (default: .)", [])
    .option("-w, --write", "apply the changes (atomic writes)")
    .option("--check", "exit 1 if anything would change")
    .option("--no-diff", "print only the summary")
    .option("--root <dir>", "directory paths are shown relative to")
    .option("--max-file-size <bytes>", "skip (with a finding) files larger than this", (v) => parseSize(v), DEFAULT_MAX_FILE_BYTES)
    .option("--force", "also write read-only files (refused with a finding otherwise)")
    .option("--no-adapter", "never wrap values in the generated boundary adapter (those sites keep their mark)")
    .option("--no-progress", "no progress bar")
    .action(async (paths: string[], opts) => {
      process.exitCode = await rewrite(paths, opts);
    });
}
