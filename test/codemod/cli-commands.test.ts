// The CLI loads only the invoked subcommand's module; the registry must name each module's command.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMANDS, registerCommands, subcommandOf } from "../../cli/commands.ts";

describe("lazy subcommand registry", () => {
  it("finds the subcommand in argv (also after `help`)", () => {
    expect(subcommandOf(["node", "v2-bridge", "audit", "src", "--format", "json"])).toBe("audit");
    expect(subcommandOf(["node", "v2-bridge", "help", "rewrite"])).toBe("rewrite");
    expect(subcommandOf(["node", "v2-bridge", "--help"])).toBeUndefined();
  });

  it("each registry entry's module registers the command of that name", async () => {
    for (const c of COMMANDS) {
      const program = new Command();
      (await c.load())(program);
      expect(program.commands.map((x) => x.name())).toEqual([c.name]);
    }
  });

  it("with argv, the named command is complete and the others are placeholders", async () => {
    const program = new Command();
    await registerCommands(program, ["node", "v2-bridge", "audit", "."]);
    const audit = program.commands.find((c) => c.name() === "audit")!;
    expect(audit.options.map((o) => o.long)).toContain("--format");
    expect(program.commands.map((c) => c.name()).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });
});
