// Each operation's version changes are computed from its table entry (mappings/data/change-rules.ts).
import { describe, expect, it } from "vitest";
import { operationByKey, operations, versionChanges } from "../../mappings/index.ts";
import { changeApplies } from "../../mappings/data/change-rules.ts";

describe("version changes computed from the table", () => {
  it("every rule names a change, and every rule-based change touches some operation", () => {
    const ids = new Set(versionChanges.map((c) => c.id));
    for (const id of Object.keys(changeApplies)) expect(ids.has(id), id).toBe(true);
    for (const id of Object.keys(changeApplies)) expect(operations.some((op) => op.changes.includes(id)), id).toBe(true);
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
