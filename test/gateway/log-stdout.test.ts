// `v2-bridge gateway --log` writes its request lines to stdout in batches
// (gateway/observability/log-stdout.ts): a line still shows up promptly when traffic is light, none
// is lost when the process stops or its reader falls behind, and a reader that goes away stops
// the logging, not the process.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { startGatewayProcess } from "./gateway-process.ts";

/** A process writing `lines` numbered lines through BatchedStdout, then exiting 0 (or 3 if a write threw). */
function writer(lines: number) {
  const script = `
    const { BatchedStdout } = await import(${JSON.stringify(path.join(REPO_ROOT, "gateway/observability/log-stdout.ts"))});
    const out = new BatchedStdout();
    const pad = "x".repeat(200);
    try { for (let i = 0; i < ${lines}; i++) out.write(JSON.stringify({ i, pad }) + "\\n"); } catch { process.exit(3); }
    process.stderr.write("written\\n");`;
  return spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
}

const completed = (output: string) =>
  output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "request completed");

describe("gateway --log on stdout", () => {
  it("a lone request's line appears within a second; every line is written by the time the process exits", async () => {
    const gateway = await startGatewayProcess(["--log"], { cwd: mkdtempSync(path.join(os.tmpdir(), "v2b-log-")) });
    try {
      const auth = { authorization: "Bearer sandbox_log_test" };
      expect((await fetch(`${gateway.url}/v1/pods`, { headers: { ...auth, "x-request-id": "lone-1" } })).status).toBe(200);
      const started = Date.now();
      while (!completed(gateway.output()).some((l) => l.reqId === "lone-1") && Date.now() - started < 3_000) await new Promise((r) => setTimeout(r, 20));
      expect(Date.now() - started).toBeLessThan(1_000);

      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const id = `burst-${i}`;
        ids.push(id);
        const path = i % 2 ? "/v1/pods" : "/v2/pods";
        expect((await fetch(gateway.url + path, { headers: { ...auth, "x-request-id": id } })).status).toBe(200);
      }
      expect(await gateway.stop()).toBe(0);
      const seen = new Set(completed(gateway.output()).map((l) => l.reqId));
      for (const id of ids) expect(seen.has(id), id).toBe(true);
    } finally {
      await gateway.stop().catch(() => {});
    }
  });
});

describe("batched stdout", () => {
  it("a reader that falls behind gets every line, in order (the writer waits for a full pipe)", async () => {
    const child = writer(20_000); // ~4.6 MB: far more than a pipe holds
    child.stdout.pause();
    await new Promise((r) => setTimeout(r, 500));
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (text += c));
    child.stdout.resume();
    const code = await new Promise((r) => child.once("close", r));
    expect(code).toBe(0);
    const seen = text.trim().split("\n").map((l) => JSON.parse(l).i);
    expect(seen).toHaveLength(20_000);
    expect(seen.every((n: number, i: number) => n === i)).toBe(true);
  });

  it("a reader that goes away stops the logging, not the process", async () => {
    const child = writer(20_000);
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise((r) => child.once("close", r));
    expect(stderr).toContain("written");
    expect(code).toBe(0);
  });
});
