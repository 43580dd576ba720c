// Operator pages (usage, metrics, live report) are not for the clients' network: by default they
// answer only on the admin listener (loopback), the public port says v1 404 (health stays public
// for load balancers), and on the public port they exist only behind --admin-token.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../gateway/config.ts";
import { envOptions } from "../helpers/gateway-flags.ts";
import { BUILT_CLI } from "../helpers/cli.ts";
import { fetchUsage } from "../../report/index.ts";
import { rawRequest, startRig, type Rig } from "./helpers.ts";

const PAGES = ["/_bridge/usage", "/_bridge/metrics", "/_bridge/"];
const TOKEN = "operator-token-0123456789abcdef";

describe("default: operator pages on the admin listener only", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig();
    await fetch(rig.gateway.url + "/v1/pods", { headers: { authorization: "Bearer sandbox_admin_test" } });
  });
  afterAll(() => rig?.close());

  it("the public port answers v1 404 for every operator page, and health", async () => {
    for (const page of PAGES) {
      const r = await rawRequest(rig.gateway.url, "GET", page);
      expect([page, r.status, r.headers.get("content-type")]).toEqual([page, 404, "application/json; charset=utf-8"]);
      expect(Object.keys(r.json)).toEqual(["message"]);
    }
    const health = await rawRequest(rig.gateway.url, "GET", "/_bridge/health");
    expect([health.status, health.json.status]).toEqual([200, "ok"]);
  });

  it("the admin listener is on loopback, on its own port, and serves them all", async () => {
    const address = rig.gateway.adminApp.server.address() as { address: string; port: number };
    expect(address.address).toBe("127.0.0.1");
    expect(rig.gateway.adminPort).not.toBe(rig.gateway.port);
    for (const page of [...PAGES, "/_bridge/health"]) {
      const r = await rawRequest(rig.gateway.adminUrl, "GET", page);
      expect([page, r.status]).toEqual([page, 200]);
    }
    const usage = await rawRequest(rig.gateway.adminUrl, "GET", "/_bridge/usage");
    expect(usage.json.operations.map((o: { key: string }) => o.key)).toEqual(["ListPods"]);
    // and it is not a second gateway: no v1 there
    expect((await rawRequest(rig.gateway.adminUrl, "GET", "/v1/pods")).status).toBe(404);
  });

  it("report --traffic reads the admin URL; the public URL gets a hint where to look", async () => {
    expect((await fetchUsage(rig.gateway.adminUrl)).totals.requests).toBe(1);
    await expect(fetchUsage(rig.gateway.url)).rejects.toThrow(/HTTP 404 \(the operator pages are served on the gateway's admin port/);
  });
});

describe("--admin-on-public with --admin-token", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({ gateway: { adminOnPublic: true, adminToken: TOKEN } });
    await fetch(rig.gateway.url + "/v1/pods", { headers: { authorization: "Bearer sandbox_admin_test" } });
  });
  afterAll(() => rig?.close());

  it("every page needs the bearer token, on both listeners; health does not", async () => {
    for (const base of [rig.gateway.url, rig.gateway.adminUrl]) {
      for (const page of PAGES) {
        for (const authorization of [undefined, "Bearer wrong-token-0123456789abc", `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
          const r = await rawRequest(base, "GET", page, { headers: authorization ? { authorization } : {} });
          expect([page, authorization, r.status]).toEqual([page, authorization, 401]);
          expect(r.headers.get("www-authenticate")).toMatch(/^Bearer /);
          expect(typeof r.json.message).toBe("string");
        }
        const ok = await rawRequest(base, "GET", page, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect([base, page, ok.status]).toEqual([base, page, 200]);
      }
      expect((await rawRequest(base, "GET", "/_bridge/health")).status).toBe(200);
    }
  });

  it("report --traffic works with the token and says what is missing without it", async () => {
    expect((await fetchUsage(rig.gateway.url, undefined, TOKEN)).totals.requests).toBe(1);
    await expect(fetchUsage(rig.gateway.url)).rejects.toThrow(/HTTP 401 \(this gateway's operator pages need a token/);
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), "v2b-admin-")), "report.html");
    // Asynchronous: the gateway answering it lives in this process.
    const cli = await promisify(execFile)(process.execPath, [BUILT_CLI, "report", "--traffic", rig.gateway.adminUrl, "--out", out], {
      env: { ...process.env, V2_BRIDGE_ADMIN_TOKEN: TOKEN },
      timeout: 30_000,
    });
    expect(cli.stderr).toMatch(/1 live requests from 1 clients/);
    expect(readFileSync(out, "utf8")).toContain("ListPods");
  });
});

describe("admin configuration", () => {
  const base = { upstream: "http://127.0.0.1:9" };
  it("admin port defaults to port + 1 on loopback, any free port with port 0", () => {
    expect(resolveConfig({ ...base, port: 8080 })).toMatchObject({ adminPort: 8081, adminHost: "127.0.0.1", adminOnPublic: false });
    expect(resolveConfig({ ...base, port: 0 }).adminPort).toBe(0);
    expect(resolveConfig({ ...base, port: 8080, adminPort: 9100, adminHost: "0.0.0.0" })).toMatchObject({ adminPort: 9100, adminHost: "0.0.0.0" });
  });

  it("refuses the public port without a token, short tokens, and a shared port", () => {
    expect(() => resolveConfig({ ...base, adminOnPublic: true })).toThrow(ConfigError);
    expect(() => resolveConfig({ ...base, adminOnPublic: true, adminToken: "short" })).toThrow(/at least 16/);
    expect(() => resolveConfig({ ...base, port: 8080, adminPort: 8080 })).toThrow(/must differ/);
  });

  it("reads the switches from the environment", () => {
    expect(envOptions({ V2_BRIDGE_ADMIN_ON_PUBLIC: "1", V2_BRIDGE_ADMIN_TOKEN: TOKEN, V2_BRIDGE_ADMIN_PORT: "9100" })).toEqual({ adminOnPublic: true, adminToken: TOKEN, adminPort: 9100 });
    expect(envOptions({ V2_BRIDGE_ADMIN_ON_PUBLIC: "0" })).toEqual({ adminOnPublic: false });
  });
});
