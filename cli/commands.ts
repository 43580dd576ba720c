// Subcommand registry: one line per subcommand, each implemented in its own module.
import type { Command } from "commander";
import { registerAuditCommand } from "./audit-command.ts";
import { registerGatewayCommand } from "./gateway-command.ts";
import { registerMappingsCommand } from "./mappings-command.ts";
import { registerReportCommand } from "./report-command.ts";
import { registerRewriteCommand } from "./rewrite-command.ts";
import { registerSandboxCommand } from "./sandbox-command.ts";

export function registerCommands(program: Command): void {
  registerAuditCommand(program);
  registerGatewayCommand(program);
  registerMappingsCommand(program);
  registerReportCommand(program);
  registerRewriteCommand(program);
  registerSandboxCommand(program);
}
