// One rule for environment reads (codemod/engine/env-reads.ts): the forms each runtime uses, and
// what is not a read of one variable.
import { describe, expect, it } from "vitest";
import { envKey, envRead, readOfEnvKey } from "../../codemod/engine/env-reads.ts";

describe("envRead", () => {
  it.each([
    ["process.env.RUNPOD_BASE", "process.env", "RUNPOD_BASE"],
    ['process.env["RUNPOD_BASE"]', "process.env", "RUNPOD_BASE"],
    ["process.env[ 'RUNPOD_BASE' ]", "process.env", "RUNPOD_BASE"],
    ["import.meta.env.VITE_RUNPOD_BASE", "import.meta.env", "VITE_RUNPOD_BASE"],
    ["Bun.env.RUNPOD_BASE", "Bun.env", "RUNPOD_BASE"],
    ['Deno.env.get("RUNPOD_BASE")', "Deno.env", "RUNPOD_BASE"],
    ["Deno.env.get( 'RUNPOD_BASE' )", "Deno.env", "RUNPOD_BASE"],
  ])("%s reads %s %s", (text, root, name) => {
    const read = envRead(text);
    expect(read).toEqual({ root, name });
    expect(readOfEnvKey(envKey(read!))).toEqual(read);
  });

  it.each(["process.env", "process.env[name]", "config.env.RUNPOD_BASE", "Deno.env.RUNPOD_BASE", "Deno.env.get(name)", "process.env.RUNPOD_BASE.trim()", "import.meta.env"])("%s is not a read of one variable", (text) => {
    expect(envRead(text)).toBeNull();
  });
});
