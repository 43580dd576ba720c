// docs/migration-guide.md stays true to the CLI: every `npx v2-bridge <command> … --flag` it shows
// is a real command with that flag, the steps come in the documented order, and the mapping table is linked.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/cli.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const GUIDE = readFileSync(path.join(ROOT, "docs/migration-guide.md"), "utf8");
const run = promisify(execFile);

describe("docs/migration-guide.md", () => {
  it("walks the steps in order: audit, gateway, codemod, report to zero, remove the gateway", () => {
    const steps = [...GUIDE.matchAll(/^## (\d)\. (.+)$/gm)].map((m) => `${m[1]}. ${m[2]}`);
    expect(steps).toEqual([
      "1. Run the audit",
      "2. Put the gateway in front of legacy clients",
      "3. Rewrite code with the codemod",
      "4. Watch the report reach zero",
      "5. Remove the gateway",
    ]);
  });

  it("links the generated mapping table", () => {
    expect(GUIDE).toContain("](mapping.md)");
    expect(existsSync(path.join(ROOT, "docs/mapping.md"))).toBe(true);
  });

  it("uses only commands and flags the CLI has", { timeout: 60_000 }, async () => {
    const used = new Map<string, Set<string>>();
    // Shell lines (continuations joined) that run the CLI.
    const shell = GUIDE.replace(/\\\n\s*/g, " ");
    for (const m of shell.matchAll(/npx v2-bridge ([a-z]+)([^\n`]*)/g)) {
      const flags = used.get(m[1]!) ?? new Set<string>();
      // Flags after a lone `--` belong to the command verify runs, not to v2-bridge.
      for (const f of m[2]!.split("#")[0]!.split(/\s--(?:\s|$)/)[0]!.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)) flags.add(f[1]!);
      used.set(m[1]!, flags);
    }
    expect([...used.keys()].sort()).toEqual(expect.arrayContaining(["audit", "gateway", "report", "rewrite"]));
    for (const [command, flags] of used) {
      const { stdout } = await run(process.execPath, [BUILT_CLI, command, "--help"], { cwd: ROOT, timeout: 30_000 });
      expect(stdout, `v2-bridge ${command} --help`).toMatch(new RegExp(`^Usage: v2-bridge ${command}\\b`));
      for (const flag of flags) expect(stdout, `v2-bridge ${command} ${flag}`).toMatch(new RegExp(`(^|[\\s,])${flag}\\b`));
    }
  });
});
