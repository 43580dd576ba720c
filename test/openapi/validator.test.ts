import { describe, expect, it } from "vitest";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { createV1Validator, createV2Validator } from "../../openapi/validator.ts";
import { refDescribe } from "../helpers/reference.ts";

refDescribe("openapi validator", () => {
  const v2 = createV2Validator(loadV2());
  const v1 = createV1Validator(loadV1());

  describe("matchOperation", () => {
    it("prefers literal segments over {id}", () => {
      expect(v2.matchOperation("GET", "/v2/registries/delegations")).toEqual({
        pathTemplate: "/v2/registries/delegations",
        operationId: "listDelegations",
        params: {},
      });
      expect(v2.matchOperation("DELETE", "/v2/registries/abc")?.operationId).toBe("deleteRegistry");
      expect(v2.matchOperation("DELETE", "/v2/registries/delegations/d1")?.params).toEqual({ id: "d1" });
    });
    it("decodes parameters and rejects unknown paths and methods", () => {
      expect(v2.matchOperation("get", "/v2/catalog/gpus/NVIDIA%20A40")?.params.id).toBe("NVIDIA A40");
      expect(v2.matchOperation("GET", "/v2/nothing")).toBeNull();
      expect(v2.matchOperation("PUT", "/v2/pods")).toBeNull();
      expect(v2.matchOperation("GET", "/v2/pods/x?y=1")?.pathTemplate).toBe("/v2/pods/{id}");
    });
    it("matches v1 paths with or without the server base path", () => {
      expect(v1.matchOperation("POST", "/v1/pods/p1/start")).toMatchObject({ pathTemplate: "/pods/{podId}/start", params: { podId: "p1" } });
      expect(v1.matchOperation("GET", "/pods")?.operationId).toBe("ListPods");
    });
  });

  describe("validateRequestBody", () => {
    it("closes the top-level object and reports readable paths", () => {
      const r = v2.validateRequestBody("POST", "/v2/pods", { name: "x", image: "y", foo: 1, gpu: { id: "a", count: 0 } });
      expect(r).toEqual({ ok: false, errors: expect.arrayContaining(["/gpu/count must be >= 1", "must NOT have unevaluated property 'foo'"]) });
    });
    it("accepts valid bodies, including conditional schemas (CreateEndpointRequest)", () => {
      expect(v2.validateRequestBody("POST", "/v2/pods", { name: "x", image: "y", gpu: { id: "NVIDIA A40" } })).toEqual({ ok: true });
      expect(
        v2.validateRequestBody("POST", "/v2/serverless", {
          name: "e",
          image: "i",
          type: "QUEUE",
          scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
          gpu: { pools: ["ADA_24"] },
        }),
      ).toEqual({ ok: true });
    });
    it("enforces enums, nested closed objects and required bodies", () => {
      expect(v2.validateRequestBody("POST", "/v2/pods/{id}/action", { action: "reset" })).toMatchObject({ ok: false, errors: [expect.stringContaining("/action must be one of")] });
      const nested = v2.validateRequestBody("POST", "/v2/pods", { name: "x", image: "y", mounts: { persistent: { size: 20, path: "/w", extra: 1 } } });
      expect(nested).toMatchObject({ ok: false, errors: expect.arrayContaining(["/mounts/persistent must NOT have additional property 'extra'"]) });
      expect(v2.validateRequestBody("POST", "/v2/network-volumes", undefined)).toEqual({ ok: false, errors: ["request body is required"] });
      expect(
        v2.validateRequestBody("POST", "/v2/serverless", { name: "e", image: "i", type: "LOAD_BALANCER", scaling: { type: "QUEUE_DELAY", queueDelay: 4 } }).ok,
      ).toBe(false);
    });
    it("leaves v1 bodies open by default", () => {
      expect(v1.validateRequestBody("POST", "/pods", { imageName: "x", whatever: true }).ok).toBe(true);
    });
  });

  describe("validateQuery", () => {
    it("checks documented enums and bounds with coercion from strings", () => {
      expect(v2.validateQuery("GET", "/v2/billing", { bucketSize: "day", lastN: "3" })).toEqual({ ok: true });
      const bad = v2.validateQuery("GET", "/v2/billing", { bucketSize: "minute", lastN: "0" });
      expect(bad.ok).toBe(false);
      if (!bad.ok) {
        expect(bad.errors.some((e) => e.includes("bucketSize") && e.includes("must be one of"))).toBe(true);
        expect(bad.errors).toContain("query parameter 'lastN' must be >= 1");
      }
      expect(v2.validateQuery("GET", "/v2/catalog/datacenters", { regions: "EUROPE,MARS" }).ok).toBe(false);
      expect(v2.validateQuery("GET", "/v2/pods", { includeClusterPods: "true", unknown: "x" })).toEqual({ ok: true });
    });
  });

  describe("validateResponse", () => {
    it("picks the exact status, then default; no-content responses must be empty", () => {
      expect(v2.validateResponse("GET", "/v2/pods", 200, "application/json; charset=utf-8", { pods: [] })).toEqual({ ok: true });
      expect(v2.validateResponse("GET", "/v2/pods", 200, "application/json", {}).ok).toBe(false);
      expect(v2.validateResponse("DELETE", "/v2/pods/{id}", 204, null, undefined)).toEqual({ ok: true });
      expect(v2.validateResponse("DELETE", "/v2/pods/{id}", 204, "application/json", { a: 1 }).ok).toBe(false);
      expect(v2.validateResponse("GET", "/v2/pods", 503, "application/problem+json", { title: "x", status: 503, detail: "d" })).toEqual({ ok: true });
      expect(v2.validateResponse("GET", "/v2/pods", 404, "application/json", { title: "x", status: 404, detail: "d" }).ok).toBe(false);
    });
    it("errors on undocumented statuses without default (v1)", () => {
      const r = v1.validateResponse("GET", "/openapi.json", 500, "application/json", {});
      expect(r.ok).toBe(false);
    });
    it("handles v1 nullable fields", () => {
      expect(v1.validateResponse("GET", "/pods/{podId}", 200, "application/json", { id: "p", publicIp: null })).toEqual({ ok: true });
      expect(v1.validateResponse("GET", "/pods/{podId}", 200, "application/json", { id: "p", publicIp: 5 }).ok).toBe(false);
    });
  });
});
