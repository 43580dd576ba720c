// `--audit`: the live page at GET /_bridge/ joins a static audit with the gateway's own traffic,
// re-reads the file on each view, and refuses to start on a malformed audit.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { ConfigError } from "../../gateway/config.ts";
import { startSandbox } from "../../sandbox/server.ts";

const dir = mkdtempSync(path.join(tmpdir(), "v2-bridge-live-audit-"));
const auditFile = path.join(dir, "audit.json");

function audit(file: string) {
  return {
    tool: "v2-bridge",
    version: 1,
    generatedAt: new Date().toISOString(),
    root: dir,
    summary: { files: 1, filesWithFindings: 1, findings: 1, byCategory: { auto: 0, review: 0, "no-equivalent": 1 } },
    findings: [
      {
        file,
        line: 7,
        column: 3,
        operation: "ResetPod",
        v1: { method: "POST", path: "/pods/{podId}/reset" },
        v2: null,
        category: "no-equivalent",
        reason: "pod reset has no v2 equivalent",
        advice: "stop then start",
        snippet: "await fetch(`${BASE}/pods/${id}/reset`, { method: \"POST\" })",
      },
    ],
  };
}

describe("live report with --audit", () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let gateway: Gateway;

  beforeAll(async () => {
    writeFileSync(auditFile, JSON.stringify(audit("src/first.ts")));
    sandbox = await startSandbox({ port: 0 });
    gateway = await startGateway({ port: 0, upstream: sandbox.url, auditFile });
  });
  afterAll(async () => {
    await gateway?.close();
    await sandbox?.close();
  });

  it("shows the audit's call sites next to live calls, and picks up a rewritten file", async () => {
    await fetch(`${gateway.url}/v1/pods/abc/reset`, { method: "POST", headers: { authorization: "Bearer sandbox_demo" } });
    let html = await (await fetch(`${gateway.adminUrl}/_bridge/`)).text();
    expect(html).toContain("src/first.ts");
    expect(html).toContain("ResetPod");
    writeFileSync(auditFile, JSON.stringify(audit("src/second.ts")));
    html = await (await fetch(`${gateway.adminUrl}/_bridge/`)).text();
    expect(html).toContain("src/second.ts");
    writeFileSync(auditFile, "{ not json");
    const res = await fetch(`${gateway.adminUrl}/_bridge/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("src/second.ts");
  });

  it("refuses to start with a malformed audit file", async () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ tool: "v2-bridge", findings: "nope" }));
    await expect(startGateway({ port: 0, upstream: sandbox.url, auditFile: bad })).rejects.toBeInstanceOf(ConfigError);
  });
});
