// Runs the client's command once, in its own process group (so a time limit stops everything it
// started), with its output captured, and reads back the events its Node processes recorded.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { VerifyEvent } from "./preload/protocol.ts";

export type CommandRun = {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Could not start at all (command not found…). */
  spawnError?: string;
  /** verify itself was interrupted (SIGINT/SIGTERM) while the command ran. */
  interrupted?: NodeJS.Signals;
  stdout: string;
  stderr: string;
  durationMs: number;
  events: VerifyEvent[];
};

/** Output kept per stream (a test suite can print a lot); the rest is cut with a note. */
const MAX_OUTPUT = 4 * 1024 * 1024;
/** After the command exits, how long its output may take to close before leftovers are stopped. */
const CLOSE_GRACE_MS = 2_000;

export function runCommand(command: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; eventsFile: string; echo?: (chunk: string) => void }): Promise<CommandRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const out = { stdout: "", stderr: "" };
    let timedOut = false;
    let spawnError: string | undefined;
    const child = spawn(command[0]!, command.slice(1), { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    const keep = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      const text = chunk.toString();
      options.echo?.(text);
      if (out[stream].length < MAX_OUTPUT) out[stream] += text.slice(0, MAX_OUTPUT - out[stream].length);
    };
    child.stdout.on("data", keep("stdout"));
    child.stderr.on("data", keep("stderr"));
    const stopGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(process.platform === "win32" ? child.pid : -child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup("SIGKILL");
    }, options.timeoutMs);
    // Interrupted (Ctrl-C): the command's group is stopped too, and the run ends as interrupted
    // (verify then removes its temporary trees and stops its servers before exiting).
    let interruptedBy: NodeJS.Signals | undefined;
    const interrupted = (signal: NodeJS.Signals) => {
      interruptedBy = signal;
      stopGroup(signal);
    };
    const signals = ["SIGINT", "SIGTERM"] as const;
    for (const sig of signals) process.once(sig, interrupted);
    let exit: { code: number | null; signal: string | null } | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const sig of signals) process.off(sig, interrupted);
      stopGroup("SIGTERM"); // anything the command left running in the background
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        ...(spawnError ? { spawnError } : {}),
        ...(interruptedBy ? { interrupted: interruptedBy } : {}),
        stdout: out.stdout,
        stderr: out.stderr,
        durationMs: performance.now() - started,
        events: readEvents(options.eventsFile),
      });
    };
    child.on("error", (error) => {
      spawnError = error.message;
      finish();
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      setTimeout(finish, CLOSE_GRACE_MS).unref();
    });
    child.on("close", () => exit && finish());
  });
}

function readEvents(file: string): VerifyEvent[] {
  if (!existsSync(file)) return [];
  const events: VerifyEvent[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    try {
      events.push(JSON.parse(line) as VerifyEvent);
    } catch {
      // a line cut short by a killed process
    }
  }
  return events;
}
