// Subcommand registry: one line per subcommand, each implemented in its own module.
import type { Command } from "commander";

export function registerCommands(program: Command): void {
  void program;
}
