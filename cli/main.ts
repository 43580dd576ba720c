// The one `v2-bridge` command. Each subcommand registers itself from its own module.
import { Command } from "commander";
import { VERSION } from "../product/package-info.ts";
import { registerCommands } from "./commands.ts";

export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("v2-bridge")
    .description("Move v1 clients of the cloud compute REST API onto v2: gateway, codemod, audit.")
    .version(VERSION, "-V, --version", "print the version")
    .showHelpAfterError()
    .enablePositionalOptions();
  await registerCommands(program, argv);
  await program.parseAsync(argv);
}
