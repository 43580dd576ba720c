// `v2-bridge mappings`: print the mapping table as JSON or Markdown.
import { writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import { exportTable, renderMarkdown } from "../mappings/index.ts";

export function registerMappingsCommand(program: Command): void {
  program
    .command("mappings")
    .description("Print the v1→v2 mapping table that drives the gateway, codemod, audit and docs")
    .addOption(new Option("-f, --format <format>", "output format").choices(["json", "markdown"]).default("markdown"))
    .option("-o, --out <file>", "write to a file instead of standard output")
    .action((opts: { format: "json" | "markdown"; out?: string }) => {
      const text = opts.format === "json" ? JSON.stringify(exportTable(), null, 2) + "\n" : renderMarkdown();
      if (opts.out) writeFileSync(opts.out, text);
      else process.stdout.write(text);
    });
}
