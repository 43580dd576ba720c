// Loading and validating the two inputs from real files and over loopback HTTP, and the CLI's
// exit code 2 with a clear message on malformed input.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAudit, checkUsage, fetchUsage, loadAudit, loadAudits, loadTraffic, ReportInputError, usageUrl } from "../../report/index.ts";
import { BUILT_CLI } from "../helpers/cli.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const FIX = path.join(here, "fixtures");
const ROOT = path.resolve(here, "../..");
const CLI = BUILT_CLI;
const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIX, name), "utf8"));

describe("report inputs", () => {
  let dir: string;
  let server: Server;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "v2-bridge-report-"));
    server = createServer((req, res) => {
      hits.push(req.url ?? "");
      if (req.url === "/_bridge/usage") {
        res.setHeader("content-type", "application/json");
        res.end(readFileSync(path.join(FIX, "usage.json")));
      } else if (req.url === "/broken/_bridge/usage") {
        res.end("{not json");
      } else {
        res.statusCode = 404;
        res.end('{"message":"no route"}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("the fixtures satisfy the schemas", () => {
    for (const f of ["audit-2026-10-01.json", "audit-2026-10-20.json", "audit-2026-11-10.json"]) expect(checkAudit(fixture(f))).toEqual({ ok: true });
    expect(checkUsage(fixture("usage.json"))).toEqual({ ok: true });
  });

  it("schema errors name the place and the problem", () => {
    const a = fixture("audit-2026-11-10.json");
    a.findings[2].category = "maybe";
    a.findings[0].line = "12";
    const r = checkAudit(a);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual(
      expect.arrayContaining(["/findings/0/line must be integer", expect.stringMatching(/^\/findings\/2\/category must be equal to one of the allowed values/)]),
    );
    const u = fixture("usage.json");
    delete u.totals;
    u.operations[0].statuses = { ok: 1 };
    const ru = checkUsage(u);
    expect(!ru.ok && ru.errors.join("\n")).toMatch(/must have required property 'totals'/);
    expect(!ru.ok && ru.errors.join("\n")).toMatch(/\/operations\/0\/statuses/);
    expect(checkUsage({ ...fixture("usage.json"), generatedAt: "yesterday" }).ok).toBe(false);
    expect(checkAudit({ ...fixture("audit-2026-11-10.json"), tool: "other" }).ok).toBe(false);
  });

  it("loads audits from disk sorted by generatedAt", async () => {
    const audits = await loadAudits(["audit-2026-11-10.json", "audit-2026-10-01.json", "audit-2026-10-20.json"].map((f) => path.join(FIX, f)));
    expect(audits.map((a) => a.generatedAt)).toEqual(["2026-10-01T09:30:00Z", "2026-10-20T09:30:00Z", "2026-11-10T09:30:00Z"]);
  });

  it("rejects missing, non-JSON and wrong-shape files with a ReportInputError naming the file", async () => {
    await expect(loadAudit(path.join(dir, "nope.json"))).rejects.toThrow(/cannot read audit file .*nope\.json: no such file/);
    writeFileSync(path.join(dir, "bad.json"), "{oops");
    await expect(loadAudit(path.join(dir, "bad.json"))).rejects.toThrow(ReportInputError);
    await expect(loadAudit(path.join(dir, "bad.json"))).rejects.toThrow(/bad\.json is not valid JSON/);
    await expect(loadAudit(path.join(FIX, "usage.json"))).rejects.toThrow(/is not a v2-bridge audit[\s\S]*must have required property 'tool'/);
    await expect(loadTraffic(path.join(FIX, "audit-2026-11-10.json"))).rejects.toThrow(/is not a gateway usage snapshot/);
  });

  it("--traffic URL: fetches <url>/_bridge/usage over HTTP", async () => {
    expect(usageUrl("http://h:1")).toBe("http://h:1/_bridge/usage");
    expect(usageUrl("http://h:1/")).toBe("http://h:1/_bridge/usage");
    expect(usageUrl("http://h:1/gw/_bridge/")).toBe("http://h:1/gw/_bridge/usage");
    expect(usageUrl("http://h:1/_bridge/usage?x=1")).toBe("http://h:1/_bridge/usage");
    const u = await loadTraffic(base);
    expect(u.totals.requests).toBe(61);
    expect(hits).toContain("/_bridge/usage");
    await expect(fetchUsage(`${base}/broken`)).rejects.toThrow(/gateway usage from .*\/broken\/_bridge\/usage is not valid JSON/);
    await expect(fetchUsage(`${base}/elsewhere`)).rejects.toThrow(/answered HTTP 404/);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchUsage(`http://127.0.0.1:${port}`)).rejects.toThrow(
      new RegExp(`cannot fetch gateway usage from http://127\\.0\\.0\\.1:${port}/_bridge/usage: ECONNREFUSED`),
    );
  });

  it("CLI: writes the page and exits 0 (file inputs)", async () => {
    const out = path.join(dir, "sub", "report.html");
    const r = await cli(["report", "--code", path.join(FIX, "audit-2026-11-10.json"), "--traffic", path.join(FIX, "usage.json"), "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*report\.html \(9 call sites in code, 61 live requests from 3 clients/);
    expect(readFileSync(out, "utf8")).toMatch(/^<!doctype html>/);
  });

  it("CLI: traffic from a URL, HTML to standard output", async () => {
    const r = await cli(["report", "--traffic", base]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("k_3fa9c2e1b0d4");
  });

  it("CLI: --mapping-href goes through the links' check: a javascript: or data: href exits 2 with one line and is never written; an https one is the link", async () => {
    const code = ["--code", path.join(FIX, "audit-2026-11-10.json")];
    const out = path.join(dir, "href-javascript.html");
    const js = await cli(["report", ...code, "--mapping-href", " JavaScript:alert(document.domain)//", "--out", out]);
    expect([js.code, js.stdout, js.stderr]).toEqual([2, "", "v2-bridge report: --mapping-href must be an http://, https:// or file:// URL; the one given is a javascript: URL, refused\n"]);
    expect(() => readFileSync(out)).toThrow();
    // To standard output: refused the same way, nothing printed.
    const data = await cli(["report", ...code, "--mapping-href", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="]);
    expect([data.code, data.stdout, data.stderr]).toEqual([2, "", "v2-bridge report: --mapping-href must be an http://, https:// or file:// URL; the one given is a data: URL, refused\n"]);
    const linkBase = await cli(["report", ...code, "--link-base", "javascript:alert(1)//"]);
    expect([linkBase.code, linkBase.stderr]).toEqual([2, "v2-bridge report: --link-base must be an http://, https:// or file:// URL; the one given is a javascript: URL, refused\n"]);

    const ok = await cli(["report", ...code, "--mapping-href", "https://git.example/repo/blob/main/docs/mapping.md?a=1&b=2"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('<a href="https://git.example/repo/blob/main/docs/mapping.md?a=1&amp;b=2">mapping table</a>');
  }, 120_000); // four CLI runs

  it("CLI: malformed input exits 2 with a clear message and writes nothing", async () => {
    const bad = path.join(dir, "bad-audit.json");
    const a = fixture("audit-2026-11-10.json");
    a.findings[0].category = "maybe";
    writeFileSync(bad, JSON.stringify(a));
    const out = path.join(dir, "never.html");
    const r = await cli(["report", "--code", bad, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^v2-bridge report: audit file .*bad-audit\.json is not a v2-bridge audit/);
    expect(r.stderr).toMatch(/\/findings\/0\/category must be equal to one of the allowed values \("auto", "review", "no-equivalent"\)/);
    expect(() => readFileSync(out)).toThrow();

    const notJson = await cli(["report", "--traffic", path.join(dir, "bad.json")]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/usage file .*bad\.json is not valid JSON/);

    const none = await cli(["report"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give at least one input/);
  });
});
