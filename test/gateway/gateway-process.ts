// A real `v2-bridge gateway` child process for tests that need restarts or several replicas:
// started with the given flags, its public and admin URLs read from its startup lines. Without the
// reference documents (a clone with nothing beside it) it runs with --no-validation, since these
// tests are about processes, not validation.
import { spawn, type ChildProcess } from "node:child_process";
import { BUILT_CLI } from "../helpers/cli.ts";
import { missingReference } from "../helpers/reference.ts";

export interface GatewayProcess {
  url: string;
  adminUrl: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL and an error after 15 s). */
  stop(): Promise<number | null>;
}

export async function startGatewayProcess(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [BUILT_CLI, "gateway", "--port", "0", ...(missingReference ? ["--no-validation"] : []), ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const urls = await new Promise<{ url: string; adminUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`gateway did not start within ${options.timeoutMs ?? 20_000} ms:\n${output}`)), options.timeoutMs ?? 20_000);
    const poll = setInterval(() => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const adminUrl = /admin listener[^:]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url && adminUrl) done(undefined, { url, adminUrl });
    }, 20);
    void exited.then((code) => done(new Error(`gateway exited with ${code} before listening:\n${output}`)));
    let settled = false;
    function done(err?: Error, value?: { url: string; adminUrl: string }) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      if (err) {
        child.kill("SIGKILL");
        reject(err);
      } else resolve(value!);
    }
  });
  return {
    ...urls,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 15_000))]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        throw new Error(`gateway still running 15 s after SIGTERM:\n${output}`);
      }
      return code;
    },
  };
}
