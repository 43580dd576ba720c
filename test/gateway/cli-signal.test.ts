// The gateway as an operator runs it: a real `v2-bridge gateway` process that serves a v1 call
// and exits 0 on SIGTERM (Kubernetes' stop signal) after finishing in-flight work and saving usage.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/cli.ts";
import { waitForUrl } from "../helpers/processes.ts";
import { missingReference } from "../helpers/reference.ts";

describe("v2-bridge gateway process", () => {
  it("serves v1 over the embedded sandbox and exits 0 on SIGTERM", async () => {
    // In a scratch directory: the command keeps its state (salt, usage store) under ./.v2-bridge.
    const cwd = mkdtempSync(path.join(os.tmpdir(), "v2b-gateway-"));
    // Without the reference documents (a clone with no ../shared) the gateway starts only unvalidated.
    const args = ["gateway", "--port", "0", ...(missingReference ? ["--no-validation"] : [])];
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await waitForUrl(child, 20_000);
      const res = await fetch(`${url}/v1/pods`, { headers: { authorization: "Bearer sandbox_demo" } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("still running after 15 s"), 15_000))]);
      expect(code).toBe(0);
      // The command's default state directory: the salt and the usage of that one call, saved on the way out.
      const saved = JSON.parse(readFileSync(path.join(cwd, ".v2-bridge", "usage.json"), "utf8"));
      expect(saved.operations.map((o: { key: string; count: number }) => [o.key, o.count])).toEqual([["ListPods", 1]]);
      expect(existsSync(path.join(cwd, ".v2-bridge", "fingerprint-salt"))).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
