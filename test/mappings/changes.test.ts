// Each operation's version changes are computed from its table entry, by the rule each change
// carries with it (mappings/data/changes.ts).
import { describe, expect, it } from "vitest";
import { operationByKey, operations, versionChanges } from "../../mappings/index.ts";

describe("version changes computed from the table", () => {
  it("each change is one unit holding its own applies-to rule; every rule-based change touches some operation", () => {
    for (const c of versionChanges) expect(typeof c.appliesTo === "function" || c.appliesTo === "every operation", c.id).toBe(true);
    expect(versionChanges.filter((c) => c.appliesTo === "every operation").map((c) => c.id)).toEqual(["problem-errors", "rate-limit-headers"]);
    for (const c of versionChanges) {
      if (c.appliesTo !== "every operation") expect(operations.some((op) => op.changes.includes(c.id)), c.id).toBe(true);
    }
    expect(new Set(versionChanges.map((c) => c.id)).size).toBe(versionChanges.length);
  });

  it("derives the changes from paths, methods, statuses, lenses and emulations", () => {
    expect(operationByKey("UpdatePod#post-update").changes).toEqual(["base-url", "generic-path-id", "update-is-patch", "nested-bodies"]);
    expect(operationByKey("UpdatePod").changes).not.toContain("update-is-patch");
    expect(operationByKey("StopPod").changes).toEqual(["base-url", "generic-path-id", "lifecycle-action"]);
    expect(operationByKey("ResetPod").changes).toEqual(["base-url", "reset-removed"]);
    expect(operationByKey("CreateEndpoint").changes).toEqual(["base-url", "resource-renamed", "nested-bodies", "flashboot-enum", "gpu-pools", "create-status"]);
    expect(operationByKey("CreatePod").changes).not.toContain("create-status");
    // Endpoint updates use the update form of the GPU converter (endpointGpuUpdate): still GPU pools.
    expect(operationByKey("UpdateEndpoint").changes).toContain("gpu-pools");
    expect(operationByKey("EndpointBilling").changes).toEqual(["base-url", "resource-renamed", "wrapped-lists", "billing-buckets"]);
    expect(operationByKey("PodBilling").changes).not.toContain("resource-renamed");
    expect(operationByKey("ListPods").changes).toContain("list-filters-removed");
    expect(operationByKey("GetOpenAPI").changes).toEqual([]);
  });
});
