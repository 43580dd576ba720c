// Subcommand registry: one entry per subcommand, each implemented in its own module. Only the
// module of the subcommand being run is loaded (the gateway and sandbox pull in fastify, pino,
// ajv, undici, prom-client…; the report tool its renderer), so `v2-bridge audit` starts without
// them. The other subcommands are listed by name and summary for `--help`.
import type { Command } from "commander";

type Register = (program: Command) => void;

export const COMMANDS: { name: string; summary: string; load: () => Promise<Register> }[] = [
  { name: "audit", summary: "List remaining v1 usage (exit 0: none, 1: some, 2: error)", load: async () => (await import("./audit-command.ts")).registerAuditCommand },
  { name: "gateway", summary: "Run the v1→v2 translating gateway", load: async () => (await import("./gateway-command.ts")).registerGatewayCommand },
  { name: "mappings", summary: "Print the v1→v2 mapping table", load: async () => (await import("./mappings-command.ts")).registerMappingsCommand },
  { name: "reference", summary: "Show where the v1/v2 reference documents are read from; `reference fetch` downloads them", load: async () => (await import("./reference-command.ts")).registerReferenceCommand },
  { name: "report", summary: "Write an HTML migration report (code call sites + live gateway traffic)", load: async () => (await import("./report-command.ts")).registerReportCommand },
  { name: "rewrite", summary: "Rewrite v1 client code to call v2 (dry run unless --write)", load: async () => (await import("./rewrite-command.ts")).registerRewriteCommand },
  { name: "sandbox", summary: "Run a local, strict, stateful v2 API (in-memory)", load: async () => (await import("./sandbox-command.ts")).registerSandboxCommand },
  { name: "verify", summary: "Run the client's own command before and after the rewrite against local servers and compare (exit 0: equivalent, 1: different, 2: error)", load: async () => (await import("./verify-command.ts")).registerVerifyCommand },
];

/** The subcommand an argv (`node script …args`) runs: the first operand, or the one after `help`. */
export function subcommandOf(argv: string[]): string | undefined {
  const operands = argv.slice(2).filter((a) => !a.startsWith("-"));
  return operands[0] === "help" ? operands[1] : operands[0];
}

/**
 * Registers every subcommand. With argv, only the subcommand it names is loaded in full; the
 * others get a placeholder carrying their summary (enough for `v2-bridge --help`).
 */
export async function registerCommands(program: Command, argv?: string[]): Promise<void> {
  const wanted = argv ? subcommandOf(argv) : undefined;
  for (const c of COMMANDS) {
    if (!argv || c.name === wanted) {
      (await c.load())(program);
      program.commands.at(-1)!.summary(c.summary);
    } else {
      program.command(c.name).summary(c.summary).description(c.summary).allowUnknownOption().allowExcessArguments();
    }
  }
}
