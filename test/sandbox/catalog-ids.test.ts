// Every data center, GPU type and CPU flavour id the v1 or v2 document names is known to the
// sandbox catalog and accepted where a client would send it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { GPU_TYPES, NO_CAPACITY_GPU_TYPE } from "../../sandbox/catalog.ts";
import { gpuFamily, namedCatalogIds, regionOf } from "../../sandbox/catalog-from-documents.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";

describe("ids named by a document", () => {
  it("come from enums, examples and defaults, and from quoted names in prose; manufacturer names and unquoted prose are not ids", () => {
    const doc = {
      components: {
        schemas: {
          A: { properties: { gpuTypeIds: { items: { enum: ["NVIDIA A40", "NVIDIA  A30"] } }, dc: { examples: ["US-KS-2"], default: ["EU-RO-1"] } } },
          B: { description: 'Exclude `" NVIDIA L40"` or run cpu5g in OC-AU-1; NVIDIA GPU workloads.', properties: { category: { enum: ["NVIDIA", "AMD"] } } },
        },
      },
    };
    const ids = namedCatalogIds([doc]);
    expect(ids.gpuTypes.sort()).toEqual(["NVIDIA  A30", "NVIDIA A40", "NVIDIA L40"]);
    expect(ids.dataCenters.sort()).toEqual(["EU-RO-1", "OC-AU-1", "US-KS-2"]);
    expect(ids.cpuFlavors).toEqual(["cpu5g"]);
  });

  it("get sandbox facts from their names", () => {
    expect(regionOf("US-KS-2")).toBe("NORTH_AMERICA");
    expect(regionOf("EUR-NO-1")).toBe("EUROPE");
    expect(regionOf("AP-JP-1")).toBe("ASIA");
    expect(gpuFamily("NVIDIA A100-SXM4-40GB")).toEqual({ pool: "AMPERE_80", memory: 40 });
    expect(gpuFamily("Tesla T4").pool).toBeNull();
  });
});

describe.skipIf(missingReference)(refSuite("the sandbox knows every id the v1 and v2 documents name"), () => {
  let sb: Sandbox;
  const named = missingReference ? { dataCenters: [], gpuTypes: [], cpuFlavors: [] } : namedCatalogIds([loadV1(), loadV2()]);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(sb.url + path, {
      method,
      headers: { authorization: "Bearer sandbox_ids", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, warn: () => {}, bootMs: 0, rateLimit: false });
  });
  afterAll(async () => {
    await sb?.close();
  });

  it("finds the ids v1's enums list (26 data centers, the GPU type enum, six CPU flavours) and v2's examples (US-KS-2, NVIDIA L40)", () => {
    expect(named.dataCenters.length).toBeGreaterThanOrEqual(26);
    expect(named.dataCenters).toContain("US-KS-2");
    expect(named.gpuTypes).toEqual(expect.arrayContaining(["NVIDIA L40", "NVIDIA GeForce RTX 5090", "AMD Instinct MI300X OAM"]));
    expect(named.cpuFlavors.sort()).toEqual(["cpu3c", "cpu3g", "cpu3m", "cpu5c", "cpu5g", "cpu5m"]);
  });

  it("lists and places a pod in every named data center", async () => {
    const listed = new Set((await call("GET", "/v2/catalog/datacenters")).body.dataCenters.map((d: any) => d.id));
    const refused: string[] = [];
    for (const id of named.dataCenters) {
      expect(listed.has(id), id).toBe(true);
      // Placement is per GPU type: use one the catalog offers there.
      const offered = GPU_TYPES.find((g) => g.hasCapacity && g.dataCenters.includes(id));
      if (!offered) {
        refused.push(`${id}: no GPU type offered`);
        continue;
      }
      const pod = await call("POST", "/v2/pods", { name: "dc", image: "img:1", gpu: { id: offered.id }, dataCenterIds: [id] });
      if (pod.status !== 201 || pod.body.dataCenterId !== id) refused.push(`${id}: ${pod.status} ${pod.body.detail ?? ""}`);
    }
    expect(refused).toEqual([]);
  });

  it("lists every named GPU type and creates a pod with each (the sandbox's one no-capacity type answers its capacity error)", async () => {
    const refused: string[] = [];
    for (const id of named.gpuTypes) {
      const got = await call("GET", `/v2/catalog/gpus/${encodeURIComponent(id)}`);
      if (got.status !== 200) refused.push(`catalog ${id}: ${got.status}`);
      const pod = await call("POST", "/v2/pods", { name: "g", image: "img:1", gpu: { id } });
      const expected = id === NO_CAPACITY_GPU_TYPE ? 400 : 201;
      if (pod.status !== expected) refused.push(`pod ${id}: ${pod.status} ${pod.body.detail ?? ""}`);
      if (id === NO_CAPACITY_GPU_TYPE) expect(pod.body.detail).toMatch(/no instances available/);
    }
    expect(refused).toEqual([]);
  });

  it("creates a CPU pod with every named CPU flavour", async () => {
    for (const id of named.cpuFlavors) {
      const pod = await call("POST", "/v2/pods", { name: "c", image: "img:1", cpu: { id, vcpuCount: 2 } });
      expect([id, pod.status]).toEqual([id, 201]);
    }
  });
});
