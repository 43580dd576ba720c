// `v2-bridge gateway --log` writes its request lines to stdout in batches (gateway/logging.ts):
// a line still shows up promptly when traffic is light, and none is lost when the process stops.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startGatewayProcess } from "./gateway-process.ts";

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
