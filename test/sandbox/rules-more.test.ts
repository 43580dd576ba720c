// Template, registry-credential and catalog rules of the v2 document, and the schema-enforced size
// floors and full mounts, each test quoting the sentences it checks.
import { describe, expect, it } from "vitest";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { endpoint, expectProblem, gpuPod, quoting, quotingSchema, sandboxForRules } from "./rules-helpers.ts";

describe.skipIf(missingReference)(refSuite("v2 document rules in the sandbox: templates, credentials, catalog, schema floors"), () => {
  const { call } = sandboxForRules();

  describe("templates and registry credentials", () => {
    it(quoting("Only the template's owner can update it (authenticated via the request's API key); public catalog templates are readable via GET but return `404` here.", "Only the template's owner can delete it — public catalog templates return `404` here."), async () => {
      expect((await call("GET", "/v2/templates/runpod-torch-v240")).status).toBe(200);
      await expectProblem(call("PATCH", "/v2/templates/runpod-torch-v240", { name: "mine" }), 404, /public catalog template/);
      await expectProblem(call("DELETE", "/v2/templates/runpod-torch-v240"), 404, /public catalog template/);
    });

    it(quoting("Rejected if any pod currently uses this credential to pull its image.", "Registry credential is in use by a pod and cannot be deleted"), async () => {
      const reg = await call("POST", "/v2/registries", { name: "ghcr-rules", username: "u", password: "p" });
      const tpl = await call("POST", "/v2/templates", { name: "t", image: "img:1", registry: reg.body.id });
      const pod = await call("POST", "/v2/pods", gpuPod({ registry: reg.body.id }));
      await expectProblem(call("DELETE", `/v2/registries/${reg.body.id}`), 400, /in use by pod/);
      await call("DELETE", `/v2/pods/${pod.body.id}`);
      expect((await call("DELETE", `/v2/registries/${reg.body.id}`)).status).toBe(204);
      // Templates do not block the delete; they lose the reference.
      expect((await call("GET", `/v2/templates/${tpl.body.id}`)).body.registry).toBeNull();
    });
  });

  describe("catalog queries", () => {
    it(
      quoting(
        "Required with include=AVAILABILITY, and valid only with it (400 either way).",
        "Valid only with include=AVAILABILITY.",
        "Valid only with include=AVAILABILITY (400 otherwise); a malformed entry is a 422.",
        "Availability is product-specific, so this is required whenever availability is requested.",
        "Availability is included only when requested with include=AVAILABILITY, which requires `product` — stock differs by product context.",
        "Availability details are included only when requested with include=AVAILABILITY, which requires `product` — stock differs by product context.",
      ),
      async () => {
        await expectProblem(call("GET", "/v2/catalog/gpus?include=AVAILABILITY"), 400, /product is required/);
        await expectProblem(call("GET", "/v2/catalog/cpus/cpu3c?include=AVAILABILITY"), 400, /product is required/);
        for (const q of ["product=POD", "count=2", "cloud=SECURE", "countryCodes=FR"]) {
          await expectProblem(call("GET", `/v2/catalog/gpus?${q}`), 400, /only valid with include=AVAILABILITY/);
        }
        await expectProblem(call("GET", "/v2/catalog/cpus?vcpuCount=4"), 400, /only valid with include=AVAILABILITY/);
        // "a malformed entry is a 422": the query schema's pattern, answered by the validator.
        const malformed = await expectProblem(call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=POD&countryCodes=FR,fra"), 422, /^invalid query parameters$/);
        expect(malformed.errors).toEqual(["query parameter 'countryCodes'/1 must match pattern \"^[A-Z]{2}$\""]);
        const ok = await call("GET", "/v2/catalog/gpus/NVIDIA%20L4?include=AVAILABILITY&product=POD");
        expect(ok.body.availability).toBeDefined();
        expect((await call("GET", "/v2/catalog/gpus/NVIDIA%20L4")).body.availability).toBeUndefined();
      },
    );

    it(
      quoting(
        "Valid only with include=AVAILABILITY (400 otherwise) and mutually exclusive with minCudaVersion (400 if both are sent); a malformed entry is a 422.",
        "Valid only with include=AVAILABILITY (400 otherwise) and mutually exclusive with cudaVersions (400 if both are sent); a malformed value is a 422.",
      ),
      async () => {
        await expectProblem(call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8&minCudaVersion=12"), 400, /mutually exclusive/);
        await expectProblem(call("GET", "/v2/catalog/gpus?minCudaVersion=12"), 400, /only valid with include=AVAILABILITY/);
        // "a malformed entry/value is a 422": a bare major in cudaVersions, a non-version floor.
        const entry = await expectProblem(call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8,12"), 422, /^invalid query parameters$/);
        expect(entry.errors.join()).toMatch(/query parameter 'cudaVersions'\/1 must match pattern/);
        const floor = await expectProblem(call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=POD&minCudaVersion=twelve"), 422, /^invalid query parameters$/);
        expect(floor.errors.join()).toMatch(/query parameter 'minCudaVersion' must match pattern/);
      },
    );

    it(quoting("Must be a power of two."), async () => {
      await expectProblem(call("GET", "/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=6"), 400, /power of two/);
      expect((await call("GET", "/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=8")).status).toBe(200);
    });

    it(
      quoting(
        "Values within this filter use AND semantics; volumes=STANDARD,HIGH_PERFORMANCE requires both storage types.",
        "Values within this filter use AND semantics; compliance=GDPR,SOC_2_TYPE_2 requires both certifications.",
        "Filter by global networking support. true returns only data centers that support global networking; false only those that do not.",
      ),
      async () => {
        const ids = async (q: string) => (await call("GET", `/v2/catalog/datacenters?${q}`)).body.dataCenters.map((d: any) => d.id).sort();
        const both = await ids("networkVolumeTypes=STANDARD,HIGH_PERFORMANCE");
        const standard = await ids("networkVolumeTypes=STANDARD");
        expect(both.length).toBeGreaterThan(0);
        expect(both.length).toBeLessThan(standard.length);
        expect(await ids("compliance=GDPR,SOC_2_TYPE_2")).toEqual([]);
        const global = await ids("globalNetwork=true");
        const notGlobal = await ids("globalNetwork=false");
        expect(global.length && notGlobal.length).toBeTruthy();
        expect(global.filter((id: string) => notGlobal.includes(id))).toEqual([]);
      },
    );
  });

  describe("size minimums and full mounts, enforced by the JSON Schema validator (answered 422 with the failing paths)", () => {
    it(quotingSchema("Upstream enforces a 10 GB floor."), async () => {
      const r = await expectProblem(call("POST", "/v2/pods", gpuPod({ mounts: { persistent: { size: 5, path: "/w" } } })), 422, /^request body failed validation$/);
      expect(r.errors.join()).toMatch(/\/mounts\/persistent\/size must be >= 10/);
      expect((await call("POST", "/v2/pods", gpuPod({ mounts: { persistent: { size: 10, path: "/w" } } }))).status).toBe(201);
      const volume = await expectProblem(call("POST", "/v2/network-volumes", { name: "v", size: 5, dataCenter: "EU-RO-1" }), 422, /^request body failed validation$/);
      expect(volume.errors.join()).toMatch(/\/size must be >= 10/);
    });

    it(quotingSchema("- Partial mounts are not supported — every mount entry must include the full schema (`size` + `path` for persistent, `volumeId` + `path` for network).", "Missing required fields → 422."), async () => {
      const pod = await call("POST", "/v2/pods", gpuPod({ mounts: { persistent: { size: 20, path: "/w" } } }));
      const r = await expectProblem(call("PATCH", `/v2/pods/${pod.body.id}`, { mounts: { persistent: { size: 40 } } }), 422, /^request body failed validation$/);
      expect(r.errors.join()).toMatch(/required property 'path'/);
    });

    it(quotingSchema("At least one field must be present; an empty body is rejected."), async () => {
      const vol = await call("POST", "/v2/network-volumes", { name: "v", size: 10, dataCenter: "EU-RO-1" });
      const r = await expectProblem(call("PATCH", `/v2/network-volumes/${vol.body.id}`, {}), 422, /^request body failed validation$/);
      expect(r.errors).toEqual(["must NOT have fewer than 1 properties"]);
    });

    it(quotingSchema("Exact duplicate configurations are rejected; the same flavor may be listed at different vCPU counts."), async () => {
      const { gpu: _g, ...base } = endpoint();
      const r = await expectProblem(call("POST", "/v2/serverless", { ...base, cpu: [{ id: "cpu3c", vcpuCount: 2 }, { id: "cpu3c", vcpuCount: 2 }] }), 422, /^request body failed validation$/);
      expect(r.errors.join()).toMatch(/\/cpu must NOT have duplicate items/);
      expect((await call("POST", "/v2/serverless", { ...base, cpu: [{ id: "cpu3c", vcpuCount: 2 }, { id: "cpu3c", vcpuCount: 4 }] })).status).toBe(201);
    });
  });
});
