// A failing catalog lookup (outage, 429) is remembered for a short while: v1 pod reads still answer,
// with the "lookup failed" warning, but do not each send two more upstream requests on the caller's
// rate limit. After that while (at most the catalog TTL) the next read asks again.
// Real HTTP: v1 client → gateway → a loopback upstream whose catalog answers 503.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { warningsOf } from "./helpers.ts";

const POD = { id: "pod_c1", name: "c", status: "RUNNING", image: "busybox", gpu: { id: "NVIDIA RTX A5000", count: 1 }, cloud: "SECURE", locked: false, createdAt: "2026-06-01T12:00:00Z" };
const TTL_MS = 400;

describe("gateway: a failed catalog lookup is remembered briefly", () => {
  let upstream: http.Server;
  let gateway: Gateway;
  let catalogAsked = 0;
  let catalogFails = true;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      if (req.url!.startsWith("/v2/catalog/")) {
        catalogAsked++;
        if (catalogFails) {
          res.writeHead(503, { "content-type": "application/problem+json" }).end(JSON.stringify({ title: "Service Unavailable", status: 503, detail: "catalog down" }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(req.url!.includes("gpus") ? { gpus: [{ id: "NVIDIA RTX A5000", name: "RTX A5000", pool: "AMPERE_24", price: { secure: 0.27, community: 0.16 } }] } : { cpus: [] }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ pods: [POD] }));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    gateway = await startGateway({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0, catalogTtlMs: TTL_MS });
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  const listPods = () => fetch(gateway.url + "/v1/pods", { headers: { authorization: "Bearer sandbox_catalog_test" } });

  it("answers every read, asks the failing catalog once for several reads, and again after the failure's while", async () => {
    const first = await listPods();
    expect(first.status).toBe(200);
    expect(warningsOf(first.headers).join(" ")).toMatch(/catalog lookup .* failed/);
    const askedAfterFirst = catalogAsked;
    expect(askedAfterFirst).toBe(2); // GPUs and CPUs, once each
    for (let i = 0; i < 3; i++) {
      const again = await listPods();
      expect(again.status).toBe(200);
      expect(warningsOf(again.headers).join(" ")).toMatch(/catalog lookup .* failed/);
    }
    expect(catalogAsked).toBe(askedAfterFirst);

    catalogFails = false;
    await new Promise((r) => setTimeout(r, TTL_MS + 100));
    const recovered = await listPods();
    expect(recovered.status).toBe(200);
    expect(catalogAsked).toBe(askedAfterFirst + 2);
    const pods = (await recovered.json()) as any[];
    expect(pods[0].gpu.displayName).toBe("RTX A5000");
    expect(warningsOf(recovered.headers).join(" ")).not.toMatch(/catalog lookup .* failed/);
  });
});
