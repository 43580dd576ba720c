// The one `v2-bridge` command. Each subcommand registers itself from its own module.
import { Command } from "commander";
import { registerCommands } from "./commands.ts";

export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("v2-bridge")
    .description("Move v1 clients of the cloud compute REST API onto v2: gateway, codemod, audit.")
    .showHelpAfterError()
    .enablePositionalOptions();
  await registerCommands(program, argv);
  await program.parseAsync(argv);
}
