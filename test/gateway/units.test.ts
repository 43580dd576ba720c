// Unit checks of the gateway's small parts: emulation coverage, headers, usage bounds, config,
// fingerprints and upstream path safety.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseItem } from "structured-headers";
import { describe, expect, it } from "vitest";
import { emulations, operations } from "../../mappings/index.ts";
import { emulationImplementations } from "../../gateway/emulations/index.ts";
import { resolveConfig, ConfigError } from "../../gateway/config.ts";
import { envOptions } from "../helpers/gateway-flags.ts";
import { createFingerprinter } from "../../gateway/usage/fingerprint.ts";
import { DEPRECATION_VALUE, SUNSET_VALUE, successorLink, warningHeader } from "../../gateway/upstream/headers.ts";
import { UsageStore } from "../../gateway/usage/usage.ts";
import { REPO_ROOT } from "../../openapi/reference.ts";

describe("emulations", () => {
  it("every emulation the mapping table names has an implementation in its own file", () => {
    for (const spec of emulations) {
      expect(emulationImplementations[spec.name], spec.name).toBeDefined();
      const file = spec.name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
      expect(existsSync(path.join(REPO_ROOT, "gateway", "emulations", `${file}.ts`)), `gateway/emulations/${file}.ts`).toBe(true);
    }
    expect(Object.keys(emulationImplementations).sort()).toEqual(emulations.map((e) => e.name).sort());
    for (const op of operations) for (const name of op.emulations ?? []) expect(emulationImplementations[name], `${op.key} → ${name}`).toBeDefined();
  });
});

describe("headers", () => {
  it("Deprecation is an RFC 9745 structured date for 2026-11-15T00:00:00Z; Sunset an HTTP-date", () => {
    expect(Date.UTC(2026, 10, 15) / 1000).toBe(1794700800);
    expect(DEPRECATION_VALUE).toBe("@1794700800");
    const [value] = parseItem(DEPRECATION_VALUE);
    expect((value as Date).toISOString()).toBe("2026-11-15T00:00:00.000Z");
    expect(SUNSET_VALUE).toBe("Sun, 15 Nov 2026 00:00:00 GMT");
    expect(successorLink("https://api.runpod.io", "/v2/pods/abc")).toBe('<https://api.runpod.io/v2/pods/abc>; rel="successor-version"');
    expect(successorLink("https://api.runpod.io", null)).toBe('<https://api.runpod.io/openapi.json>; rel="successor-version"');
  });

  it("V2-Bridge-Warning is a structured list of ASCII strings", () => {
    expect(warningHeader([])).toBeNull();
    expect(warningHeader(['a "quoted"', "ünïcode", "a \"quoted\""])).toBe('"a \\"quoted\\"", "?n?code"');
  });

  it("V2-Bridge-Warning of a repeated warning list is remembered, and lists that join alike stay apart", () => {
    expect(warningHeader(["a,b"])).toBe('"a,b"');
    expect(warningHeader(["a,b"])).toBe('"a,b"');
    expect(warningHeader(["a", "b"])).toBe('"a", "b"');
    expect(warningHeader(["1:a", "b"])).toBe('"1:a", "b"');
    expect(warningHeader(["1:a1:b"])).toBe('"1:a1:b"');
    expect(warningHeader(["a\nb"])).toBe('"a?b"');
  });
});

describe("usage store", () => {
  const op = (key: string) => ({ key, v1: { method: "GET", path: `/${key}` } });

  it("bounds clients (LRU) and operations per client, counting evictions", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const store = new UsageStore(2, 2, () => now++);
    store.record(op("A"), "k_1", "ua", 200);
    store.record(op("B"), "k_2", "ua", 200);
    store.record(op("A"), "k_1", "ua", 200); // k_1 most recent
    store.record(op("C"), "k_3", "ua", 404); // evicts k_2
    store.record(op("B"), "k_1", "ua", 200);
    store.record(op("C"), "k_1", "ua", 200); // evicts k_1's oldest op (A)
    const snap = store.snapshot();
    expect(snap.totals).toEqual({ requests: 6, clients: 2, evictedClients: 1 });
    expect(snap.clients.map((c) => c.fingerprint).sort()).toEqual(["k_1", "k_3"]);
    expect(Object.keys(snap.clients.find((c) => c.fingerprint === "k_1")!.operations).sort()).toEqual(["B", "C"]);
    const c = snap.operations.find((o) => o.key === "C")!;
    expect(c).toMatchObject({ v1: { method: "GET", path: "/C" }, count: 2, clients: 2, statuses: { "200": 1, "404": 1 } });
    expect(new Date(c.firstSeen).toISOString()).toBe(c.firstSeen);
  });

  it("the same key with another User-Agent is another client", () => {
    const store = new UsageStore(10, 10);
    store.record(op("A"), "k_1", "curl", 200);
    store.record(op("A"), "k_1", "python", 200);
    expect(store.snapshot().clients.map((c) => c.userAgent).sort()).toEqual(["curl", "python"]);
  });
});

describe("fingerprints", () => {
  it("are salted, short and never the key; anonymous without a key", () => {
    const f = createFingerprinter("salt");
    expect(f.short(undefined)).toBe("anonymous");
    expect(f.short("Bearer sandbox_secret")).toMatch(/^k_[0-9a-f]{12}$/);
    expect(f.short("Bearer sandbox_secret")).toBe(f.short("bearer  sandbox_secret"));
    expect(f.short("Bearer sandbox_secret")).not.toBe(createFingerprinter("other").short("Bearer sandbox_secret"));
    expect(f.cacheKey("Bearer a")).not.toBe(f.cacheKey("Bearer b"));
    expect(f.cacheKey("Bearer a")).toHaveLength(64);
  });
});

describe("config", () => {
  it("reads V2_BRIDGE_* variables and validates", () => {
    const env = { V2_BRIDGE_PORT: "9090", V2_BRIDGE_UPSTREAM: "https://api.runpod.io/some/path", V2_BRIDGE_RESET_POLICY: "restart", V2_BRIDGE_TIMEOUT_MS: "1500" };
    const config = resolveConfig(envOptions(env));
    expect(config).toMatchObject({ port: 9090, resetPolicy: "restart", timeoutMs: 1500 });
    expect(config.upstream.href).toBe("https://api.runpod.io/");
    expect(() => resolveConfig({ upstream: "ftp://x" })).toThrow(ConfigError);
    expect(() => resolveConfig({ upstream: "http://u:p@x" })).toThrow(/credentials/);
    expect(() => resolveConfig({ upstream: "http://x", port: 70000 })).toThrow(/port/);
    expect(() => resolveConfig({ upstream: "http://x", resetPolicy: "wipe" as any })).toThrow(/reset policy/);
    expect(() => resolveConfig({})).toThrow(/upstream is required/);
  });
});

describe("catalog cache", () => {
  it("is keyed per API key and never serves one key's catalog to another", async () => {
    const { CatalogCache } = await import("../../gateway/upstream/catalog-cache.ts");
    const calls: string[] = [];
    const fake = {
      request: async (req: { authorization?: string; path: string }) => {
        calls.push(`${req.authorization ?? ""} ${req.path}`);
        const pool = req.authorization === "Bearer a" ? "POOL_A" : "POOL_B";
        const json = req.path === "/v2/catalog/cpus" ? { cpus: [{ id: "C", price: { securePerVcpu: 0.5 } }] } : { gpus: [{ id: "G", pool }] };
        return { status: 200, headers: {}, json, text: "", contentType: "application/json", durationMs: 0 };
      },
    };
    const f = createFingerprinter("s");
    const cache = new CatalogCache(fake as any, 10, 60_000);
    const a = await cache.get(f.cacheKey("Bearer a"), "Bearer a", "r1");
    const b = await cache.get(f.cacheKey("Bearer b"), "Bearer b", "r2");
    const a2 = await cache.get(f.cacheKey("Bearer a"), "Bearer a", "r3");
    expect([a.poolOfGpuType("G"), b.poolOfGpuType("G"), a2.poolOfGpuType("G")]).toEqual(["POOL_A", "POOL_B", "POOL_A"]);
    expect(calls).toEqual(["Bearer a /v2/catalog/gpus", "Bearer a /v2/catalog/cpus", "Bearer b /v2/catalog/gpus", "Bearer b /v2/catalog/cpus"]);
    expect(a.hourlyRate!({ cpu: { id: "C", vcpuCount: 4 }, cloud: "SECURE" })).toBe(2);
  });
});

describe("logs", () => {
  it("redact the API key", async () => {
    const { startGateway } = await import("../../gateway/server.ts");
    const { Writable } = await import("node:stream");
    let out = "";
    const stream = new Writable({ write: (chunk, _enc, done) => ((out += chunk.toString()), done()) });
    const g = await startGateway({ upstream: "http://127.0.0.1:9", port: 0, timeoutMs: 200, logger: { level: "trace", stream, serializers: { req: (req: any) => ({ method: req.method, url: req.url, headers: req.headers }) } } });
    await fetch(g.url + "/v1/pods", { headers: { authorization: "Bearer sandbox_topsecret" } });
    await g.close();
    expect(out).toContain("[redacted]");
    expect(out).not.toContain("sandbox_topsecret");
  });
});
