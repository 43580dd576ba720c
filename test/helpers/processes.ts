// Real CLI processes in tests: the URL a started server prints on its "listening on" line.
import type { ChildProcess } from "node:child_process";

/** Resolves with the first `listening on http://127.0.0.1:PORT` the process prints (stdout or stderr). */
export function waitForUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`no listening line within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
  });
}
